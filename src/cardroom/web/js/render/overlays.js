/** The round summary (points of the round) and the match result with a rematch button. */
import { h } from "../dom.js";
import { list, num, t } from "../i18n.js";
import { ruleLink } from "../rule-link.js";
import { describe } from "./log.js";
import { awardsInResult } from "./awards.js";

export { awardIcon } from "./awards.js";

export function roundSummary(model, detail, secondsLeft) {
  const result = detail.result || {};
  const winners = result.winners || [];
  const n = model.view?.players ?? (detail.scores || []).length;
  const rows = [];
  for (let seat = 0; seat < n; seat += 1) {
    rows.push(h("tr", { class: winners.includes(seat) ? "winner" : "" },
      h("th", { scope: "row" }, model.name(seat), teamBadge(model, seat), winners.includes(seat) ? " ★" : ""),
      h("td", {}, result.stock_left?.[seat] === undefined ? "" : num(result.stock_left[seat])),
      h("td", {}, num(result.points?.[seat] ?? 0, { signDisplay: "always" })),
      h("td", {}, num(detail.scores?.[seat] ?? 0))));
  }
  const headline = winners.length
    ? t("skip.won_round", { names: list(winners.map((s) => model.name(s))), round: detail.round })
    : t("skip.stalemate", { round: detail.round });
  return h("section", { class: "overlay-card", role: "dialog", "aria-modal": "false", "aria-labelledby": "round-title", id: "round-summary" },
    h("h2", { id: "round-title" }, headline),
    result.stalemate ? h("p", {}, t("skip.stalemate_why"), " (", ruleLink("R6.4"), ")") : null,
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, ["keeper.player", "skip.stock_left", "sk.round", "keeper.total"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, rows)),
    pointsExplained(model, result),
    h("p", { class: "next-round" }, secondsLeft === null ? "" : `${t("sk.next_round")} `, h("span", { "data-next-round": "" }, secondsLeft === null ? "" : t("sk.seconds", { count: Math.ceil(secondsLeft) }))));
}

/** A seat's team in a team match (R2.3), named as the board names it ("Team 1"); else nothing. */
function teamBadge(model, seat) {
  const partner = model.view?.partners?.[seat];
  if (partner === null || partner === undefined) return null;
  return [" ", h("span", { class: "badge team" }, t("board.team", { n: Math.min(seat, partner) + 1 }))];
}

/**
 * Where a round's points come from, in words (R6.2): 25 for the win and 5 for every card left
 * in the stocks of the players not on the winning side, e.g. "+65 = 25 + 5 × 8 cards".
 */
export function pointsExplained(model, result) {
  const winners = result.winners || [];
  if (!winners.length) return null;
  const points = result.points?.[winners[0]] ?? 0;
  const losers = (result.stock_left || []).map((left, seat) => ({ seat, left })).filter((s) => !winners.includes(s.seat));
  const cards = losers.reduce((sum, s) => sum + (s.left || 0), 0);
  const who = list(winners.map((s) => model.name(s)));
  const plus = num(points, { signDisplay: "always" });
  if (points !== 25 + 5 * cards) return h("p", { class: "points-why", id: "points-why" }, `${who}: ${plus} (`, ruleLink("R6.2"), ")");
  const left = losers.filter((s) => s.left).map((s) => t("skip.left_in", { count: s.left, name: model.name(s.seat, { you: false }) }));
  const where = left.length ? ` (${left.join(", ")})` : "";
  return h("p", { class: "points-why", id: "points-why" },
    h("b", {}, plus), ` = ${t("skip.points_why", { count: cards })}${where}. `,
    t("skip.scoring"), " ", ruleLink("R6.2"), ".");
}

export function matchResult(model, detail, { rematch, onLobby, onClose }) {
  const winners = detail.winners || [];
  const scores = detail.scores || [];
  const iWon = model.mySeat !== null && winners.includes(model.mySeat);
  const order = scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
  return h("section", { class: `overlay-card match-over${iWon ? " won" : ""}`, role: "dialog", "aria-labelledby": "match-title", id: "match-result" },
    h("h2", { id: "match-title" }, iWon ? `★ ${t("skip.you_won")} ★` : winners.length ? t("skip.won", { names: list(winners.map((s) => model.name(s))) }) : t("skip.over")),
    h("ol", { class: "final-scores" }, order.map(({ seat, score }) =>
      h("li", { class: winners.includes(seat) ? "winner" : "" }, h("span", {}, model.name(seat)), teamBadge(model, seat),
        " ", h("b", {}, t("sk.points", { count: score }))))),
    forfeitNote(model),
    (detail.hints || []).some((n) => n > 0) ? h("p", { class: "hints-used", id: "hints-used" },
      t("sk.hints_used", { list: detail.hints.map((n, seat) => `${model.name(seat)} ${n}`).join(", ") })) : null,
    awardsInResult(model, (event) => describe(event, model)),
    detail.match && model.mySeat !== null ? h("p", { class: "review-link" },
      h("a", { href: `/league/review.html?${new URLSearchParams({ match: detail.match, seat: model.mySeat })}`, id: "review-link", target: "_blank", rel: "noopener" },
        t("skip.review"))) : null,
    h("div", { class: "actions" },
      rematch,
      h("button", { type: "button", class: "btn", id: "result-close", onclick: onClose }, t("result.look")),
      h("button", { type: "button", class: "btn", onclick: onLobby }, t("table.back_to_lobby"))));
}

/** Why the match ended early, when a seat forfeited it (the ladder: left or timed out). */
export function forfeitNote(model) {
  const f = model.forfeit;
  if (!f) return null;
  return h("p", { class: "forfeit-note", id: "forfeit-note" }, describe(f, model));
}

/**
 * The rematch as a proposal (docs/protocol.md): propose it, or accept or decline the one made,
 * and see who has said yes. Against bots only it simply starts (bots accept at once).
 * `table`: the Table object; `me`: this browser's player; handlers {propose, decline}.
 */
export function rematchControls(table, me, { propose, decline }) {
  const seats = table?.seats || [];
  const mine = seats.find((s) => s.player?.id === me?.id);
  const proposal = table?.rematch;
  const who = (n) => seats[n]?.player?.name || (seats[n]?.bot ? t("lobby.bot_named", { name: seats[n].bot.name }) : t("common.seat", { n: n + 1 }));
  if (!proposal) {
    if (!mine) return null;
    const others = seats.some((s) => s.player && s.player.id !== me?.id);
    return h("button", { type: "button", class: "btn primary", id: "rematch", onclick: propose },
      t(others ? "rematch.propose" : "rematch.start"));
  }
  const byMe = proposal.by.id === me?.id;
  const iAccepted = mine && proposal.accepted.includes(mine.index);
  const waiting = proposal.waiting.map(who);
  const status = byMe ? t("rematch.mine", { names: list(waiting) })
    : iAccepted ? t("rematch.accepted", { name: proposal.by.name, names: list(waiting) })
      : t("rematch.theirs", { name: proposal.by.name });
  return h("div", { class: "rematch", id: "rematch-panel", role: "group", "aria-label": t("rematch.start") },
    h("p", { class: "rematch-status", role: "status" }, status,
      proposal.accepted.length ? h("small", {}, ` ${t("rematch.yes", { names: list(proposal.accepted.map(who)) })}`) : null),
    mine && !iAccepted ? h("button", { type: "button", class: "btn primary", id: "rematch", onclick: propose }, t("rematch.accept")) : null,
    mine ? h("button", { type: "button", class: "btn", id: "rematch-decline", onclick: decline }, t(byMe ? "rematch.withdraw" : "rematch.decline")) : null);
}
