/** The table before (or between) matches: seats, bots, house rules, start and invite. */
import { h } from "../dom.js";
import { num, t as tr } from "../i18n.js";
import { levelName } from "../lobby.js";
import { gameTitle, rulesFor } from "../games/index.js";
import { tableLink } from "../invites.js";
import { rematchControls } from "./overlays.js";

/** actions: {join(seat), addBot(seat, level), remove(seat), start(), rematch(), leave(), saveRules(body)} */
export function renderWaiting(model, { levels, me, actions }) {
  const t = model.table;
  const { rulesForm, summarize } = rulesFor(t.game);
  const isOwner = t.owner?.id === me?.id;
  const mySeat = t.seats.find((s) => s.player?.id === me?.id);
  const canManage = isOwner || !!mySeat;
  const occupied = t.seats.filter((s) => s.player || s.bot).length;
  const title = `${gameTitle(t.game)} · ${tr(t.name ? "waiting.table_named" : "waiting.table_id", { name: t.name, id: t.id })}`;
  const link = tableLink(t);

  const seats = t.seats.map((seat) => {
    const who = seat.player ? (seat.player.id === me?.id ? tr("present.you", { name: seat.player.name }) : seat.player.name)
      : seat.bot ? tr("lobby.bot_named", { name: levelName({ id: seat.bot.level, name: seat.bot.name }) }) : tr("waiting.empty");
    const controls = [];
    if (!seat.player && !seat.bot) {
      if (!mySeat) controls.push(h("button", { type: "button", class: "btn small primary", onclick: () => actions.join(seat.index) }, tr("waiting.sit")));
      if (canManage) {
        const level = h("select", { "aria-label": tr("waiting.bot_level", { n: seat.index + 1 }), class: "bot-level" },
          levels.map((l) => h("option", { value: l.id, title: l.description },
            l.rating ? `${levelName(l)} · ${num(l.rating.ordinal, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}` : levelName(l))));
        controls.push(level, h("button", { type: "button", class: "btn small", "data-add-bot": seat.index,
          onclick: () => actions.addBot(seat.index, level.value) }, tr("waiting.add_bot")));
      }
    } else if (isOwner && t.status !== "playing" && seat.player?.id !== me?.id) {
      controls.push(h("button", { type: "button", class: "btn small danger", onclick: () => actions.remove(seat.index) }, tr("waiting.remove")));
    }
    return h("li", { class: `seat-row${seat.player || seat.bot ? " taken" : ""}`, "data-seat": seat.index },
      h("span", { class: "seat-no" }, tr("common.seat", { n: seat.index + 1 })),
      h("span", { class: "seat-who" }, who, seat.player && !seat.connected ? h("small", {}, ` · ${tr("present.offline")}`) : null),
      h("span", { class: "seat-controls" }, controls));
  });

  const finished = t.status === "finished";
  const startLabel = tr(occupied === 1 ? "waiting.start_solo" : "waiting.start");
  const rules = summarize(t.options);
  let editor = null;
  if (isOwner && t.status !== "playing") {
    const form = rulesForm({ seats: t.seats.length, options: t.options, showSeats: false });
    editor = h("details", { class: "edit-rules" }, h("summary", {}, tr("waiting.change_rules")),
      form.el,
      h("button", { type: "button", class: "btn", onclick: () => actions.saveRules({ options: form.read().options }) }, tr("waiting.save_rules")));
  }
  return h("section", { class: "waiting panel", "aria-labelledby": "waiting-title" },
    h("h1", { id: "waiting-title" }, title),
    h("p", { class: "muted" }, finished ? tr("waiting.over") : tr("waiting.owner", { name: t.owner?.name ?? "?" }),
      ` · ${tr(t.public ? "waiting.public" : "waiting.private")}`),
    h("ol", { class: "seats" }, seats),
    h("p", {}, h("b", {}, tr("waiting.house_rules")), " ", rules.join(" · ")),
    editor,
    h("div", { class: "actions" },
      finished ? rematchControls(t, me, { propose: actions.rematch, decline: actions.declineRematch })
        : mySeat ? h("button", { type: "button", class: "btn primary", id: "start", disabled: occupied === 0,
          onclick: actions.start }, startLabel) : null,
      mySeat ? h("button", { type: "button", class: "btn", onclick: actions.leave }, tr("waiting.leave_seat")) : null,
      h("button", { type: "button", class: "btn", onclick: () => copy(link) }, tr("waiting.copy_invite"))),
    h("p", { class: "muted small" }, tr("waiting.invite"), " ", h("code", {}, t.name ? tr("waiting.invite_named", { name: t.name, link }) : link)));
}

function copy(text) {
  navigator.clipboard?.writeText(text).catch(() => {});
}
