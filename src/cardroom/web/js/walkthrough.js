/**
 * The first-game walkthrough: a callout next to the part of the table it explains, shown once
 * per browser on a player's first table of each game (remembered in localStorage) and again
 * from the help dialog. It follows the play: a step moves on when the player does what it
 * teaches (the player's own events, or a state the table reaches), a step that no longer
 * applies is never shown, a step that needs the player's turn waits out the others' turns
 * unseen, and the walkthrough ends by itself with the round. It never blocks the game (a
 * non-modal dialog: Next, Skip, Esc) and is placed (js/callout.js) where it covers none of the
 * others' seats, the top bar, the toolbar's buttons, a round summary or the result.
 */
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { boxOf, boxesOf, grow, placeCallout } from "./callout.js";

const KEY = "cardroom.walkthrough";

/** What a callout never covers, at any table. */
const CLEAR = [".topbar", ".table-toolbar", ".overlay", "#round-summary", "#match-result", "#peek"];
/** What it had better not cover (px² of it weigh this much), at any table. */
const AROUND = { "#hint": 3, "#refusal": 3, "#move-status": 3, ".side-col": 0.5, "#chat": 1.5 };
/** Events that end the round, and with it the walkthrough. */
const ROUND_ENDS = ["round_over", "round_summary", "match_over"];

/**
 * Each game: the others' seats (never covered), the parts of its board and how much covering
 * them costs, and its steps. A step points at `target` (a `data-walk` value `<game>-<at>`
 * rings it), leaves `keep` free (what the taught action needs), waits for the player's
 * `turn` or not; it is done by one of the player's events (`done`) or when the table reaches a
 * state (`doneWhen`, from the model and the selection), and `over` once it cannot apply any
 * more. Its words are `walk.<game>.<n>.title` and `.text` in the catalogs.
 */
const GAMES = {
  skip: {
    others: [".others .seat-panel"],
    parts: { ".centre": 2, ".mine-area .stock-wrap": 1, ".my-discards": 1, ".hand": 2 },
    steps: [
      { at: "stock", target: [".mine-area .stock-wrap"], keep: [".centre"], turn: true,
        done: (e) => e.kind === "played" || e.kind === "discarded" },
      { at: "hand", target: [".hand"], keep: [".centre"], turn: true,
        done: (e) => e.kind === "played" && e.detail?.source === "hand" },
      { at: "discards", target: [".my-discards"], keep: [".hand"], turn: true, done: (e) => e.kind === "discarded" },
      { at: "others", target: [".others .seat-panel"], keep: [], turn: false },
    ],
  },
  skyjo: {
    others: [".sk-others .sk-seat"],
    parts: { ".sk-centre": 2, "#sk-prompt": 2, ".sk-seat.mine .sk-grid": 2, "#last-turns": 2 },
    steps: [
      { at: "grid", target: [".sk-seat.mine .sk-grid"], keep: ["#sk-prompt"], turn: true,
        over: (m) => m.view.phase !== "reveal" || !m.view.reveals_left?.[m.mySeat] },
      { at: "piles", target: [".sk-centre", "#sk-prompt"], keep: [], turn: true,
        done: (e) => e.kind === "drew" || e.kind === "took",
        doneWhen: (m, screen) => (m.view.drawn ?? null) !== null || screen.selection?.pick === "take" },
      { at: "grid", target: [".sk-seat.mine .sk-grid"], keep: [".sk-centre", "#sk-prompt"], turn: true,
        done: (e) => ["took", "exchanged", "discarded"].includes(e.kind) },
      { at: "grid", target: [".sk-seat.mine .sk-grid"], keep: [], turn: false },
    ],
  },
};

let table = null; // the table screen last drawn: its model, its selection and focusHome()
let current = null; // the walkthrough going on (see start())
let frame = 0; // a placement asked for by a scroll, at the next frame

function seen() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function remember(game) {
  localStorage.setItem(KEY, JSON.stringify({ ...seen(), [game]: true }));
}

/** Whether a round is being played on the table: the board, no summary, no result. */
function inPlay(m) {
  return !!(m?.view && !m.view.result && !m.summary && !m.result);
}

/**
 * After each drawing of a table (js/table.js): offers the walkthrough on a player's first
 * table of a game (once per browser), follows the play and puts the callout in its place.
 */
export function followWalkthrough(screen) {
  table = screen;
  const m = screen.model;
  const game = m.table?.game || "skip";
  if (!current && GAMES[game] && !m.spectator && inPlay(m) && !seen()[game]) start(game);
  else if (current) follow();
}

