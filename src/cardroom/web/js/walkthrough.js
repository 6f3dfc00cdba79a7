/**
 * The first-game walkthrough: a few steps pointing at the real parts of the table, shown once
 * per browser on a player's first table of each game (remembered in localStorage), and again
 * from the help dialog. It never blocks the game: it is a small non-modal dialog (Skip, Esc or
 * a click on the table go on playing) and the part it names is ringed (`body[data-walk]`).
 */
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "cardroom.walkthrough";

/** Each game's steps: where it points (a `data-walk` value the CSS rings) and what it says
 * (`walk.<game>.<n>.title` and `.text` in the catalogs). */
const STEPS = {
  skip: ["stock", "hand", "builds", "discards"].map((at, i) => ({ at, key: `walk.skip.${i + 1}` })),
  skyjo: ["grid", "piles", "piles", "grid"].map((at, i) => ({ at, key: `walk.skyjo.${i + 1}` })),
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
    h("p", { class: "walk-count" }, t("walk.step", { n: step + 1, count: steps.length })),
    h("h2", { id: "walk-title", tabindex: "-1" }, t(`${s.key}.title`)),
    h("p", { id: "walk-text" }, t(`${s.key}.text`)),
    h("div", { class: "walk-buttons" },
      h("button", { type: "button", class: "btn", id: "walk-skip", onclick: closeWalkthrough }, t(last ? "common.close" : "walk.skip")),
      step > 0 ? h("button", { type: "button", class: "btn", id: "walk-back", onclick: () => go(-1) }, t("walk.back")) : null,
      last ? null : h("button", { type: "button", class: "btn primary", id: "walk-next", onclick: () => go(1) }, t("walk.next"))));
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
