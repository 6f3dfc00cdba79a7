/** The table's look (felt and card backs): a `data-theme` on <body> switching the CSS custom
 * properties of base.css, kept in localStorage. Felt green is the default (no attribute). */
const KEY = "cardroom.theme";
export const THEMES = [
  { id: "felt", name: "Felt green" },
  { id: "midnight", name: "Midnight blue" },
  { id: "walnut", name: "Walnut" },
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
