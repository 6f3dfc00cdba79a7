/** The rules page's pictures, drawn with the game's own card renderers on the reader's table
 * look. The server writes each picture (server/markdown.py `figure`) as a figure whose scene is
 * data (`data-scene`: parts of cards) and whose words, in the page's language, say what it
 * shows: they are the page's text until the cards are drawn, then the picture's name. */
import { h } from "./dom.js";
import { applyTheme } from "./theme.js";
import { backEl, cardEl, fanEl, slotEl } from "./render/cards.js";
import { HIDDEN, skyjoCard } from "./games/skyjo/cards.js";

const BACK = "#";
const EMPTY = "_";

function skipCard({ v, as }) {
  if (v === BACK) return backEl();
  if (v === EMPTY) return slotEl();
  return cardEl(v, { as: as ?? null });
}

function skyjoCell({ v }) {
  return skyjoCard(v === BACK ? HIDDEN : v === EMPTY ? null : v);
}

function marked(el, card) {
  if (card.mark) el.classList.add("fig-mark");
  return el;
}

/** A Skip pile fanned as at the table; a wild keeps the number it stands for. */
function fan(pile) {
  const cards = pile.filter((card) => card.v !== EMPTY);
  const el = fanEl(cards.map((card) => card.v));
  cards.forEach((card, i) => {
    let drawn = el.children[i];
    if (card.as !== undefined) {
      const wild = skipCard(card);
      drawn.replaceWith(wild);
      drawn = wild;
    }
    marked(drawn, card);
  });
  return el;
}

function body(game, part) {
  const one = game === "skyjo" ? skyjoCell : skipCard;
  const [first] = part.piles;
  switch (part.kind) {
    case "stock":
      return h("span", { class: "fig-stock" }, backEl(), marked(skipCard(first[0]), first[0]));
    case "pile":
      return marked(one(first[0]), first[0]);
    case "hand":
      return h("span", { class: "fig-row" }, part.piles.map(([card]) => marked(one(card), card)));
    case "piles":
      return h("span", { class: "fig-row" }, part.piles.map(fan));
    case "grid":
      return h("span", { class: "sk-grid" }, part.piles.flat().map((card) => marked(skyjoCell(card), card)));
    default:
      return null;
  }
}

function draw(art) {
  const scene = JSON.parse(art.dataset.scene);
  const words = art.textContent.trim();
  const parts = scene.parts.map((part) => (part.kind === "arrow"
    ? h("span", { class: "fig-arrow", "aria-hidden": "true" }, h("span", {}, "→"))
    : h("span", { class: "fig-part", "data-kind": part.kind }, body(scene.game, part),
      part.label ? h("span", { class: "fig-label" }, part.label) : null)));
  art.replaceChildren(...parts);
  art.setAttribute("role", "img");
  art.setAttribute("aria-label", words);
  art.dataset.drawn = "true";
}

applyTheme();
for (const art of document.querySelectorAll(".cards-art[data-scene]")) draw(art);