/** The events a table is about to draw: the player's own moves move the steps on (one event
 * may do what several steps teach); the round's end ends the walkthrough. */
export function walkthroughSaw(model, events) {
  if (!current) return;
  const steps = GAMES[current.game].steps;
  for (const event of events) {
    if (ROUND_ENDS.includes(event.kind) && current.round !== null) return closeWalkthrough();
    if (model.mySeat === null || event.seat !== model.mySeat) continue;
    steps.forEach((step, i) => {
      if (i >= current.step && step.done?.(event)) current.achieved.add(i);
    });
  }
  moveOn();
}

/** The table is gone (the player left for the lobby or another table). */
export function leaveWalkthrough() {
  closeWalkthrough();
  table = null;
}

/** Shows the walkthrough from its first step that applies (the help dialog's button); when
 * the table has no round in play, or the step waits for the player's turn, it says when. */
export function showWalkthrough(game) {
  if (!GAMES[game]) return;
  closeWalkthrough();
  start(game);
  if (current?.panel?.hidden) toast(t(inPlay(table?.model) ? "walk.later_turn" : "walk.later_round"), "info");
}

/** Ends the walkthrough (Skip, Close, Esc, the round's end, leaving the table). The focus goes
 * back where it was only if it was in the callout: it is never taken from the game. */
export function closeWalkthrough() {
  if (!current) return;
  const { panel, before } = current;
  current = null;
  window.removeEventListener("resize", onResize);
  window.removeEventListener("scroll", onScroll);
  cancelAnimationFrame(frame);
  delete document.body.dataset.walk;
  const had = panel?.contains(document.activeElement);
  panel?.remove();
  if (!had) return;
  const overlay = document.querySelector("#match-result, #round-summary");
  const back = overlay ?? (before?.isConnected && before !== document.body ? before : home());
  back?.focus?.({ preventScroll: true });
}

function start(game) {
  remember(game);
  current = {
    game,
    step: -1,
    panel: null,
    before: document.activeElement,
    round: null, // the round it follows, once one is in play
    achieved: new Set(), // steps the player has done
    latched: false, // the step's `doneWhen` held already when it was shown
    placed: null, // the last placement (js/callout.js)
    said: -1, // the step last read out (or focused)
    focus: true, // the first showing takes the focus, as a dialog opened for the player does
    refocus: false, // the keyboard was in the callout of the step before
    reveal: true, // the step has not been placed yet: the page may scroll to show it
  };
  window.addEventListener("resize", onResize);
  window.addEventListener("scroll", onScroll, { passive: true });
  const first = neighbour(1);
  if (first === null) return closeWalkthrough();
  enter(first);
  follow();
}

function steps() {
  return GAMES[current.game].steps;
}

function over(i) {
  const m = table?.model;
  return !!(steps()[i].over && m?.view && m.mySeat !== null && steps()[i].over(m));
}

function doneNow(i) {
  const m = table?.model;
  return !!(steps()[i].doneWhen && m?.view && steps()[i].doneWhen(m, table));
}

/** The next step (delta 1) or the one before (-1) that still applies, or null. */
function neighbour(delta) {
  for (let i = current.step + delta; i >= 0 && i < steps().length; i += delta) if (!over(i)) return i;
  return null;
}

/** On to the first step from here the player has not done and that still applies. */
function moveOn() {
  if (!current) return;
  let i = current.step;
  while (i < steps().length && (current.achieved.has(i) || over(i))) i += 1;
  if (i >= steps().length) return closeWalkthrough();
  if (i !== current.step) enter(i);
}

function go(delta) {
  const i = neighbour(delta);
  if (i === null) return closeWalkthrough();
  enter(i);
  follow();
}

/** Step `i` becomes the one shown: its own callout. */
function enter(i) {
  current.step = i;
  current.latched = doneNow(i);
  current.placed = null;
  current.reveal = true;
  const panel = build();
  // The keyboard was in the last step's callout: it goes to this one's (or, hidden, the board).
  if (current.panel?.contains(document.activeElement)) current.refocus = true;
  if (current.panel) current.panel.replaceWith(panel);
  else document.body.append(panel);
  current.panel = panel;
}

/** Where the play is now: the round followed, the step, whether the callout shows, and where. */
function follow() {
  const m = table?.model;
  if (!current) return;
  if (!m || m.spectator || !inPlay(m)) return current.round === null || !m?.view ? hide() : closeWalkthrough();
  if (current.round === null) current.round = m.round;
  else if (m.round !== current.round) return closeWalkthrough();
  const now = doneNow(current.step);
  if (now && !current.latched) current.achieved.add(current.step);
  current.latched = now;
  moveOn();
  if (!current) return;
  if (steps()[current.step].turn && !m.myTurn) return hide();
  show();
}

