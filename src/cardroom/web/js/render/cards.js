/** Card elements: the number always big, the colour group backed by a shape and a pattern. */
import { t } from "../i18n.js";
import { h } from "../dom.js";

const GROUPS = [
  { max: 4, cls: "c-blue", shape: "●", name: "blue" },
  { max: 8, cls: "c-green", shape: "▲", name: "green" },
  { max: 12, cls: "c-purple", shape: "◆", name: "purple" },
];

export function isWild(card) {
  return card === "W";
}

export function cardLabel(card) {
  return isWild(card) ? t("card.wild") : String(card);
}

function group(card) {
  return isWild(card) ? { cls: "c-wild", shape: "★", name: "orange" } : GROUPS.find((g) => card <= g.max);
}

/**
 * A face-up card. `as` is the value a wild stands for on a building pile.
 * Extra attributes (data-*, aria-*) go on the element.
 */
export function cardEl(card, { as = null, attrs = {}, tag = "span" } = {}) {
  const g = group(card);
  const text = isWild(card) ? "W" : String(card);
  return h(
    tag,
    { class: `card ${g.cls}`, "data-card": text, ...attrs },
    h("span", { class: "pip", "aria-hidden": "true" }, isWild(card) ? "★" : text),
    h("span", { class: "num", "aria-hidden": "true" }, text),
    h("span", { class: "shape", "aria-hidden": "true" }, g.shape),
    as !== null && isWild(card) ? h("span", { class: "as", "aria-hidden": "true" }, `=${as}`) : null,
  );
}

export function backEl(label = "", attrs = {}) {
  return h("span", { class: "card back", ...attrs }, h("span", { class: "num", "aria-hidden": "true" }, label));
}

/** An empty place; its words are for the eye (the pile's label says it for screen readers). */
export function slotEl(text = "", attrs = {}) {
  return h("span", { class: "slot", "aria-hidden": "true", ...attrs }, text);
}

/**
 * A discard pile drawn as a fan, so every card's number shows (R7.2: discards are public).
 * Each covered card shows a strip; the place decides how tall a fan may grow (CSS `--fan-max`,
 * in card heights), so a long pile squeezes its strips instead of pushing the hand off screen.
 */
export function fanEl(cards, attrs = {}) {
  const strip = Math.min(0.26, Math.max(0.13, 1.6 / Math.max(1, cards.length - 1)));
  const style = `--strip:${strip.toFixed(3)};--gaps:${Math.max(1, cards.length - 1)}`;
  const fan = h("span", { class: "fan", "data-count": cards.length, style, ...attrs });
  if (cards.length === 0) fan.append(slotEl(""));
  for (const card of cards) fan.append(cardEl(card));
  return fan;
}

export function describeCards(cards) {
  return cards.length ? cards.map(cardLabel).join(", ") : t("board.empty");
}
