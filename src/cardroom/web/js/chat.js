/**
 * The table's chat panel: the lines said at the table (the server checks and paces them,
 * docs/protocol.md), a field to say one, muting, kept in this browser for every table, and
 * reporting a line or a player to the moderators (the server quotes the table's own chat).
 * Built once and kept across the table's redraws (what is being typed stays); lines are text,
 * never markup.
 */
import { h, kept, mount } from "./dom.js";
import { player } from "./identity.js";

const CHAT_LENGTH = 200; // the server's limit (docs/protocol.md)
const MUTED = "cardroom.muted";

function mutedPlayers() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  } catch {
    return new Set();
  }
}

export class ChatPanel {
  /** `lines()`: the chat lines known now; `send(text)`: true when the line went out;
   * `people()`: the others at the table ({id, name}); `report(body)`: a promise of the report. */
  constructor({ lines, send, people = () => [], report = null }) {
    this.lines = lines;
    this.send = send;
    this.people = people;
    this.report = report;
    this.el = null;
  }

  /** The panel, for a redraw of the table (the same element every time). */
  element() {
    if (this.el) return kept(this.el);
    this.list = h("ol", { class: "chat-log", role: "log", "aria-label": "Chat lines", tabindex: "0" });
    this.input = h("input", { name: "chat", maxlength: String(CHAT_LENGTH), autocomplete: "off", "data-key": "chat-input",
      placeholder: "Say something to the table", "aria-label": "Say something to the table" });
    this.note = h("p", { class: "chat-note", id: "chat-note", role: "status" });
    const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.input, h("button", { type: "submit", class: "btn small" }, "Send"));
    this.reporting = h("div", { class: "chat-report" });
    const reportPlayer = this.report ? h("button", { type: "button", class: "chat-report-open btn small",
      onclick: () => this.openReport(null) }, "Report a player") : null;
    this.el = h("section", { class: "chat", id: "chat", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, "Chat"), this.list, this.note, form, reportPlayer, this.reporting);
    this.update();
    return kept(this.el);
  }

  update() {
    if (!this.list) return;
    const me = player()?.id;
    const muted = mutedPlayers();
    const all = this.lines();
    const shown = all.filter((line) => !muted.has(line.from.id));
    mount(this.list, shown.map((line) => h("li", { class: `chat-line${line.from.id === me ? " mine" : ""}` },
      h("b", { class: "chat-who" }, line.from.id === me ? "You" : line.from.name), " ",
      h("span", { class: "chat-text" }, line.text),
      line.from.id === me ? null : h("button", { type: "button", class: "chat-mute", "aria-label": `Mute ${line.from.name}`,
        onclick: () => this.mute(line.from.id, true) }, "Mute"),
      line.from.id === me || !this.report ? null : h("button", { type: "button", class: "chat-flag",
        "aria-label": `Report ${line.from.name} for this line`, onclick: () => this.openReport(line.from, "chat") }, "Report"))));
    const hidden = all.length - shown.length;
    mount(this.note, hidden ? [`${hidden} line${hidden > 1 ? "s" : ""} from muted players hidden. `,
      h("button", { type: "button", class: "btn small", id: "chat-unmute", onclick: () => this.mute(null, false) }, "Unmute all")] : null);
    this.list.scrollTop = this.list.scrollHeight;
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.send(text)) {
      mount(this.note, "Not connected: the line was not sent.");
      return;
    }
    this.input.value = "";
  }

  /** A small form under the chat: whom (the line's author, or a choice among the others),
   * why (a chat line, the name, stalling, cheating, other), a note. The server quotes the
   * table's kept chat itself: nothing typed here can put words in anyone's mouth. */
  openReport(who, reason = "chat") {
    const others = who ? [who] : this.people();
    if (!others.length) return mount(this.note, "Nobody else is at the table to report.");
    const whom = h("select", { name: "player", "aria-label": "Player to report" },
      others.map((p) => h("option", { value: p.id }, p.name)));
    const why = h("select", { name: "reason", "aria-label": "Reason" },
      [["chat", "What they said"], ["name", "Their name"], ["stalling", "Stalling"], ["cheating", "Cheating"], ["other", "Something else"]]
        .map(([value, text]) => h("option", { value, selected: value === reason ? "" : null }, text)));
    const note = h("input", { name: "note", maxlength: "500", placeholder: "What happened (optional)", "aria-label": "What happened" });
    const form = h("form", { class: "chat-report-form", "aria-label": "Report a player",
      onsubmit: (e) => { e.preventDefault(); this.sendReport(whom.value, why.value, note.value.trim()); } },
      whom, why, note, h("button", { type: "submit", class: "btn small" }, "Send report"),
      h("button", { type: "button", class: "btn small", onclick: () => mount(this.reporting, null) }, "Cancel"));
    mount(this.reporting, form);
    (who ? why : whom).focus();
  }

  async sendReport(player, reason, note) {
    try {
      await this.report({ player, reason, ...(note ? { note } : {}) });
      mount(this.reporting, null);
      mount(this.note, h("span", { class: "chat-reported" }, "Thank you: the report went to the moderators, with the table's chat."));
    } catch (error) {
      mount(this.note, h("span", { class: "chat-refused" }, error.message));
    }
  }

  /** A line the server refused (too long, too fast): said under the lines, nothing else. */
  refused(msg) {
    if (this.note) mount(this.note, h("span", { class: "chat-refused" }, msg.message));
  }

  /** Mute (or, with no player, unmute everyone): kept in this browser, for every table. */
  mute(playerId, on) {
    const muted = mutedPlayers();
    if (playerId === null) muted.clear();
    else if (on) muted.add(playerId);
    try {
      localStorage.setItem(MUTED, JSON.stringify([...muted]));
    } catch {
      /* storage full or off: muting lasts as long as the page */
    }
    this.update();
  }
}
