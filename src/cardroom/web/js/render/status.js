/**
 * What the table says besides its board: the top bar's status (whose turn it is, the round or
 * the match over, the connection coming back), the move-status line under the board (a move on
 * its way, why a click did nothing, the connection lost: never a silent board) and the clocks.
 */
import { h, mount } from "../dom.js";
import { t } from "../i18n.js";

const PENDING_SHOWN_AFTER_MS = 500; // a move answered sooner never flashes "Sending…"

/** The top bar's status in `el`, and its (empty) clock, which `updateClocks` sets. */
export function showTopStatus(el, m, conn) {
  let text = "";
  let cls = "";
  if (conn === "reconnecting" || conn === "connecting" || conn === "offline") {
    text = t(`table.conn.${conn}`);
    cls = "warn";
  } else if (m.view && m.result) text = t("table.match_over");
  else if (m.view && m.view.result) text = t("table.round_over");
  else if (m.view) {
    text = m.myTurn ? t("table.your_turn") : t("table.whose_turn", { name: m.name(m.view.current) });
    cls = m.myTurn ? "mine" : "";
  } else if (m.table) text = m.table.status === "finished" ? t("table.match_over") : t("table.waiting_start");
  mount(el, h("span", { class: `turn-status ${cls}`, id: "turn-status" }, text), h("span", { class: "timer big", "data-timer": "" }));
}

/** What the move-status line says (a notice, a move on its way, the connection lost), given
 * the move sent and not yet answered (`pending`), the `notice` and the table's socket. */
export function moveStatus(pending, notice, socket) {
  const open = socket?.status === "open";
  let sending = "";
  if (pending && !open) sending = t("table.move_waiting");
  else if (pending && performance.now() - pending.since > PENDING_SHOWN_AFTER_MS) {
    sending = t(pending.resent ? "table.move_resending" : "table.move_sending");
  }
  const down = !open && socket ? t("table.connection_lost") : "";
  const text = [notice, sending || (notice ? "" : down)].filter(Boolean).join(" ");
  const state = sending ? "pending" : notice ? "notice" : down ? "offline" : "";
  return { text, state };
}

/** The move-status line as drawn, so that a patch leaves its live region alone. */
export function moveStatusLine({ text, state }) {
  return h("p", { class: "move-status", id: "move-status", role: "status", "aria-live": "polite", "data-state": state, hidden: !text }, text);
}

/** Bring the move-status line under `root` up to date, and mark the board with the move on
 * its way. */
export function updateMoveStatus(root, { text, state }, pending) {
  const el = root.querySelector("#move-status");
  if (!el) return;
  if (el.textContent !== text) el.textContent = text;
  if (el.dataset.state !== state) el.dataset.state = state;
  if (el.hidden !== !text) el.hidden = !text;
  const board = root.querySelector("#board");
  if (board) {
    if (pending) board.dataset.pending = pending.id;
    else delete board.dataset.pending;
  }
}

/** The turn clocks (blank between rounds) and a round summary's countdown to the next deal. */
export function updateClocks(root, m, summarySeconds) {
  const left = m.secondsLeft();
  for (const el of root.ownerDocument.querySelectorAll("[data-timer]")) {
    if (left === null || !m.view || m.view.result) {
      el.textContent = "";
      continue;
    }
    el.textContent = `${Math.ceil(left)} s`;
    el.classList.toggle("low", left < 10);
  }
  const next = root.querySelector("[data-next-round]");
  if (next) next.textContent = `${Math.ceil(summarySeconds() ?? 0)} s`;
}
