/**
 * The league's news of the last match (achievements, a division, unlocks, the rating change)
 * as one chip in the table's toolbar, opened into the list on a click, dismissed with ×.
 */
import { h } from "../dom.js";
import { num, t } from "../i18n.js";

/** The mark of a league news line: a star for an achievement, an arrow for a rating's move
 * (characters every system font has, unlike emoji). */
export function awardIcon(event) {
  if (event.kind === "achievement") return h("span", { class: "award-icon", "aria-hidden": "true" }, "★ ");
  if (event.kind === "division") return h("span", { class: "award-icon", "aria-hidden": "true" }, "◆ ");
  if (event.kind === "unlock") return h("span", { class: "award-icon", "aria-hidden": "true" }, "✦ ");
  if (event.kind === "unrated") return h("span", { class: "award-icon", "aria-hidden": "true" }, "○ ");
  const up = Number(event.detail?.after) >= Number(event.detail?.before);
  return h("span", { class: "award-icon", "aria-hidden": "true" }, up ? "▲ " : "▼ ");
}

/** Each news item as a list item: its mark and its words, the player's own highlighted. */
function awardItems(m, describe) {
  return m.awards.map((event) => h("li", { class: `award ${event.kind}${event.seat === m.mySeat ? " mine" : ""}`, "data-kind": event.kind },
    awardIcon(event), describe(event)));
}

/** The news in one line: "★ 6 achievements · ▲ rating +5.1". */
export function awardsLine(m) {
  const achievements = m.awards.filter((e) => e.kind === "achievement");
  const myRating = m.awards.find((e) => e.kind === "rating" && e.seat === m.mySeat);
  const parts = [];
  if (achievements.length) parts.push(`★ ${t("awards.achievements", { count: achievements.length })}`);
  const placed = m.awards.find((e) => e.kind === "division" && e.seat === m.mySeat);
  if (placed) parts.push(`◆ ${t(`division.${placed.detail.division.id}`)}`);
  const unlocked = m.awards.filter((e) => e.kind === "unlock" && e.seat === m.mySeat).length;
  if (unlocked) parts.push(`✦ ${t("awards.unlocked", { count: unlocked })}`);
  if (myRating) {
    const change = Number(myRating.detail.after) - Number(myRating.detail.before);
    parts.push(`${change >= 0 ? "▲" : "▼"} ${t("awards.rating", { change: num(change, { signDisplay: "always", minimumFractionDigits: 1, maximumFractionDigits: 1 }) })}`);
  } else if (m.awards.some((e) => e.kind === "rating")) parts.push(t("awards.moved"));
  return parts.join(" · ");
}

/** The chip, or null when there is no news. `describe` says an event in words. */
export function awardsSummary(m, { open, describe, onToggle, onDismiss }) {
  if (!m.awards.length) return null;
  return h("div", { class: "awards-summary", id: "awards-summary", role: "group", "aria-label": t("awards.label") },
    h("button", { type: "button", class: "awards-chip", "aria-expanded": String(open), "aria-controls": "awards-list", onclick: onToggle },
      awardsLine(m)),
    h("button", { type: "button", class: "awards-dismiss", "aria-label": t("awards.dismiss"), onclick: onDismiss }, "×"),
    open ? h("ul", { class: "awards awards-pop", id: "awards-list" },
      awardItems(m, describe)) : null);
}

/** The news in a match's result: its one line, opened into the list. A few items show at once;
 * more (six achievements and a rating) stay folded, so the result's buttons stay in view. */
export function awardsInResult(m, describe) {
  if (!m.awards.length) return null;
  const few = m.awards.length <= 2;
  return h("details", { class: "awards-box", id: "match-awards-box", open: few },
    h("summary", {}, awardsLine(m) || t("sk.awards_label")),
    h("ul", { class: "awards", id: "match-awards", "aria-label": t("sk.awards_label") },
      awardItems(m, describe)));
}
