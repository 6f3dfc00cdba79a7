/** Sentences for engine and table events: the move log and the screen-reader announcements. */
import { cardLabel } from "./cards.js";
import { has, list, num, t } from "../i18n.js";

const SOURCES = {
  hand: "log.from.hand", // catalog keys (web/i18n)
  stock: "log.from.stock",
  discard: "log.from.discard",
  partner_stock: "log.from.partner_stock",
  partner_discard: "log.from.partner_discard",
};

function fmt(value) {
  return num(Number(value), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** An achievement's or an item's name and description in the player's words, else the
 * server's (English). */
function named(prefix, thing, field) {
  const key = `${prefix}.${thing.id}.${field}`;
  return has(key) ? t(key) : thing[field];
}

/** One event as a sentence, or null for events not worth a log line. */
export function describe(event, model) {
  const who = event.seat === undefined ? "" : model.name(event.seat);
  const mine = event.seat === model.mySeat;
  const d = event.detail || {};
  const byMe = d.by === model.player?.id;
  switch (event.kind) {
    case "turn":
      return mine ? t("table.your_turn") : t("table.whose_turn", { name: who });
    case "played": {
      const from = SOURCES[d.source] ? t(SOURCES[d.source], { pile: d.pile ?? "" }).trim() : d.source;
      const card = d.card === "W" ? t("log.wild_as", { card: cardLabel(d.card), value: d.value }) : cardLabel(d.card);
      return t("log.played", { name: who, card, from, to: d.to });
    }
    case "completed":
      return t("log.completed", { to: d.to });
    case "discarded":
      return d.owner !== undefined && d.owner !== event.seat
        ? t("log.discarded_of", { name: who, card: cardLabel(d.card), pile: d.pile, owner: model.name(d.owner) })
        : t("log.discarded", { name: who, card: cardLabel(d.card), pile: d.pile });
    case "passed":
      return t("log.passed", { name: who });
    case "timed_out":
      return t("log.timed_out", { name: who });
    case "reshuffled":
      return t("log.reshuffled", { count: d.cards });
    case "drew":
      return null;
    case "round_over":
      if (d.stalemate && !(d.winners || []).length) return t("log.stalemate");
      return t(d.stalemate ? "log.round_won_stalemate" : "log.round_won", { names: list((d.winners || []).map((s) => model.name(s))) });
    case "match_started":
      return t("log.match_started");
    case "round_started":
      return t("log.round_started", { round: d.round, name: model.name(d.dealer) });
    case "round_summary":
      return t("log.round_summary", { round: d.round });
    case "solo":
      return t("log.solo");
    case "match_over":
      return t("log.match_over", { names: list((d.winners || []).map((s) => model.name(s))) });
    case "forfeited": {
      const how = d.reason === "timeouts" ? "timeouts" : "left";
      return mine ? t(`log.forfeit.${how}.me`) : t(`log.forfeit.${how}.other`, { name: who });
    }
    case "unrated":
      return d.message || t("log.unrated");
    case "autopilot":
      return t(d.on ? "log.autopilot_on" : "log.autopilot_off", { name: model.name(d.seat) });
    case "skipped": {
      const by = byMe ? t("common.you") : d.name ?? t("log.another");
      return mine ? t("log.skipped_mine", { by }) : t("log.skipped", { by, name: who });
    }
    case "rematch_proposed":
      return byMe ? t("log.rematch.proposed_me") : t("log.rematch.proposed", { name: d.name });
    case "rematch_accepted":
      return byMe ? t("log.rematch.accepted_me") : t("log.rematch.accepted", { name: d.name });
    case "rematch_declined":
      return byMe ? t("log.rematch.declined_me") : t("log.rematch.declined", { name: d.name });
    case "rematch_withdrawn":
      return t("log.rematch.withdrawn", { reason: d.reason });
    case "achievement": {
      const a = d.achievement || {};
      const params = { name: d.player?.name || who, title: named("achievement", a, "name"), description: named("achievement", a, "description") };
      return t(mine ? "log.achievement_me" : "log.achievement", params);
    }
    case "division": {
      const params = { name: who, division: d.division?.id ? t(`division.${d.division.id}`) : d.division?.name, mode: d.mode };
      return t(mine ? "log.division_me" : "log.division", params);
    }
    case "unlock": {
      const item = d.item || {};
      const params = { name: who, item: named("reward", item, "name") };
      const kind = item.kind === "theme" ? "theme" : "back";
      return t(mine ? `log.unlock.${kind}_me` : `log.unlock.${kind}`, params);
    }
    case "rating": {
      const change = Number(d.after) - Number(d.before);
      const params = { name: who, mode: d.mode, before: fmt(d.before), after: fmt(d.after), change: num(change, { signDisplay: "always", minimumFractionDigits: 1, maximumFractionDigits: 1 }) };
      return t(mine ? "log.rating_me" : "log.rating", params);
    }
    default:
      return null;
  }
}
