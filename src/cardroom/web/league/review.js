/**
 * The post-game review of a finished match (GET /api/matches/{id}/review): one seat's
 * costliest turns first, each with what the game's judge (Skip: the expert; Skyjo: the Hard
 * level) would have played and why, then the round replayed move by move in that seat's own
 * views (never another hand). Skyjo's parts are in review-skyjo.js.
 * ?match=<id>&seat=<0-based> or &player=<id>; &round=<n> for another round of a match.
 */
import { api, el, header } from "./league.js";
import { cardEl, fanEl, slotEl } from "../js/render/cards.js";
import * as skyjoReview from "./review-skyjo.js";

const params = new URLSearchParams(location.search);
const state = { data: null, frame: 0 };

function pile(n) {
  return `pile ${n}`;
}

/** An action in words, as the move log says it: "played 7 from hand to building pile 2". */
export function describeAction(action, card) {
  if (!action) return "";
  const c = card === undefined || card === null ? "" : `${card === "W" ? "wild" : card} `;
  if (action.type === "play") {
    const from = {
      hand: `${c}from hand`,
      stock: `${c}from stock`,
      discard: `${c}from discard ${pile(action.pile)}`,
      partner_stock: "from the partner's stock",
      partner_discard: `from the partner's discard ${pile(action.pile)}`,
    }[action.from];
    return `played ${from} to building ${pile(action.to)}`;
  }
  if (action.type === "discard") return `discarded ${action.card === "W" ? "wild" : action.card} on discard ${pile(action.pile)}`;
  if (action.type === "timeout") return "ran out of time (R7.3)";
  return action.type === "pass" ? "passed (R4.5)" : action.type;
}

function short(action) {
  if (action.type === "play") {
    const from = { hand: `H${action.card}`, stock: "S", discard: `D${action.pile}` }[action.from] || action.from;
    return `${from}→B${action.to}`;
  }
  if (action.type === "discard") return `discard ${action.card} on D${action.pile}`;
  return action.type;
}

/** The game's own words and board: Skip's here, Skyjo's in review-skyjo.js. */
const SKIP = {
  short, board, describe: (action, before, seat) =>
    describeAction(action, action.type === "play" ? (action.from === "stock" && before ? before.stock_tops[seat] : action.card) : undefined),
  legend: "H hand, S stock, D discard pile, B building pile; a stock card played is worth 1.",
};
const SKYJO = {
  short: skyjoReview.short, board: skyjoReview.board, describe: (action, before) => skyjoReview.describeAction(action, before),
  legend: "C column, R row; costs are expected points (lower totals win), as the Hard level weighs them.",
};
const kit = () => (state.data.game === "skyjo" ? SKYJO : SKIP);

function turnItem(turn, data, seat) {
  const { short: brief } = kit();
  const jump = el("button", { type: "button", class: "small", "data-step": turn.step, "data-round": turn.round }, "Show");
  const played = turn.instead_of ? `${brief(turn.instead_of)} (step ${turn.instead_at} of ${turn.played.length})` : "";
  return el("li", { class: "costly-turn" },
    el("div", { class: "turn-head" }, el("b", {}, `Round ${turn.round}, turn ${turn.turn}`),
      el("span", { class: "cost" }, ` −${turn.cost.toFixed(2)} ${data.unit}`), " ", jump),
    el("div", {}, `${data.names[seat]} played ${played}; ${data.judge}: `, el("b", {}, turn.expert.map(brief).join(", "))),
    el("div", { class: "why" }, `Why: ${turn.reason}.`));
}

/** What the seat saw after one step: the others, the middle, its own piles and hand. */
function board(view, names) {
  const me = view.seat;
  const others = [];
  for (let i = 1; i < view.players; i += 1) others.push((me + i) % view.players);
  const stock = (seat) => {
    const top = view.stock_tops[seat];
    return el("div", { class: "r-stock" }, top === null ? slotEl("empty") : cardEl(top), el("span", { class: "caption" }, `stock ${view.stock_counts[seat]}`));
  };
  const discards = (seat) => el("div", { class: "r-discards" }, view.discards[seat].map((cards, i) =>
    el("div", { class: "r-discard" }, fanEl(cards), el("span", { class: "caption" }, `D${i + 1}`))));
  return el("section", { class: "r-board", "aria-label": "The table as you saw it" },
    el("div", { class: "r-others" }, others.map((seat) => el("div", { class: "r-seat" },
      el("b", {}, names[seat]), el("span", { class: "caption" }, ` · ${view.hand_counts[seat]} in hand`),
      el("div", { class: "r-row" }, stock(seat), discards(seat))))),
    el("div", { class: "r-row r-middle" },
      el("span", { class: "caption" }, `draw ${view.draw_count} · done ${view.completed_count}`),
      view.building.map((b, i) => el("div", { class: "r-build" },
        b.cards.length ? cardEl(b.cards.at(-1), { as: b.value }) : slotEl("1 or ★"),
        el("span", { class: "caption" }, `B${i + 1} next ${b.next}`)))),
    el("div", { class: "r-seat mine" }, el("b", {}, `${names[me]} (reviewed)`),
      el("div", { class: "r-row" }, stock(me), discards(me)),
      el("div", { class: "r-row r-hand", "aria-label": "Hand" }, (view.hand || []).map((c) => cardEl(c)))));
}