function show() {
  const { panel, game, step } = current;
  document.body.dataset.walk = `${game}-${steps()[step].at}`;
  panel.hidden = false;
  place();
  if (current.refocus) {
    current.refocus = false;
    current.said = step; // a dialog taking the focus is read out
    focusPanel();
  }
  if (current.focus) {
    current.focus = false;
    current.said = step;
    const active = document.activeElement;
    if (!active || active === document.body || active === current.before || !active.isConnected) focusPanel();
    else announce(said());
  } else if (current.said !== step) {
    current.said = step;
    announce(said());
  }
}

function hide() {
  const { panel } = current;
  delete document.body.dataset.walk;
  if (current.refocus || panel?.contains(document.activeElement)) home()?.focus({ preventScroll: true });
  current.refocus = false;
  if (!panel || panel.hidden) return;
  panel.hidden = true;
}

/** The step as one sentence, for screen readers (a polite announcement). */
function said() {
  const n = current.step + 1;
  const key = `walk.${current.game}.${n}`;
  return t("walk.said", { n, count: steps().length, title: t(`${key}.title`), text: t(`${key}.text`) });
}

/** Where the keyboard goes when the callout hides or goes: the game's own place for it. */
function home() {
  return table?.play?.focusHome?.() ?? document.querySelector("#board") ?? document.querySelector("#app");
}

function focusPanel() {
  const { panel } = current;
  (panel.querySelector("#walk-next") || panel.querySelector("#walk-skip")).focus({ preventScroll: true });
}

function onResize() {
  if (current && !current.panel.hidden) place();
}

function onScroll() {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(onResize);
}

/** Next to the step's target, clear of the others, the bars and any result (js/callout.js);
 * a step that needs no turn keeps out of the whole board while it is the player's turn. */
function place() {
  const game = GAMES[current.game];
  const step = game.steps[current.step];
  const keep = !step.turn && table?.model.myTurn ? Object.keys(game.parts) : step.keep;
  const hard = [...boxesOf(CLEAR), ...boxesOf(game.others), ...boxesOf(keep)].map((box) => grow(box, 4));
  const soft = [];
  for (const [selector, weight] of Object.entries({ ...game.parts, ...AROUND })) {
    if (step.target.includes(selector) || keep.includes(selector)) continue;
    for (const box of boxesOf([selector])) soft.push({ box, weight });
  }
  const { panel } = current;
  current.placed = placeCallout(panel, { target: boxOf(step.target), hard, soft, before: current.placed });
  panel.style.visibility = current.placed ? "" : "hidden";
  // A step placed below the fold (a phone's page that scrolls) is brought into sight once.
  if (current.placed && !current.placed.seen && current.reveal) panel.scrollIntoView({ block: "nearest" });
  current.reveal = false;
}

function button(id, label, icon, onclick, primary = false) {
  const text = t(label);
  return h("button", { type: "button", class: `btn walk-btn${primary ? " primary" : ""}`, id, "aria-label": text, title: text, onclick },
    h("span", { class: "walk-label", "aria-hidden": "true" }, text), h("span", { class: "walk-icon", "aria-hidden": "true" }, icon));
}

function build() {
  const { game, step } = current;
  const n = step + 1;
  const key = `walk.${game}.${n}`;
  const last = neighbour(1) === null;
  const panel = h("div", {
    class: "walk", id: "walkthrough", role: "dialog", "aria-modal": "false", "aria-labelledby": "walk-title",
    "aria-describedby": "walk-text", hidden: true, "data-step": n, "data-needs-turn": String(steps()[step].turn),
  },
  h("span", { class: "walk-arrow", "aria-hidden": "true" }),
  h("div", { class: "walk-words" },
    h("p", { class: "walk-count" }, t("walk.step", { n, count: steps().length })),
    h("h2", { id: "walk-title", tabindex: "-1" }, t(`${key}.title`)),
    h("p", { id: "walk-text" }, t(`${key}.text`))),
  h("div", { class: "walk-buttons" },
    button("walk-skip", last ? "common.close" : "walk.skip", "✕", closeWalkthrough),
    neighbour(-1) === null ? null : button("walk-back", "walk.back", "‹", () => go(-1)),
    last ? null : button("walk-next", "walk.next", "›", () => go(1), true)));
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeWalkthrough();
    }
  });
  return panel;
}
