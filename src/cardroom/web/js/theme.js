/** The table's look (felt and card backs): a `data-theme` on <body> switching the CSS custom
 * properties of base.css, kept in localStorage, and (for a player) on the server, which wins at
 * the next visit: the choice follows the player to every device. Felt green is the default (no
 * attribute). The last themes are rewards, chosen once unlocked (js/main.js). */
const KEY = "cardroom.theme";
export const THEMES = [
  { id: "felt", name: "theme.felt" }, // names: catalog keys (web/i18n)
  { id: "midnight", name: "theme.midnight" },
  { id: "walnut", name: "theme.walnut" },
  { id: "stadium", name: "theme.stadium" }, // unlocked by rewards (docs/league.md)
  { id: "podium", name: "theme.podium" },
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