function show(index) {
  const { data } = state;
  const frames = data.frames;
  state.frame = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[state.frame];
  const previous = frames[state.frame - 1]?.view;
  let said = "The deal.";
  if (frame.kind === "next_round") said = "A new round is dealt.";
  else if (frame.kind === "action") said = `${data.names[frame.seat]} ${kit().describe(frame.action, previous, frame.seat)}.`;
  const costly = data.costliest.find((t) => t.round === data.round && t.step === frame.step + 1);
  document.getElementById("replay-step").textContent = `Step ${state.frame} of ${frames.length - 1}`;
  document.getElementById("replay-said").textContent = said;
  const note = document.getElementById("replay-note");
  const judge = data.judge.charAt(0).toUpperCase() + data.judge.slice(1);
  note.textContent = costly ? `Next: a costly turn (−${costly.cost.toFixed(2)} ${data.unit}). ${judge}: ${costly.reason}.` : "";
  note.hidden = !costly;
  document.getElementById("replay-board").replaceChildren(kit().board(frame.view, data.names));
}

/** The position just before a turn: the frame of the step before it. */
function frameBefore(step) {
  const frames = state.data.frames;
  let best = 0;
  frames.forEach((f, i) => { if (f.step < step) best = i; });
  return best;
}

async function load(round) {
  const query = new URLSearchParams({ round: String(round) });
  if (params.get("player")) query.set("player", params.get("player"));
  else query.set("seat", params.get("seat") ?? "0");
  return api(`/api/matches/${encodeURIComponent(params.get("match") || "")}/review?${query}`);
}

async function init() {
  header("league.review");
  const main = document.getElementById("review");
  let data;
  try {
    data = await load(Number(params.get("round") || 1));
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  state.data = data;
  const seat = data.seat;
  const name = data.names[seat];
  document.title = `Review: ${name} · Cardroom`;
  const rounds = data.rounds > 1
    ? el("nav", { class: "game-tabs", "aria-label": "Round" }, Array.from({ length: data.rounds }, (_, i) => i + 1).map((r) =>
      r === data.round ? el("b", {}, `Round ${r} `) : el("a", { href: `?${new URLSearchParams({ ...Object.fromEntries(params), round: r })}` }, `Round ${r} `)))
    : null;
  main.replaceChildren(...[
    el("h2", {}, `Game review: ${name}`),
    el("p", {}, `${data.names.map((n, i) => `${n} ${data.scores[i]}`).join(" · ")}. `,
      `${data.turns} turns and ${data.decisions} decisions of ${name}, scored by ${data.judge} from ${name}'s own view at the time: `,
      el("b", {}, `${data.total_cost.toFixed(2)} ${data.unit}`), " given away in all."),
    el("h3", {}, "The costliest turns"),
    data.costliest.length
      ? el("ol", { id: "costliest" }, data.costliest.map((t) => turnItem(t, data, seat)))
      : el("p", { class: "note", id: "costliest" }, `Every turn matched ${data.judge}'s choice.`),
    el("p", { class: "note" }, kit().legend),
    el("h3", {}, "Move by move"),
    rounds,
    el("div", { class: "replay-controls" },
      el("button", { type: "button", id: "first", "aria-label": "First step" }, "«"),
      el("button", { type: "button", id: "prev", "aria-label": "Previous step" }, "◀"),
      el("span", { id: "replay-step", role: "status" }),
      el("button", { type: "button", id: "next", "aria-label": "Next step" }, "▶"),
      el("button", { type: "button", id: "last", "aria-label": "Last step" }, "»")),
    el("p", { id: "replay-said", class: "replay-said" }),
    el("p", { id: "replay-note", class: "replay-note", hidden: true }),
    el("div", { id: "replay-board" }),
  ].filter(Boolean));
  const go = (delta) => show(state.frame + delta);
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => go(-1);
  document.getElementById("next").onclick = () => go(1);
  document.getElementById("last").onclick = () => show(state.data.frames.length);
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(1);
  });
  main.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-step]");
    if (!button) return;
    const round = Number(button.dataset.round);
    if (round !== state.data.round) {
      location.search = `?${new URLSearchParams({ ...Object.fromEntries(params), round, at: button.dataset.step })}`;
      return;
    }
    show(frameBefore(Number(button.dataset.step)));
    document.getElementById("replay-board").scrollIntoView({ behavior: "smooth", block: "center" });
  });
  show(params.get("at") ? frameBefore(Number(params.get("at"))) : 0);
}

init();
