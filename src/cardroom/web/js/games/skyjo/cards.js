/** Skyjo cards: the number big on the colour of its band (-2…12), a pattern so colour is never
 * the only clue; face-down cards and the gap a removed column leaves. */
import { t } from "../../i18n.js";
import { h } from "../../dom.js";

export const HIDDEN = "?";

/** The colour bands of the physical deck, each with a name for people who cannot see it. */
export function band(value) {
  if (value < 0) return { cls: "sk-neg", name: "dark blue" };
  if (value === 0) return { cls: "sk-zero", name: "light blue" };
  if (value <= 4) return { cls: "sk-low", name: "green" };
  if (value <= 8) return { cls: "sk-mid", name: "yellow" };
  return { cls: "sk-high", name: "red" };
}

export function cellLabel(cell) {
  if (cell === null) return t("sk.removed");
  if (cell === HIDDEN) return t("sk.face_down");
  return String(cell);
}

/**
 * A Skyjo card face (value), back (HIDDEN) or gap (null); `tag` lets cells be buttons. `said`:
 * its name for screen readers, as hidden words (not an aria-label: what shows and what is said
 * must not disagree).
 */
export function skyjoCard(cell, { tag = "span", attrs = {}, classes = "", said = null } = {}) {
  const name = said ? h("span", { class: "sr-only" }, said) : null;
  if (cell === null) return h(tag, { class: `sk-card sk-gap ${classes}`, ...attrs }, name);
  if (cell === HIDDEN) {
    return h(tag, { class: `sk-card sk-back ${classes}`, ...attrs }, name, h("span", { class: "sk-logo", "aria-hidden": "true" }, "SKYJO"));
  }
  const b = band(cell);
  return h(tag, { class: `sk-card ${b.cls} ${classes}`, "data-value": cell, ...attrs }, name,
    h("span", { class: "sk-corner", "aria-hidden": "true" }, String(cell)),
    h("span", { class: "sk-num", "aria-hidden": "true" }, String(cell)));
}

/** The sum of a grid's face-up cards (what the table can see of a player's score). */
export function visibleSum(grid) {
  let sum = 0;
  for (const column of grid) for (const cell of column) if (typeof cell === "number") sum += cell;
  return sum;
}

export function hiddenCount(grid) {
  let n = 0;
  for (const column of grid) for (const cell of column) if (cell === HIDDEN) n += 1;
  return n;
}
