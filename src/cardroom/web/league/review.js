/**
 * The post-game review of a finished match (GET /api/matches/{id}/review): one seat's
 * costliest turns first, each with what the game's judge (Skip: the expert; Skyjo: the Hard
 * level) would have played and why, then the round replayed move by move in that seat's own
 * views (never another hand). Skyjo's parts are in review-skyjo.js.
 * ?match=<id>&seat=<0-based> or &player=<id>; &round=<n> for another round of a match.
 */
import { api, el, header } from "./league.js";
import { num, t } from "../js/i18n.js";
import { cardEl, fanEl, slotEl } from "../js/render/cards.js";
import * as skyjoReview from "./review-skyjo.js";

const params = new URLSearchParams(location.search);
const state = { data: null, frame: 0 };

const cardName = (card) => (card === "W" ? t("card.wild") : String(card));

/** An action in words, as the move log says it: "played 7 from hand to building pile 2". */
export function describeAction(action, card) {
  if (!action) return "";
  if (action.type === "play") {
    const known = card !== undefined && card !== null;
    const from = t(`log.from.${action.from}`, { pile: action.pile ?? "" }).trim();
    return t(known ? "review.played_card" : "review.played", { card: known ? cardName(card) : "", from, to: action.to });
  }
  if (action.type === "discard") return t("review.discarded", { card: cardName(action.card), pile: action.pile });
  if (action.type === "timeout") return t("review.timeout");
  return action.type === "pass" ? t("review.passed") : action.type;
}

function short(action) {
  if (action.type === "play") {
    const from = { hand: `H${action.card}`, stock: "S", discard: `D${action.pile}` }[action.from] || action.from;
    return `${from}→B${action.to}`;
  }
  if (action.type === "discard") return t("review.short.discard", { card: action.card, pile: action.pile });
  return action.type;
}

/** The game's own words and board: Skip's here, Skyjo's in review-skyjo.js. */
const SKIP = {
  short, board, describe: (action, before, seat) =>
    describeAction(action, action.type === "play" ? (action.from === "stock" && before ? before.stock_tops[seat] : action.card) : undefined),
  legend: "review.legend.skip",
};
const SKYJO = {
  short: skyjoReview.short, board: skyjoReview.board, describe: (action, before) => skyjoReview.describeAction(action, before),
  legend: "review.legend.skyjo",
};
const kit = () => (state.data.game === "skyjo" ? SKYJO : SKIP);

const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };

function turnItem(turn, data, seat) {
  const { short: brief } = kit();
  const jump = el("button", { type: "button", class: "small", "data-step": turn.step, "data-round": turn.round }, t("review.show"));
  const played = turn.instead_of ? t("review.step_of", { move: brief(turn.instead_of), n: turn.instead_at, count: turn.played.length }) : "";
  return el("li", { class: "costly-turn" },
    el("div", { class: "turn-head" }, el("b", {}, t("review.round_turn", { round: turn.round, turn: turn.turn })),
      el("span", { class: "cost" }, ` −${num(turn.cost, two)} ${data.unit}`), " ", jump),
    el("div", {}, t("review.instead", { name: data.names[seat], played, judge: data.judge }), " ", el("b", {}, turn.expert.map(brief).join(", "))),
    el("div", { class: "why" }, t("review.why", { reason: turn.reason })));
}

