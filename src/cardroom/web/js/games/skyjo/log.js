/** Sentences for Skyjo's events (the move log and screen-reader announcements); the table's
 * own events (match start and end, achievements, ratings, autopilot…) read as for every game. */
import { describe as tableEvent } from "../../render/log.js";

function at(d) {
  return `column ${d.column}, row ${d.row}`;
}

export function describe(event, model) {
  const who = event.seat === undefined || event.seat === null ? "" : model.name(event.seat);
  const d = event.detail || {};
  switch (event.kind) {
    case "turn":
      return event.seat === model.mySeat ? "Your turn" : `${who}'s turn`;
    case "dealt":
      return `Cards dealt; the discard pile starts with ${d.discard}`;
    case "revealed":
      return `${who} turned a ${d.card} (${at(d)})`;
    case "starts":
      return d.rule === "S1.3"
        ? `${who} start${event.seat === model.mySeat ? "" : "s"}: the highest two cards (${d.sum})`
        : `${who} start${event.seat === model.mySeat ? "" : "s"}: closed the last round`;
    case "drew":
      return `${who} drew a card`;
    case "took":
      return `${who} took the ${d.card} from the discard pile and put it at ${at(d)}; the ${d.replaced} went to the discard pile`;
    case "exchanged":
      return `${who} put the drawn ${d.card} at ${at(d)}; the ${d.replaced} went to the discard pile`;
    case "discarded":
      return `${who} discarded the drawn ${d.card} and turned a ${d.turned} (${at(d)})`;
    case "column_removed":
      return `${who} cleared column ${d.column}: three ${d.card}s went to the discard pile (S3.1)`;
    case "closed":
      return `${who} turned ${event.seat === model.mySeat ? "your" : "their"} last card: everyone else plays one more turn (S4.1)`;
    case "turned_up":
      return `${who} turned the rest of ${event.seat === model.mySeat ? "your" : "their"} cards`;
    case "reshuffled":
      return `The discard pile was shuffled into a new draw pile (${d.cards} cards, S2.3)`;
    case "timed_out":
      return `${who} ran out of time: a card was drawn and discarded, and a card turned`;
    case "round_over":
      return null; // the table's round summary says it, with the points
    case "round_summary": {
      const r = d.result || {};
      const doubled = r.doubled ? `; ${model.name(r.closer)} closed without the strictly lowest sum and scores double (S4.3)` : "";
      return `Round ${d.round} is over${doubled}`;
    }
    case "round_started":
      return d.starter === null || d.starter === undefined
        ? `Round ${d.round} started: everyone turns two cards`
        : `Round ${d.round} started; ${model.name(d.starter)} ${d.starter === model.mySeat ? "start" : "starts"} (closed the last round)`;
    case "match_over": {
      const names = (d.winners || []).map((s) => model.name(s));
      return `The game is over: ${names.join(" and ")} won with the lowest total`;
    }
    default:
      return tableEvent(event, model);
  }
}
