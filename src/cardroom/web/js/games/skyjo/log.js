/** Sentences for Skyjo's events (the move log and screen-reader announcements); the table's
 * own events (match start and end, achievements, ratings, autopilot…) read as for every game. */
import { describe as tableEvent } from "../../render/log.js";
import { list, t } from "../../i18n.js";

function at(d) {
  return t("sk.at", { column: d.column, row: d.row });
}

export function describe(event, model) {
  const who = event.seat === undefined || event.seat === null ? "" : model.name(event.seat);
  const mine = event.seat === model.mySeat;
  const d = event.detail || {};
  switch (event.kind) {
    case "turn":
      return mine ? t("table.your_turn") : t("table.whose_turn", { name: who });
    case "dealt":
      return t("sk.log.dealt", { card: d.discard });
    case "revealed":
      return t("sk.log.revealed", { name: who, card: d.card, at: at(d) });
    case "starts":
      return d.rule === "S1.3"
        ? t(mine ? "sk.log.starts_high_me" : "sk.log.starts_high", { name: who, sum: d.sum })
        : t(mine ? "sk.log.starts_closed_me" : "sk.log.starts_closed", { name: who });
    case "drew":
      return t("sk.log.drew", { name: who });
    case "took":
      return t("sk.log.took", { name: who, card: d.card, at: at(d), replaced: d.replaced });
    case "exchanged":
      return t("sk.log.exchanged", { name: who, card: d.card, at: at(d), replaced: d.replaced });
    case "discarded":
      return t("sk.log.discarded", { name: who, card: d.card, turned: d.turned, at: at(d) });
    case "column_removed":
      return t("sk.log.column_removed", { name: who, column: d.column, card: d.card });
    case "closed":
      return t(mine ? "sk.log.closed_me" : "sk.log.closed", { name: who });
    case "turned_up":
      return t(mine ? "sk.log.turned_up_me" : "sk.log.turned_up", { name: who });
    case "reshuffled":
      return t("sk.log.reshuffled", { count: d.cards });
    case "timed_out":
      return t("sk.log.timed_out", { name: who });
    case "round_over":
      return null; // the table's round summary says it, with the points
    case "round_summary": {
      const r = d.result || {};
      return r.doubled
        ? t("sk.log.summary_doubled", { round: d.round, name: model.name(r.closer) })
        : t("log.round_summary", { round: d.round });
    }
    case "round_started":
      if (d.starter === null || d.starter === undefined) return t("sk.log.round_started", { round: d.round });
      return t(d.starter === model.mySeat ? "sk.log.round_started_by_me" : "sk.log.round_started_by", { round: d.round, name: model.name(d.starter) });
    case "match_over":
      return t("sk.log.match_over", { names: list((d.winners || []).map((s) => model.name(s))) });
    default:
      return tableEvent(event, model);
  }
}