/** What the seat saw after one step: the others, the middle, its own piles and hand. */
function board(view, names) {
  const me = view.seat;
  const others = [];
  for (let i = 1; i < view.players; i += 1) others.push((me + i) % view.players);
  const stock = (seat) => {
    const top = view.stock_tops[seat];
    return el("div", { class: "r-stock" }, top === null ? slotEl(t("board.empty")) : cardEl(top), el("span", { class: "caption" }, t("review.stock", { count: view.stock_counts[seat] })));
  };
  const discards = (seat) => el("div", { class: "r-discards" }, view.discards[seat].map((cards, i) =>
    el("div", { class: "r-discard" }, fanEl(cards), el("span", { class: "caption" }, `D${i + 1}`))));
  return el("section", { class: "r-board", "aria-label": t("review.board") },
    el("div", { class: "r-others" }, others.map((seat) => el("div", { class: "r-seat" },
      el("b", {}, names[seat]), el("span", { class: "caption" }, ` · ${t("review.in_hand", { count: view.hand_counts[seat] })}`),
      el("div", { class: "r-row" }, stock(seat), discards(seat))))),
    el("div", { class: "r-row r-middle" },
      el("span", { class: "caption" }, t("review.middle", { draw: view.draw_count, done: view.completed_count })),
      view.building.map((b, i) => el("div", { class: "r-build" },
        b.cards.length ? cardEl(b.cards.at(-1), { as: b.value }) : slotEl(t("board.slot_build")),
        el("span", { class: "caption" }, `B${i + 1} ${t("board.next")} ${b.next}`)))),
    el("div", { class: "r-seat mine" }, el("b", {}, t("review.reviewed", { name: names[me] })),
      el("div", { class: "r-row" }, stock(me), discards(me)),
      el("div", { class: "r-row r-hand", "aria-label": t("review.hand") }, (view.hand || []).map((c) => cardEl(c)))));
}

function show(index) {
  const { data } = state;
  const frames = data.frames;
  state.frame = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[state.frame];
  const previous = frames[state.frame - 1]?.view;
  let said = t("review.deal");
  if (frame.kind === "next_round") said = t("review.next_round");
  else if (frame.kind === "action") said = t("review.said", { name: data.names[frame.seat], what: kit().describe(frame.action, previous, frame.seat) });
  const costly = data.costliest.find((t) => t.round === data.round && t.step === frame.step + 1);
  document.getElementById("replay-step").textContent = t("walk.step", { n: state.frame, count: frames.length - 1 });
  document.getElementById("replay-said").textContent = said;
  const note = document.getElementById("replay-note");
  const judge = data.judge.charAt(0).toUpperCase() + data.judge.slice(1);
  note.textContent = costly ? t("review.next_costly", { cost: num(costly.cost, two), unit: data.unit, judge, reason: costly.reason }) : "";
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
  document.title = t("review.doc_title", { name });
  const rounds = data.rounds > 1
    ? el("nav", { class: "game-tabs", "aria-label": t("sk.round") }, Array.from({ length: data.rounds }, (_, i) => i + 1).map((r) =>
      r === data.round ? el("b", {}, `${t("side.round", { n: r })} `) : el("a", { href: `?${new URLSearchParams({ ...Object.fromEntries(params), round: r })}` }, `${t("side.round", { n: r })} `)))
    : null;
  main.replaceChildren(...[
    el("h2", {}, t("review.title", { name })),
    el("p", {}, `${data.names.map((n, i) => `${n} ${data.scores[i]}`).join(" · ")}. `,
      t("review.summary", { turns: data.turns, decisions: data.decisions, name, judge: data.judge }), " ",
      el("b", {}, `${num(data.total_cost, two)} ${data.unit}`), " ", t("review.given_away")),
    el("h3", {}, t("review.costliest")),
    data.costliest.length
      ? el("ol", { id: "costliest" }, data.costliest.map((turn) => turnItem(turn, data, seat)))
      : el("p", { class: "note", id: "costliest" }, t("review.all_matched", { judge: data.judge })),
    el("p", { class: "note" }, t(kit().legend)),
    el("h3", {}, t("review.move_by_move")),
    rounds,
    el("div", { class: "replay-controls" },
      el("button", { type: "button", id: "first", "aria-label": t("review.first") }, "«"),
      el("button", { type: "button", id: "prev", "aria-label": t("review.prev") }, "◀"),
      el("span", { id: "replay-step", role: "status" }),
      el("button", { type: "button", id: "next", "aria-label": t("review.next") }, "▶"),
      el("button", { type: "button", id: "last", "aria-label": t("review.last") }, "»")),
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
