/**
 * The table's chat panel: the lines said at the table (the server checks and paces them,
 * docs/protocol.md), a field to say one, muting, kept in this browser for every table, and
 * reporting a line or a player to the moderators (the server quotes the table's own chat).
 * Built once and kept across the table's redraws (what is being typed stays); lines are text,
 * never markup.
 */
import { t } from "./i18n.js";
import { refusalText } from "./refusal.js";
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
    this.list = h("ol", { class: "chat-log", role: "log", "aria-label": t("chat.lines"), tabindex: "0", "data-empty": t("chat.empty") });
    this.input = h("input", { name: "chat", maxlength: String(CHAT_LENGTH), autocomplete: "off", "data-key": "chat-input",
      placeholder: t("chat.say"), "aria-label": t("chat.say") });
    this.note = h("p", { class: "chat-note", id: "chat-note", role: "status" });
    const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.input, h("button", { type: "submit", class: "btn small" }, t("chat.send")));
    this.reporting = h("div", { class: "chat-report" });
    const reportPlayer = this.report ? h("button", { type: "button", class: "chat-report-open btn small",
      onclick: () => this.openReport(null) }, t("chat.report_player")) : null;
    this.el = h("section", { class: "chat", id: "chat", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, t("chat.title")), this.list, this.note, form, reportPlayer, this.reporting);
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
      h("b", { class: "chat-who" }, line.from.id === me ? t("common.you") : line.from.name), " ",
      h("span", { class: "chat-text" }, line.text),
      line.from.id === me ? null : h("button", { type: "button", class: "chat-mute", "aria-label": t("chat.mute_label", { name: line.from.name }),
        onclick: () => this.mute(line.from.id, true) }, t("chat.mute")),
      line.from.id === me || !this.report ? null : h("button", { type: "button", class: "chat-flag",
        "aria-label": t("chat.report_label", { name: line.from.name }), onclick: () => this.openReport(line.from, "chat") }, t("chat.report")))));
    const hidden = all.length - shown.length;
    mount(this.note, hidden ? [`${t("chat.hidden", { count: hidden })} `,
      h("button", { type: "button", class: "btn small", id: "chat-unmute", onclick: () => this.mute(null, false) }, t("chat.unmute"))] : null);
    this.list.scrollTop = this.list.scrollHeight;
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.send(text)) {
      mount(this.note, t("chat.not_sent"));
      return;
    }
    this.input.value = "";
  }

  /** A small form under the chat: whom (the line's author, or a choice among the others),
   * why (a chat line, the name, stalling, cheating, other), a note. The server quotes the
   * table's kept chat itself: nothing typed here can put words in anyone's mouth. */
  openReport(who, reason = "chat") {
    const others = who ? [who] : this.people();
    if (!others.length) return mount(this.note, t("chat.nobody"));
    const whom = h("select", { name: "player", "aria-label": t("chat.whom") },
      others.map((p) => h("option", { value: p.id }, p.name)));
    const why = h("select", { name: "reason", "aria-label": t("chat.reason") },
      ["chat", "name", "stalling", "cheating", "other"]
        .map((value) => h("option", { value, selected: value === reason ? "" : null }, t(`chat.reason.${value}`))));
    const note = h("input", { name: "note", maxlength: "500", placeholder: t("chat.what_optional"), "aria-label": t("chat.what") });
    const form = h("form", { class: "chat-report-form", "aria-label": t("chat.report_player"),
      onsubmit: (e) => { e.preventDefault(); this.sendReport(whom.value, why.value, note.value.trim()); } },
      whom, why, note, h("button", { type: "submit", class: "btn small" }, t("chat.send_report")),
      h("button", { type: "button", class: "btn small", onclick: () => mount(this.reporting, null) }, t("common.cancel")));
    mount(this.reporting, form);
    (who ? why : whom).focus();
  }

  async sendReport(player, reason, note) {
    try {
      await this.report({ player, reason, ...(note ? { note } : {}) });
      mount(this.reporting, null);
      mount(this.note, h("span", { class: "chat-reported" }, t("chat.thanks")));
    } catch (error) {
      mount(this.note, h("span", { class: "chat-refused" }, error.text || error.message));
    }
  }

  /** A line the server refused (too long, too fast): said under the lines, nothing else. */
  refused(msg) {
    if (this.note) mount(this.note, h("span", { class: "chat-refused" }, refusalText(msg)));
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
