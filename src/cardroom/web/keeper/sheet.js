/** The parts of a kept game's sheet, for its keeper and for everyone watching it: where the
 * game stands, the totals, the chart, and every round with its points and its note. */
import { h } from "/js/dom.js";
import { list, num, t } from "/js/i18n.js";
import { totalsChart } from "./chart.js";
import { sides } from "./score.js";

const TITLE = { skyjo: "Skyjo", skip: "Skip" };

/** A view of a kept game as the server sends it to anyone with its code. */
export function viewOfKept(kept) {
  const sheet = kept.sheet;
  return {
    key: null, id: kept.id ?? null, code: kept.code, game: sheet.game, players: sheet.players,
    options: sheet.options, rounds: sheet.rounds, results: sheet.results,
    notes: sheet.results.rounds.map((r) => r.note), waiting: new Set(), pending: 0,
    revision: kept.revision, status: kept.status, owner: kept.owner, loaded: true,
  };
}

export function goalOf(view) {
  if (view.game === "skyjo") return view.options.end_score;
  return view.options.match_target === "single" ? null : view.options.match_target;
}

export function describe(view) {
  const goal = goalOf(view);
  const parts = [TITLE[view.game], goal === null ? t("keeper.one_round") : t("keeper.to_goal", { goal })];
  if (view.options.teams?.length) parts.push(t("keeper.teams"));
  return parts.join(" · ");
}

/** "Ann wins", "Ann & Cy win", "Ann and Bob share the win" (and the same for the lead). */
function sideSentence(who, kind) {
  if (who.length > 1) return t(`keeper.${kind}.shared`, { names: list(who) });
  return t(who[0].includes("&") ? `keeper.${kind}.team` : `keeper.${kind}.one`, { names: who[0] });
}

/** One sentence, large: who won, or who leads after how many rounds. */
export function standing(view) {
  const r = view.results;
  const played = r.rounds.length;
  if (r.over) {
    const who = sides(view.players, view.options, r.winners);
    return { over: true, text: sideSentence(who, "wins"), detail: t("keeper.over_after", { n: r.ended_at ?? played }) };
  }
  const closed = view.status === "closed" ? t("keeper.closed_after", { n: played }) : "";
  if (!played) return { over: false, text: t("keeper.no_round"), detail: closed || t("keeper.enter_first") };
  const who = sides(view.players, view.options, r.leaders);
  const low = t(view.game === "skyjo" ? "keeper.lowest_leads" : "keeper.highest_leads");
  const detail = [t("keeper.rounds_played", { count: played }), low].join(" · ");
  return { over: false, text: sideSentence(who, "leads"), detail: closed ? `${closed} ${detail}` : detail };
}

export function statusCard(view) {
  const s = standing(view);
  return h("section", { class: `kcard status ${s.over ? "over" : ""}`, id: "standing", "aria-live": "polite" },
    h("p", { class: "kind" }, describe(view)),
    h("p", { class: "big", id: "standing-text" }, s.text),
    h("p", { class: "muted", id: "standing-detail" }, s.detail));
}

export function totalsTable(view) {
  const r = view.results;
  const last = r.rounds[r.rounds.length - 1];
  const winners = new Set(r.winners || []);
  const leaders = new Set(r.over ? [] : r.leaders);
  return h("table", { class: "totals", id: "totals" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("keeper.player")), h("th", { scope: "col", class: "num" }, t("keeper.last")), h("th", { scope: "col", class: "num" }, t("keeper.total")))),
    h("tbody", {}, view.players.map((p, seat) =>
      h("tr", { class: [winners.has(p) ? "winner" : "", leaders.has(p) ? "leader" : ""].join(" ").trim(), dataset: { player: p } },
        h("th", { scope: "row" }, h("span", { class: "dot", dataset: { seat } }), p,
          winners.has(p) ? h("span", { class: "badge" }, t("keeper.badge.won")) : leaders.has(p) ? h("span", { class: "badge" }, t("keeper.badge.leads")) : null),
        h("td", { class: "num last" }, last ? signed(last.points[p]) : "–"),
        h("td", { class: "num total" }, num(r.totals[p]))))));
}

