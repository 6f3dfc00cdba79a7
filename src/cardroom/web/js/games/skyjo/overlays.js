/** Skyjo's round summary (sums, the closer's doubling and why, totals) and the game's result
 * (lowest total first), with the league's awards and a rematch button. */
import { h } from "../../dom.js";
import { awardIcon } from "../../render/overlays.js";

/** Why the closer's score is what it is (S4.3), in one sentence. */
export function doublingNote(model, result, options) {
  const closer = result.closer;
  if (closer === null || closer === undefined) return null;
  const name = model.name(closer);
  const sum = result.sums[closer];
  const others = result.sums.filter((_, seat) => seat !== closer);
  const strictlyLowest = others.every((s) => sum < s);
  if (result.doubled) {
    return `${name} closed but did not have the strictly lowest sum: ${sum} doubled to ${result.points[closer]} (S4.3).`;
  }
  if (options?.closer_doubling === false) return `${name} closed; the doubling is off at this table.`;
  if (strictlyLowest) return `${name} closed with the strictly lowest sum: not doubled (S4.3).`;
  return `${name} closed; a sum of ${sum} is never doubled (S4.3).`;
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
      h("th", { scope: "row" }, model.name(seat), closer ? h("span", { class: "badge closer" }, "closed") : null),
      h("td", {}, String(result.sums?.[seat] ?? "")),
      h("td", {}, doubled ? h("b", { class: "x2", title: "doubled (S4.3)" }, `×2 = ${result.points[seat]}`) : String(result.points?.[seat] ?? "")),
      h("td", {}, String(detail.scores?.[seat] ?? 0))));
  }
  const note = doublingNote(model, result, model.view?.options);
  return [
    note ? h("p", { class: `doubling${result.doubled ? " doubled" : ""}`, id: "doubling-note" }, note) : null,
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, ["Player", "Cards", "Round", "Total"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows)),
  ];
}

export function roundSummary(model, detail, secondsLeft) {
  return h("section", { class: "overlay-card sk-summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "round-title", id: "round-summary" },
    h("h2", { id: "round-title" }, `Round ${detail.round} is over`),
    roundTable(model, detail),
    h("p", { class: "muted small" }, `Lowest total wins when someone reaches ${model.view?.end_score ?? 100} (S5.1).`),
    h("p", { class: "next-round" }, secondsLeft === null ? "" : "Next round in ", h("span", { "data-next-round": "" }, secondsLeft === null ? "" : `${Math.ceil(secondsLeft)} s`)));
}

export function matchResult(model, detail, { rematch, onLobby, onClose }, describe) {
  const winners = detail.winners || [];
  const scores = detail.scores || [];
  const iWon = model.mySeat !== null && winners.includes(model.mySeat);
  const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => a.score - b.score);
  const last = model.lastSummary;
  return h("section", { class: `overlay-card sk-summary match-over${iWon ? " won" : ""}`, role: "dialog", "aria-labelledby": "match-title", id: "match-result" },
    h("h2", { id: "match-title" }, iWon ? "★ You won the game! ★" : winners.length ? `${winners.map((s) => model.name(s)).join(" & ")} won the game` : "The game is over"),
    h("p", { class: "muted" }, "The lowest total wins (S5.1)."),
    h("ol", { class: "final-scores" }, order.map(({ seat, score }) =>
      h("li", { class: winners.includes(seat) ? "winner" : "" }, h("span", {}, model.name(seat)), h("b", {}, `${score} pts`)))),
    model.forfeit ? h("p", { class: "forfeit-note", id: "forfeit-note" }, describe(model.forfeit)) : null,
    last?.result ? h("details", { class: "last-round", open: true }, h("summary", {}, `Round ${last.round}, the last`), roundTable(model, last)) : null,
    (detail.hints || []).some((n) => n > 0) ? h("p", { class: "hints-used", id: "hints-used" },
      "Hints used: ", detail.hints.map((n, seat) => `${model.name(seat)} ${n}`).join(", ")) : null,
    model.awards.length ? h("ul", { class: "awards", id: "match-awards", "aria-label": "Achievements and ratings" },
      model.awards.map((event) => h("li", { class: `award ${event.kind}${event.seat === model.mySeat ? " mine" : ""}`, "data-kind": event.kind },
        awardIcon(event), describe(event)))) : null,
    detail.match && model.mySeat !== null ? h("p", { class: "review-link" },
      h("a", { href: `/league/review.html?${new URLSearchParams({ match: detail.match, seat: model.mySeat })}`, id: "review-link", target: "_blank", rel: "noopener" },
        "Review this game: your costliest turns, with the Hard level's advice")) : null,
    h("div", { class: "actions" },
      rematch,
      h("button", { type: "button", class: "btn", id: "result-close", onclick: onClose }, "Look at the table"),
      h("button", { type: "button", class: "btn", onclick: onLobby }, "Back to the lobby")));
}
