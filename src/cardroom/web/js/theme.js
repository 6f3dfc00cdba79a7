/** The table's look (felt and card backs): a `data-theme` on <body> switching the CSS custom
 * properties of base.css, kept in localStorage, and (for a player) on the server, which wins at
 * the next visit: the choice follows the player to every device. Felt green is the default (no
 * attribute). The last themes are rewards, chosen once unlocked (js/main.js). */
const KEY = "cardroom.theme";
export const THEMES = [
  { id: "felt", name: "Felt green" },
  { id: "midnight", name: "Midnight blue" },
  { id: "walnut", name: "Walnut" },
  { id: "stadium", name: "Stadium lights" }, // unlocked by rewards (docs/league.md)
  { id: "podium", name: "Podium gold" },
];

export function theme() {
  const saved = localStorage.getItem(KEY);
  return THEMES.some((t) => t.id === saved) ? saved : "felt";
}

export function applyTheme(id = theme()) {
  if (id === "felt") delete document.body.dataset.theme;
  else document.body.dataset.theme = id;
}

export function setTheme(id) {
  localStorage.setItem(KEY, id);
  applyTheme(id);
}
