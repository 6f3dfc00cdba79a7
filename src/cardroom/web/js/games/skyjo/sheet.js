/** Skyjo's score sheet: every scored round's points by player, the closer flagged and a doubled
 * round marked (S4.3), the totals at the foot; as the score keeper writes it. */
import { h } from "../../dom.js";
import { num, t } from "../../i18n.js";

/** The sheet of the rounds scored so far, or null before the first is. `id` names the table. */
export function scoreSheet(model, id) {
  const rounds = model.roundHistory;
  if (!rounds.length) return null;
  const players = rounds[0].points.length;
  const seats = [...Array(players).keys()];
  const totals = seats.map((seat) => rounds.reduce((sum, r) => sum + (r.points[seat] ?? 0), 0));
  const body = rounds.map((r) => h("tr", { class: `round${r.doubled ? " doubled" : ""}`, "data-round": r.round },
    h("th", { scope: "row" }, num(r.round)),
    seats.map((seat) => {
      const closer = seat === r.closer;
      const title = closer ? (r.doubled ? t("sk.sheet.doubled_title", { sum: r.sums[seat] }) : t("sk.sheet.closed_title")) : null;
      return h("td", { class: `${closer ? "closer" : ""}${closer && r.doubled ? " x2" : ""}`, title },
        num(r.points[seat]), closer ? h("span", { class: "mark", "aria-label": title }, r.doubled ? " ×2" : " ⚑") : null);
    })));
  return h("div", { class: "score-sheet", id, tabindex: "0", role: "region", "aria-label": t("sk.sheet.title") },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("sk.round")),
        seats.map((seat) => h("th", { scope: "col" }, model.name(seat))))),
      h("tbody", {}, body),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("keeper.total")),
        seats.map((seat) => h("td", {}, num(totals[seat])))))));
}
