/**
 * The first-game walkthrough: a few steps pointing at the real parts of the table, shown once
 * per browser on a player's first table of each game (remembered in localStorage), and again
 * from the help dialog. It never blocks the game: it is a small non-modal dialog (Skip, Esc or
 * a click on the table go on playing) and the part it names is ringed (`body[data-walk]`).
 */
import { h } from "./dom.js";

const KEY = "cardroom.walkthrough";

/** Each game's steps: where it points (a `data-walk` value the CSS rings) and what it says. */
const STEPS = {
  skip: [
    { at: "stock", title: "Your stock", text: "Empty your stock first and you win the round. Its top card can always be played on a building pile." },
    { at: "hand", title: "Your hand", text: "Up to five cards. Your turn starts by drawing up to five, and you draw five again if you play them all." },
    { at: "builds", title: "The building piles", text: "Everyone builds here, from 1 up to 12 in order. A wild counts as the number the pile needs. Playing here keeps your turn going." },
    { at: "discards", title: "Your discard piles", text: "Putting a hand card on one of your discard piles ends your turn. Their top cards can be played later." },
  ],
  skyjo: [
    { at: "grid", title: "Your grid", text: "Twelve cards, face down at first: turn two to start. The lowest total wins, so swap high cards for low ones." },
    { at: "piles", title: "Draw and discard piles", text: "On your turn, draw from the draw pile, or take the discard pile's top card." },
    { at: "piles", title: "A turn in two steps", text: "First draw (or take). Then put the card on one of yours, or toss a drawn card and turn one of your face-down cards." },
    { at: "grid", title: "The last turns", text: "Three equal face-up cards in a column leave your grid. When someone has turned all their cards, everyone else plays one more turn." },
  ],
};

let current = null; // { game, step, panel, before } while the walkthrough is showing

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

/** Shows the walkthrough on a player's first table of this game (once per browser). */
export function offerWalkthrough(game) {
  if (!STEPS[game] || seen()[game] || current) return;
  showWalkthrough(game);
}

/** Shows the walkthrough from its first step (the help dialog's "Show the walkthrough"). */
export function showWalkthrough(game) {
  if (!STEPS[game]) return;
  closeWalkthrough();
  remember(game);
  current = { game, step: 0, panel: null, before: document.activeElement };
  paint();
}

export function closeWalkthrough() {
  if (!current) return;
  const { panel, before } = current;
  current = null;
  panel.remove();
  delete document.body.dataset.walk;
  const back = before?.isConnected && before !== document.body ? before : document.querySelector("#board");
  back?.focus?.({ preventScroll: true });
}

function go(delta) {
  current.step += delta;
  paint();
}

function paint() {
  const { game, step } = current;
  const steps = STEPS[game];
  const s = steps[step];
  const last = step === steps.length - 1;
  document.body.dataset.walk = `${game}-${s.at}`;
  const panel = h("div", { class: "walk", id: "walkthrough", role: "dialog", "aria-modal": "false", "aria-labelledby": "walk-title", "aria-describedby": "walk-text" },
    h("p", { class: "walk-count" }, `Step ${step + 1} of ${steps.length}`),
    h("h2", { id: "walk-title", tabindex: "-1" }, s.title),
    h("p", { id: "walk-text" }, s.text),
    h("div", { class: "walk-buttons" },
      h("button", { type: "button", class: "btn", id: "walk-skip", onclick: closeWalkthrough }, last ? "Close" : "Skip"),
      step > 0 ? h("button", { type: "button", class: "btn", id: "walk-back", onclick: () => go(-1) }, "Back") : null,
      last ? null : h("button", { type: "button", class: "btn primary", id: "walk-next", onclick: () => go(1) }, "Next")));
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeWalkthrough();
    }
  });
  if (current.panel) current.panel.replaceWith(panel);
  else document.body.append(panel);
  current.panel = panel;
  (panel.querySelector("#walk-next") || panel.querySelector("#walk-skip")).focus({ preventScroll: true });
}
