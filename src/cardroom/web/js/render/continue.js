/** A round summary's "Continue": the next deal waits for every player here to have read it
 * (docs/protocol.md, `ready`), at most the countdown shown. */
import { h } from "../dom.js";
import { list, t } from "../i18n.js";

/**
 * The button for a seated player, then who is still reading; nothing for a watcher.
 * `model.match.ready` lists the match seats that have said it (the server's `table` message).
 */
export function continueControl(model, onContinue) {
  const seat = model.mySeat;
  if (seat === null || seat === undefined) return null;
  const ready = model.match?.ready || [];
  if (!ready.includes(seat) && !model.saidReady) {
    return h("p", { class: "continue" },
      h("button", { type: "button", class: "btn primary", id: "continue", onclick: onContinue }, t("common.continue")));
  }
  const seats = model.match?.seats || [];
  const bots = new Set((model.table?.seats || []).filter((s) => s.bot || s.autopilot || !s.connected || s.away).map((s) => s.index));
  const waiting = seats.map((tableSeat, matchSeat) => ({ tableSeat, matchSeat }))
    .filter(({ tableSeat, matchSeat }) => !bots.has(tableSeat) && !ready.includes(matchSeat) && matchSeat !== seat)
    .map(({ matchSeat }) => model.name(matchSeat));
  return h("p", { class: "continue muted", id: "continue-waiting", role: "status" },
    waiting.length ? t("table.waiting_for_readers", { names: list(waiting) }) : t("table.dealing"));
}
