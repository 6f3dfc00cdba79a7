/** Sentences for engine and table events: the move log and the screen-reader announcements. */
import { cardLabel } from "./cards.js";

const SOURCES = {
  hand: "hand",
  stock: "stock",
  discard: "discard pile",
  partner_stock: "partner's stock",
  partner_discard: "partner's discard pile",
};

function list(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function fmt(value) {
  return Number(value).toFixed(1);
}

/** One event as a sentence, or null for events not worth a log line. */
export function describe(event, model) {
  const who = event.seat === undefined ? "" : model.name(event.seat);
  const d = event.detail || {};
  switch (event.kind) {
    case "turn":
      return event.seat === model.mySeat ? "Your turn" : `${who}'s turn`;
    case "played": {
      const from = SOURCES[d.source] || d.source;
      const pile = d.pile ? ` ${d.pile}` : "";
      const wild = d.card === "W" ? ` as ${d.value}` : "";
      return `${who} played ${cardLabel(d.card)}${wild} from ${from}${pile} to building pile ${d.to}`;
    }
    case "completed":
      return `Building pile ${d.to} reached 12 and was cleared`;
    case "discarded": {
      const whose = d.owner !== undefined && d.owner !== event.seat ? ` of ${model.name(d.owner)}` : "";
      return `${who} discarded ${cardLabel(d.card)} on discard pile ${d.pile}${whose}`;
    }
    case "passed":
      return `${who} passed (no card to discard)`;
    case "timed_out":
      return `${who} ran out of time; the turn is skipped`;
    case "reshuffled":
      return `The completed piles were shuffled into a new draw pile (${d.cards} cards)`;
    case "drew":
      return null;
    case "round_over":
      if (d.stalemate && !(d.winners || []).length) return "The round ended in a stalemate; no one scores";
      return `${list((d.winners || []).map((s) => model.name(s)))} won the round${d.stalemate ? " (stalemate)" : ""}`;
    case "match_started":
      return "The match started";
    case "round_started":
      return `Round ${d.round} started; ${model.name(d.dealer)} dealt`;
    case "round_summary":
      return `Round ${d.round} is over`;
    case "solo":
      return "A partner has gone: from now on everyone plays alone (R2.5)";
    case "match_over":
      return `The match is over: ${list((d.winners || []).map((s) => model.name(s)))} won`;
    case "forfeited": {
      const how = d.reason === "timeouts" ? "timed out of too many turns in a row" : "left the table";
      return `${event.seat === model.mySeat ? "You" : who} ${how}: the match is forfeited, a loss for ${event.seat === model.mySeat ? "you" : "them"}`;
    }
    case "unrated":
      return d.message || "Not rated: this match counts as casual";
    case "autopilot":
      return d.on ? `${model.name(d.seat)} is away; a bot plays for them` : `${model.name(d.seat)} is back`;
    case "skipped": {
      const by = d.by === model.player?.id ? "You" : d.name ?? "Another player";
      return `${by} skipped ${event.seat === model.mySeat ? "your" : `${who}'s`} turn (not there)`;
    }
    case "rematch_proposed":
      return `${d.by === model.player?.id ? "You" : d.name} proposed a rematch`;
    case "rematch_accepted":
      return `${d.by === model.player?.id ? "You" : d.name} accepted the rematch`;
    case "rematch_declined":
      return `${d.by === model.player?.id ? "You" : d.name} declined the rematch`;
    case "rematch_withdrawn":
      return `The rematch was called off: ${d.reason}`;
    case "achievement": {
      const a = d.achievement || {};
      const earner = event.seat === model.mySeat ? "You" : d.player?.name || who;
      return `${earner} earned an achievement: “${a.name}” (${a.description})`;
    }
    case "division": {
      const placed = event.seat === model.mySeat ? "You are" : `${who} is`;
      return `${placed} placed in the ${d.division?.name} division (${d.mode})`;
    }
    case "unlock": {
      const item = d.item || {};
      const kind = item.kind === "theme" ? "table theme" : "card back";
      const mine = event.seat === model.mySeat;
      return `${mine ? "You" : who} unlocked the ${kind} “${item.name}”${mine ? ": wear it from your profile" : ""}`;
    }
    case "rating": {
      const change = Number(d.after) - Number(d.before);
      const sign = change >= 0 ? "+" : "−";
      const whose = event.seat === model.mySeat ? "Your" : `${who}'s`;
      return `${whose} ${d.mode} rating: ${fmt(d.before)} → ${fmt(d.after)} (${sign}${fmt(Math.abs(change))})`;
    }
    default:
      return null;
  }
}
