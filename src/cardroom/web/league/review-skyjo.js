/**
 * The review page's Skyjo parts: an action in words and in short, and the table as the
 * reviewed seat saw it after a step (its own grid, the others' grids with their face-down
 * cards as backs, the piles; never a card that seat could not see).
 */
import { el } from "./league.js";
import { t } from "../js/i18n.js";
import { HIDDEN, skyjoCard } from "../js/games/skyjo/cards.js";

function place(action) {
  return t("sk.at", { column: action.column, row: action.row });
}

/** "took the 5 from the discard pile for column 2, row 1"; `before`: the view before it. */
export function describeAction(action, before) {
  if (!action) return "";
  const top = before?.discard_top;
  switch (action.type) {
    case "reveal": return t("review.sk.reveal", { at: place(action) });
    case "take": return top === null || top === undefined ? t("review.sk.take_any", { at: place(action) }) : t("review.sk.take", { card: top, at: place(action) });
    case "draw": return t("review.sk.draw");
    case "exchange": return t("review.sk.exchange", { at: place(action) });
    case "discard": return t("review.sk.discard", { at: place(action) });
    case "timeout": return t("review.sk.timeout");
    default: return action.type;
  }
}

/** "take→C1R2", "draw", "keep→C4R2", "discard, turn C3R3". */
export function short(action) {
  const where = `C${action.column}R${action.row}`;
  switch (action.type) {
    case "draw": case "timeout": return action.type;
    case "discard": return t("review.short.sk_discard", { where });
    case "exchange": return `keep→${where}`;
    case "reveal": return `turn→${where}`;
    default: return `${action.type}→${where}`;
  }
}

function grid(cells) {
  const out = [];
  for (let row = 0; row < 3; row += 1) {
    for (let col = 0; col < 4; col += 1) out.push(skyjoCard(cells[col][row]));
  }
  return el("div", { class: "sk-grid" }, out);
}

function shows(cells) {
  let sum = 0;
  let down = 0;
  for (const column of cells) {
    for (const cell of column) {
      if (typeof cell === "number") sum += cell;
      else if (cell === HIDDEN) down += 1;
    }
  }
  return t("review.sk.shows", { sum, down });
}

/** What the seat saw after one step. */
export function board(view, names) {
  const me = view.seat;
  const others = [];
  for (let i = 1; i < view.players; i += 1) others.push((me + i) % view.players);
  const seat = (s, mine) => el("div", { class: `r-seat sk-seat${mine ? " mine" : ""}`, "data-seat": s },
    el("b", {}, mine ? t("review.reviewed", { name: names[s] }) : names[s]),
    el("span", { class: "caption" }, ` · ${shows(view.grids[s])} · ${t("sk.points", { count: view.scores[s] })}`,
      view.closer === s ? ` · ${t("sk.closed_badge")}` : "", view.current === s && view.holding && !mine ? ` · ${t("sk.holding_title")}` : ""),
    grid(view.grids[s]));
  return el("section", { class: "r-board r-skyjo", "aria-label": t("review.board") },
    el("div", { class: "r-others sk-others" }, others.map((s) => seat(s, false))),
    el("div", { class: "r-row r-middle" },
      el("div", { class: "r-build" }, skyjoCard(HIDDEN), el("span", { class: "caption" }, `${t("sk.caption.draw")} ${view.draw_count}`)),
      el("div", { class: "r-build" }, view.discard_top === null ? skyjoCard(null) : skyjoCard(view.discard_top),
        el("span", { class: "caption" }, `${t("sk.caption.discard")} ${view.discard_count}`)),
      view.drawn !== null && view.drawn !== undefined
        ? el("div", { class: "r-build" }, skyjoCard(view.drawn), el("span", { class: "caption" }, t("review.sk.drawn")))
        : null),
    seat(me, true));
}
