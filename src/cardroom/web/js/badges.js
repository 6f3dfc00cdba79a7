/**
 * Division badges and card backs of the players in view (lobby rows, table seats): read from
 * `GET /api/badges` at most 8 players a call, kept for a minute, and announced with a
 * "cardroom:badges" event on window so whoever shows them draws again.
 */
import { api } from "./api.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

const KEEP_MS = 60_000;
const cache = new Map(); // "game|mode|player" -> {at, badge} ; badge null while being read

/** The rating pool of a table: its ranked mode, or what its seats would be. */
export function modeOf(table) {
  if (table.rating_mode) return table.rating_mode;
  if (table.options?.teams) return "teams";
  return (table.seats?.length ?? 2) === 2 ? "2p" : "3p+";
}

/** The badges known now of `players` (fetching the rest). */
export function badgesFor(game, mode, players) {
  const now = Date.now();
  const known = {};
  const missing = [];
  for (const p of new Set(players.filter(Boolean))) {
    const hit = cache.get(`${game}|${mode}|${p}`);
    if (hit && now - hit.at < KEEP_MS) {
      if (hit.badge) known[p] = hit.badge;
    } else missing.push(p);
  }
  for (let i = 0; i < missing.length; i += 8) {
    const chunk = missing.slice(i, i + 8);
    for (const p of chunk) cache.set(`${game}|${mode}|${p}`, { at: now, badge: cache.get(`${game}|${mode}|${p}`)?.badge ?? null });
    api.badges(game, mode, chunk).then(({ badges }) => {
      for (const [p, badge] of Object.entries(badges)) cache.set(`${game}|${mode}|${p}`, { at: Date.now(), badge });
      window.dispatchEvent(new Event("cardroom:badges"));
    }).catch((error) => console.warn("badges were not read:", error.message)); // names show without them
  }
  return known;
}

/** Forget every badge known: a match's rating changes move placements and divisions. */
export function forgetBadges() {
  cache.clear();
}

/** The division badge beside a name: "Gold", or "Placement" with the matches left. */
export function badgeEl(badge) {
  if (!badge?.division) return null;
  const d = badge.division;
  const name = d.id === "placement" ? null : t(`division.${d.id}`);
  const text = d.id === "placement" ? t("badge.placement", { count: d.left }) : name;
  const title = d.id === "placement"
    ? t("badge.placement_title", { count: d.left })
    : badge.division.rating != null ? t("badge.division_rating", { name, rating: num(badge.division.rating) }) : t("badge.division", { name });
  return h("span", { class: "division-badge", "data-division": d.id, title }, text);
}

/** The class that draws a player's chosen card back (css/cards.css). */
export function backClass(badge) {
  return badge?.card_back && badge.card_back !== "classic" ? ` back-${badge.card_back}` : "";
}
