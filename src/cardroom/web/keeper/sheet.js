/** The parts of a kept game's sheet, for its keeper and for everyone watching it: where the
 * game stands, the totals, the chart, and every round with its points and its note. */
import { h } from "/js/dom.js";
import { totalsChart } from "./chart.js";
import { names, sides } from "./score.js";

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
  const teams = view.options.teams?.length ? " · teams" : "";
  return `${TITLE[view.game]} · ${goal === null ? "one round" : `to ${goal}`}${teams}`;
}

/** One sentence, large: who won, or who leads after how many rounds. */
export function standing(view) {
  const r = view.results;
  const played = r.rounds.length;
  if (r.over) {
    const who = sides(view.players, view.options, r.winners);
    const verb = who.length > 1 ? "share the win" : who[0].includes("&") ? "win" : "wins";
    return { over: true, text: `${names(who)} ${verb}`, detail: `Game over after round ${r.ended_at ?? played}` };
  }
  const closed = view.status === "closed" ? `Finished by its keeper after round ${played}. ` : "";
  if (!played) return { over: false, text: "No round yet", detail: closed || "Enter the first round below." };
  const who = sides(view.players, view.options, r.leaders);
  const verb = who.length > 1 ? "share the lead" : who[0].includes("&") ? "lead" : "leads";
  const low = view.game === "skyjo" ? "lowest total leads" : "highest total leads";
  return { over: false, text: `${names(who)} ${verb}`, detail: `${closed}${played} round${played === 1 ? "" : "s"} played · ${low}` };
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
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col", class: "num" }, "Last"), h("th", { scope: "col", class: "num" }, "Total"))),
    h("tbody", {}, view.players.map((p, seat) =>
      h("tr", { class: [winners.has(p) ? "winner" : "", leaders.has(p) ? "leader" : ""].join(" ").trim(), dataset: { player: p } },
        h("th", { scope: "row" }, h("span", { class: "dot", dataset: { seat } }), p,
          winners.has(p) ? h("span", { class: "badge" }, "won") : leaders.has(p) ? h("span", { class: "badge" }, "leads") : null),
        h("td", { class: "num last" }, last ? signed(last.points[p]) : "–"),
        h("td", { class: "num total" }, r.totals[p])))));
}

export function chartCard(view) {
  const teams = view.options.teams || [];
  const lines = teams.length
    ? teams.map((team) => ({ seat: view.players.indexOf(team[0]), name: team[0], label: team.join(" & ") }))
    : view.players.map((p, seat) => ({ seat, name: p, label: p }));
  return h("section", { class: "kcard", "aria-labelledby": "chart-title" },
    h("h2", { id: "chart-title" }, "Totals by round"),
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
        ? h("button", { type: "button", class: "edit", "aria-label": `Correct round ${i + 1}`, dataset: { edit: i + 1 }, onclick: () => onEdit(i + 1) }, `${i + 1} ✎`)
        : String(i + 1)),
      view.players.map((p) => {
        const doubled = line.doubled && p === marker;
        return h("td", { class: `num ${p === marker ? "marked" : ""} ${doubled ? "doubled" : ""}`.trim() },
          line.points[p], doubled ? h("sup", {}, "×2") : null);
      })));
    body.push(h("tr", { class: "note" }, h("td", { colspan: view.players.length + 1 }, noteOf(view, i, waiting))));
  });
  return h("section", { class: "kcard", "aria-labelledby": "rounds-title" },
    h("h2", { id: "rounds-title" }, "Rounds"),
    h("div", { class: "scroll" }, h("table", { class: "rounds", id: "rounds" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), view.players.map((p, seat) =>
        h("th", { scope: "col", class: "num", title: p }, h("span", { class: "dot", dataset: { seat } }), p)))),
      h("tbody", {}, body))),
    h("p", { class: "muted small" }, view.game === "skyjo"
      ? "Underlined: who closed. ×2: the closer's sum doubled (S4.3)."
      : "Underlined: who went out. The winning side scores 25 + 5 per card left in the other stocks (R6.2)."));
}

/** The server's note; for a round still waiting to be sent, the same facts in short. */
function noteOf(view, i, waiting) {
  if (!waiting && view.notes?.[i]) return view.notes[i];
  const line = view.results.rounds[i];
  const entered = view.rounds[i];
  let text;
  if (view.game === "skyjo") {
    const own = entered.sums[entered.closer];
    text = {
      not_lowest: `${entered.closer} closed with ${own}, not the lowest: doubled to ${own * 2} (S4.3)`,
      tied: `${entered.closer} closed with ${own}, tied for the lowest: doubled to ${own * 2} (S4.3)`,
      lowest: `${entered.closer} closed with ${own}, strictly the lowest: not doubled (S4.3)`,
      not_positive: `${entered.closer} closed with ${own}: zero and negative sums are never doubled (S4.3)`,
    }[line.why];
  } else {
    text = entered.went_out === null ? "nobody won the round: no points (R6.4)" : `${entered.went_out} went out (R6.2)`;
  }
  return waiting ? `${text} · waiting to be sent` : text;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
