/** Who is at the table now: the seated people (online, away or offline), the bots, and the
 * watchers by name (the server names the first 20 and counts the rest); at a ranked table,
 * each seat's league rating; everyone's division badge. */
import { h } from "../dom.js";
import { list, num, t } from "../i18n.js";
import { badgeEl, badgesFor, modeOf } from "../badges.js";

export function renderPresent(table, me, ratings = null) {
  const badges = badgesFor(table.game || "skip", modeOf(table), table.seats.map((s) => s.player?.id));
  const seated = table.seats.filter((s) => s.player || s.bot).map((seat) => {
    const state = seat.bot ? "bot" : seat.away ? "away" : seat.connected ? "online" : "offline";
    const own = seat.player?.name || seat.bot.name;
    // Two "Easy" bots (or two Adas) are told apart by their seat number, as on the board.
    const same = table.seats.filter((s) => (s.player?.name || s.bot?.name) === own).length > 1;
    const shown = same ? `${own} ${seat.index + 1}` : own;
    const name = seat.player?.id === me?.id ? t("present.you", { name: shown }) : shown;
    return h("li", { class: "present-who", "data-state": state, "data-seat": seat.index },
      h("span", { class: "present-dot", "aria-hidden": "true" }), h("span", { class: "present-name" }, name), " ",
      seat.player ? badgeEl(badges[seat.player.id]) : null, " ",
      h("small", { class: state === "online" ? "sr-only" : "" }, t(`present.${state}`)),
      ratings ? rating(ratings[seat.player ? seat.player.id : `bot:${seat.bot.level}`]) : null);
  });
  const named = table.watchers || [];
  const more = Math.max(0, (table.spectators || 0) - named.length);
  const names = named.map((w) => (w.id === me?.id ? t("present.you", { name: w.name }) : w.name));
  if (more) names.push(t("present.more", { count: more }));
  const watchers = named.length || more
    ? h("p", { class: "present-watchers", id: "present-watchers" }, t("present.watching", { names: list(names) }))
    : null;
  return h("section", { class: "present", id: "present", "aria-labelledby": "present-title" },
    h("h2", { id: "present-title" }, t("present.title")), h("ul", { class: "present-list" }, seated), watchers);
}

/** A seat's league rating at a ranked table ("unrated" before its first ranked match). */
function rating(value) {
  return h("span", { class: "present-rating", "data-rating": value ?? "" },
    value === undefined ? t("present.unrated") : t("present.rating", { rating: num(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }));
}
