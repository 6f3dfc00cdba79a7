/** Skyjo's round summary (sums, the closer's doubling and why, totals) and the game's result
 * (lowest total first), with the league's awards and a rematch button. */
import { h } from "../../dom.js";
import { list, num, t } from "../../i18n.js";
import { awardsInResult } from "../../render/awards.js";
import { scoreSheet } from "./sheet.js";

/** Why the closer's score is what it is (S4.3), in one sentence. */
export function doublingNote(model, result, options) {
  const closer = result.closer;
  if (closer === null || closer === undefined) return null;
  const name = model.name(closer);
  const sum = result.sums[closer];
  const others = result.sums.filter((_, seat) => seat !== closer);
  const strictlyLowest = others.every((s) => sum < s);
  if (result.doubled) {
    return t("sk.note.doubled", { name, sum, points: result.points[closer] });
  }
  if (options?.closer_doubling === false) return t("sk.note.off", { name });
  if (strictlyLowest) return t("sk.note.lowest", { name });
  return t("sk.note.never", { name, sum });
}

/** The round's table: every player's cards, the round's points (doubling shown), the totals. */
function roundTable(model, detail) {
  const result = detail.result || {};
  const n = (result.sums || detail.scores || []).length;
  const best = Math.min(...(result.points || [0]));
  const rows = [];
  for (let seat = 0; seat < n; seat += 1) {
    const closer = seat === result.closer;
    const doubled = closer && result.doubled;
    rows.push(h("tr", { class: `${result.points?.[seat] === best ? "winner" : ""}${doubled ? " doubled" : ""}`, "data-seat": seat },
      h("th", { scope: "row" }, model.name(seat), closer ? h("span", { class: "badge closer" }, t("sk.closed_badge")) : null),
      h("td", {}, result.sums?.[seat] === undefined ? "" : num(result.sums[seat])),
      h("td", {}, doubled ? h("b", { class: "x2", title: t("sk.doubled_title") }, `×2 = ${num(result.points[seat])}`) : result.points?.[seat] === undefined ? "" : num(result.points[seat])),
      h("td", {}, num(detail.scores?.[seat] ?? 0))));
  }
  const note = doublingNote(model, result, model.view?.options);
  return [
    note ? h("p", { class: `doubling${result.doubled ? " doubled" : ""}`, id: "doubling-note" }, note) : null,
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, ["keeper.player", "sk.cards", "sk.round", "keeper.total"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, rows)),
  ];
}

export function roundSummary(model, detail, secondsLeft) {
  return h("section", { class: "overlay-card sk-summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "round-title", id: "round-summary" },
    h("h2", { id: "round-title" }, t("log.round_summary", { round: detail.round })),
    roundTable(model, detail),
    h("p", { class: "muted small" }, t("sk.lowest_wins_at", { end: model.view?.end_score ?? 100 })),
    h("p", { class: "next-round" }, secondsLeft === null ? "" : `${t("sk.next_round")} `, h("span", { "data-next-round": "" }, secondsLeft === null ? "" : t("sk.seconds", { count: Math.ceil(secondsLeft) }))));
}

export function matchResult(model, detail, { rematch, onLobby, onClose }, describe) {
  const winners = detail.winners || [];
  const scores = detail.scores || [];
  const iWon = model.mySeat !== null && winners.includes(model.mySeat);
  const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => a.score - b.score);
  const last = model.lastSummary;
  return h("section", { class: `overlay-card sk-summary match-over${iWon ? " won" : ""}`, role: "dialog", "aria-labelledby": "match-title", id: "match-result" },
    h("h2", { id: "match-title" }, iWon ? `★ ${t("sk.you_won")} ★` : winners.length ? t("sk.won", { names: list(winners.map((s) => model.name(s))) }) : t("sk.game_over")),
    h("p", { class: "muted" }, t("sk.lowest_wins")),
    h("ol", { class: "final-scores" }, order.map(({ seat, score }) =>
      h("li", { class: winners.includes(seat) ? "winner" : "" }, h("span", {}, model.name(seat)), h("b", {}, t("sk.points", { count: score }))))),
    model.forfeit ? h("p", { class: "forfeit-note", id: "forfeit-note" }, describe(model.forfeit)) : null,
    model.roundHistory.length > 1 ? h("details", { class: "every-round", open: true }, h("summary", {}, t("sk.sheet.title")), scoreSheet(model, "result-sheet")) : null,
    last?.result ? h("details", { class: "last-round", open: model.roundHistory.length <= 1 }, h("summary", {}, t("sk.last_round", { round: last.round })), roundTable(model, last)) : null,
    (detail.hints || []).some((n) => n > 0) ? h("p", { class: "hints-used", id: "hints-used" },
      t("sk.hints_used", { list: detail.hints.map((n, seat) => `${model.name(seat)} ${n}`).join(", ") })) : null,
    awardsInResult(model, describe),
    detail.match && model.mySeat !== null ? h("p", { class: "review-link" },
      h("a", { href: `/league/review.html?${new URLSearchParams({ match: detail.match, seat: model.mySeat })}`, id: "review-link", target: "_blank", rel: "noopener" },
        t("sk.review"))) : null,
    h("div", { class: "actions" },
      rematch,
      h("button", { type: "button", class: "btn", id: "result-close", onclick: onClose }, t("result.look")),
      h("button", { type: "button", class: "btn", onclick: onLobby }, t("table.back_to_lobby"))));
}
