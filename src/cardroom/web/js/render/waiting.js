/** The table before (or between) matches: seats, bots, house rules, start and invite. */
import { h } from "../dom.js";
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
  const title = `${gameTitle(t.game)} · ${t.name ? `table “${t.name}”` : `table ${t.id}`}`;
  const link = tableLink(t);

  const seats = t.seats.map((seat) => {
    const who = seat.player ? seat.player.name + (seat.player.id === me?.id ? " (you)" : "")
      : seat.bot ? `${seat.bot.name} bot` : "Empty seat";
    const controls = [];
    if (!seat.player && !seat.bot) {
      if (!mySeat) controls.push(h("button", { type: "button", class: "btn small primary", onclick: () => actions.join(seat.index) }, "Sit here"));
      if (canManage) {
        const level = h("select", { "aria-label": `Bot level for seat ${seat.index + 1}`, class: "bot-level" },
          levels.map((l) => h("option", { value: l.id, title: l.description },
            l.rating ? `${l.name} · ${l.rating.ordinal.toFixed(1)}` : l.name)));
        controls.push(level, h("button", { type: "button", class: "btn small", "data-add-bot": seat.index,
          onclick: () => actions.addBot(seat.index, level.value) }, "Add bot"));
      }
    } else if (isOwner && t.status !== "playing" && seat.player?.id !== me?.id) {
      controls.push(h("button", { type: "button", class: "btn small danger", onclick: () => actions.remove(seat.index) }, "Remove"));
    }
    return h("li", { class: `seat-row${seat.player || seat.bot ? " taken" : ""}`, "data-seat": seat.index },
      h("span", { class: "seat-no" }, `Seat ${seat.index + 1}`),
      h("span", { class: "seat-who" }, who, seat.player && !seat.connected ? h("small", {}, " · offline") : null),
      h("span", { class: "seat-controls" }, controls));
  });

  const finished = t.status === "finished";
  const startLabel = occupied === 1 ? "Start a solo round" : "Start the match";
  const rules = summarize(t.options);
  let editor = null;
  if (isOwner && t.status !== "playing") {
    const form = rulesForm({ seats: t.seats.length, options: t.options, showSeats: false });
    editor = h("details", { class: "edit-rules" }, h("summary", {}, "Change house rules"),
      form.el,
      h("button", { type: "button", class: "btn", onclick: () => actions.saveRules({ options: form.read().options }) }, "Save house rules"));
  }
  return h("section", { class: "waiting panel", "aria-labelledby": "waiting-title" },
    h("h1", { id: "waiting-title" }, title),
    h("p", { class: "muted" }, finished ? "The match is over. Seats can change; anyone seated can propose a rematch, which starts once everyone seated has accepted." : `Waiting to start · owner ${t.owner?.name ?? "?"}`,
      t.public ? " · public" : " · private"),
    h("ol", { class: "seats" }, seats),
    h("p", {}, h("b", {}, "House rules: "), rules.join(" · ")),
    editor,
    h("div", { class: "actions" },
      finished ? rematchControls(t, me, { propose: actions.rematch, decline: actions.declineRematch })
        : mySeat ? h("button", { type: "button", class: "btn primary", id: "start", disabled: occupied === 0,
          onclick: actions.start }, startLabel) : null,
      mySeat ? h("button", { type: "button", class: "btn", onclick: actions.leave }, "Leave the seat") : null,
      h("button", { type: "button", class: "btn", onclick: () => copy(link) }, "Copy invite link")),
    h("p", { class: "muted small" }, "Invite: ", h("code", {}, t.name ? `join “${t.name}” from the lobby, or ${link}` : link)));
}

function copy(text) {
  navigator.clipboard?.writeText(text).catch(() => {});
}