export function chartCard(view) {
  const teams = view.options.teams || [];
  const lines = teams.length
    ? teams.map((team) => ({ seat: view.players.indexOf(team[0]), name: team[0], label: team.join(" & ") }))
    : view.players.map((p, seat) => ({ seat, name: p, label: p }));
  return h("section", { class: "kcard", "aria-labelledby": "chart-title" },
    h("h2", { id: "chart-title" }, t("keeper.chart.title")),
    totalsChart(lines, view.results, goalOf(view)),
    h("ul", { class: "legend" }, lines.map((line) =>
      h("li", {}, h("span", { class: "dot", dataset: { seat: line.seat } }), line.label))));
}

/** Every round: points (the doubled closer marked), the note, and an edit button. */
export function roundsCard(view, { onEdit } = {}) {
  const r = view.results;
  if (!r.rounds.length) return null;
  const body = [];
  r.rounds.forEach((line, i) => {
    const entered = view.rounds[i];
    const marker = view.game === "skyjo" ? entered.closer : entered.went_out;
    const waiting = view.waiting.has(i + 1);
    body.push(h("tr", { class: `round ${waiting ? "waiting" : ""}`, dataset: { round: i + 1 } },
      h("th", { scope: "row" }, onEdit
        ? h("button", { type: "button", class: "edit", "aria-label": t("keeper.entry.correct", { n: i + 1 }), dataset: { edit: i + 1 }, onclick: () => onEdit(i + 1) }, `${i + 1} ✎`)
        : String(i + 1)),
      view.players.map((p) => {
        const doubled = line.doubled && p === marker;
        return h("td", { class: `num ${p === marker ? "marked" : ""} ${doubled ? "doubled" : ""}`.trim() },
          num(line.points[p]), doubled ? h("sup", {}, "×2") : null);
      })));
    body.push(h("tr", { class: "note" }, h("td", { colspan: view.players.length + 1 }, noteOf(view, i, waiting))));
  });
  return h("section", { class: "kcard", "aria-labelledby": "rounds-title" },
    h("h2", { id: "rounds-title" }, t("keeper.rounds")),
    h("div", { class: "scroll" }, h("table", { class: "rounds", id: "rounds" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), view.players.map((p, seat) =>
        h("th", { scope: "col", class: "num", title: p }, h("span", { class: "dot", dataset: { seat } }), p)))),
      h("tbody", {}, body))),
    h("p", { class: "muted small" }, t(view.game === "skyjo" ? "keeper.legend.skyjo" : "keeper.legend.skip")));
}

/** The round's note, from its facts (the server keeps an English one for the CSV file). */
function noteOf(view, i, waiting) {
  const line = view.results.rounds[i];
  const entered = view.rounds[i];
  let text;
  if (view.game === "skyjo") {
    const closer = entered.closer;
    const own = entered.sums[closer];
    const others = view.players.filter((p) => p !== closer);
    const lowest = Math.min(...others.map((p) => entered.sums[p]));
    const at = (v) => list(others.filter((p) => entered.sums[p] === v));
    const why = line.why ?? (own <= 0 ? "not_positive" : lowest > own ? "lowest" : lowest === own ? "tied" : "not_lowest");
    text = t(`keeper.note.${why}`, { name: closer, sum: own, doubled: own * 2, tied: at(own), below: at(lowest), lowest });
  } else if (entered.went_out === null) {
    text = t("keeper.note.nobody");
  } else {
    const won = view.players.filter((p) => line.points[p] > 0 || p === entered.went_out);
    const left = view.players.filter((p) => !won.includes(p)).reduce((sum, p) => sum + (entered.stocks[p] || 0), 0);
    const params = { name: entered.went_out, names: list(won), count: left, points: line.points[entered.went_out] };
    text = t(won.length > 1 ? "keeper.note.out_team" : "keeper.note.out", params);
  }
  return waiting ? `${text} · ${t("keeper.note.waiting")}` : text;
}

function signed(n) {
  return num(n, { signDisplay: "exceptZero" });
}
