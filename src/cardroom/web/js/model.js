/**
 * What the client knows about one table, built only from server messages (never from rules):
 * the Table object, this seat's view, the `legal` list, the turn deadline and a move log.
 */
import { t } from "./i18n.js";

const LOG_KEEP = 80;
/** The league's events told after a match (docs/league.md). */
export const LEAGUE_NEWS = ["unrated", "achievement", "rating", "division", "unlock"];
const CHAT_KEEP = 60;

/**
 * The match result a `sync` stands for: a page that opens a table after its match ended (a bot
 * that won its first turn before the socket was open, a reload, a link followed later) gets no
 * `match_over` event, only the Table's match, over. The detail of the event already received
 * for the same match is kept (it names the hints used); a match still played has none.
 */
function resultIn(table, known) {
  const match = table?.match;
  if (!match?.over) return null;
  if (known && known.match === match.id) return known;
  return { winners: match.winners || [], scores: match.scores || [], match: match.id };
}

export class TableModel {
  constructor(tableId) {
    this.tableId = tableId;
    this.table = null;
    this.view = null;
    this.legal = [];
    this.deadline = null; // performance.now() ms when the turn runs out, or null
    this.claimAt = null; // performance.now() ms from when the others may skip the turn, or null
    this.seat = null; // my match seat (or table seat before a match); null: spectator
    this.spectator = true;
    this.player = null;
    this.log = [];
    this.summary = null; // the last round_summary detail, until the next round starts
    this.lastSummary = null; // the last round_summary detail, kept for the match result
    this.result = null; // the match_over detail
    this.seenRounds = []; // each round's result seen in a round_summary this match (index: round - 1)
    this.saidReady = false; // "Continue" said under this round's summary
    this.viewSeq = null; // seq of the message that brought the view shown (sent as `after`)
    this.awards = []; // the league's news of the last match: not rated (why), achievements, ratings, divisions, unlocks
    this.forfeit = null; // the `forfeited` event that ended the last match, if one did
    this.chat = []; // the table's chat lines, newest last (the server re-sends its last ones)
    this.restore();
  }

  /** Apply one server message; returns the engine/table events it carried (for animation). */
  apply(msg) {
    switch (msg.type) {
      case "welcome":
        this.chat = []; // the lines said so far come again after the welcome
        this.seat = msg.seat;
        this.spectator = !!msg.spectator;
        this.player = msg.player;
        return [];
      case "sync":
        this.table = msg.table;
        this.eventRound = null;
        this.view = msg.view;
        this.viewSeq = msg.seq;
        this.legal = msg.legal || [];
        this.setDeadline(msg.deadline_in);
        this.setClaim(msg.claim_in);
        if (!msg.view) this.summary = null;
        this.result = resultIn(msg.table, this.result);
        this.save(msg.seq);
        return [];
      case "table":
        this.table = msg.table;
        if ("claim_in" in msg) this.setClaim(msg.claim_in);
        this.lastScores = null;
        this.eventRound = null;
        this.save(msg.seq);
        return [];
      case "event":
        return this.applyEvent(msg);
      case "chat":
        this.chat.push(msg);
        if (this.chat.length > CHAT_KEEP) this.chat.splice(0, this.chat.length - CHAT_KEEP);
        return [];
      default:
        return [];
    }
  }

  applyEvent(msg) {
    if (msg.view) {
      this.view = msg.view;
      this.viewSeq = msg.seq;
    }
    if (typeof msg.round === "number") this.eventRound = msg.round;
    if ("legal" in msg) this.legal = msg.legal || [];
    else if (msg.view) this.legal = [];
    if (!msg.replayed || msg.view) {
      this.setDeadline(msg.deadline_in);
      this.setClaim(msg.claim_in);
    }
    for (const event of msg.events) {
      this.log.push({ ...event, round: msg.round, move: msg.move });
      if (event.kind === "round_summary") {
        this.summary = this.lastSummary = event.detail;
        if (event.detail.result && event.detail.round) this.seenRounds[event.detail.round - 1] = event.detail.result;
      }
      if (["round_summary", "round_started", "match_started"].includes(event.kind)) this.saidReady = false;
      if (event.kind === "round_summary" || event.kind === "match_over") this.lastScores = event.detail.scores;
      if (event.kind === "match_started") this.lastScores = null;
      if (event.kind === "round_started" || event.kind === "match_started") this.summary = null;
      if (event.kind === "match_started") {
        this.result = null;
        this.lastSummary = null;
        this.seenRounds = [];
        this.awards = [];
        this.forfeit = null;
      }
      if (event.kind === "forfeited") this.forfeit = event;
      if (LEAGUE_NEWS.includes(event.kind)) this.awards.push(event);
      if (event.kind === "match_over") {
        this.result = event.detail;
        this.summary = null;
      }
    }
    if (this.log.length > LOG_KEEP) this.log.splice(0, this.log.length - LOG_KEEP);
    this.save(msg.seq);
    return msg.replayed ? [] : msg.events;
  }

  setDeadline(seconds) {
    this.deadline = typeof seconds === "number" ? performance.now() + seconds * 1000 : null;
  }

  /** The server's `claim_in`: when the turn of a player who is not there may be skipped. */
  setClaim(seconds) {
    this.claimAt = typeof seconds === "number" ? performance.now() + seconds * 1000 : null;
  }

  /** Whether I may skip the current turn now (its player is gone; I sit here, or own it). */
  canClaim(me) {
    if (this.claimAt === null || performance.now() < this.claimAt || !this.view || this.view.result) return false;
    if (this.result || this.table?.status !== "playing" || this.myTurn) return false;
    const t = this.table;
    return t.owner?.id === me?.id || !!t.seats?.some((s) => s.player?.id === me?.id);
  }

  /** Match points by match seat: the newest of the table's and the last summary's. */
  get scores() {
    return this.result?.scores || this.summary?.scores || this.lastScores || this.match?.scores || [];
  }

  /** Every scored round of the match (a game that keeps a score sheet: Skyjo), oldest first:
   * the table's `match.history` (a reload gets it whole) with the summaries seen since. */
  get roundHistory() {
    const kept = this.match?.history || [];
    const rounds = [];
    for (let i = 0; i < Math.max(kept.length, this.seenRounds.length); i += 1) {
      const result = this.seenRounds[i] ?? kept[i];
      if (result) rounds.push({ round: i + 1, ...result });
    }
    return rounds;
  }

  /** The round being played: from the newest event, else from the table. */
  get round() {
    return this.eventRound ?? this.match?.round ?? 1;
  }

  get match() {
    return this.table?.match || null;
  }

  get playing() {
    return !!(this.view && this.match && !this.match.over);
  }

  get mySeat() {
    return this.spectator || !this.view ? null : this.view.seat;
  }

  get myTurn() {
    return this.view !== null && this.mySeat !== null && this.view.current === this.mySeat && !this.view.result;
  }

  get partner() {
    const v = this.view;
    return v && v.partners && this.mySeat !== null ? v.partners[this.mySeat] : null;
  }

  /** The table seat of a match seat. */
  tableSeat(matchSeat) {
    const seats = this.match?.seats;
    return seats ? seats[matchSeat] : matchSeat;
  }

  /** A match seat's display name; "You" for mine. */
  name(matchSeat, { you = true } = {}) {
    if (you && matchSeat === this.mySeat) return t("common.you");
    const seat = this.table?.seats?.[this.tableSeat(matchSeat)];
    const name = seat?.player?.name || seat?.bot?.name || t("common.seat", { n: matchSeat + 1 });
    // Two "Easy" bots (or two Adas) are told apart by their seat number.
    const same = (this.table?.seats || []).filter((s) => (s.player?.name || s.bot?.name) === name);
    return same.length > 1 ? `${name} ${this.tableSeat(matchSeat) + 1}` : name;
  }

  seatInfo(matchSeat) {
    return this.table?.seats?.[this.tableSeat(matchSeat)] || null;
  }

  secondsLeft() {
    return this.deadline === null ? null : Math.max(0, (this.deadline - performance.now()) / 1000);
  }

  // -- kept across reloads: the last seq and the move log, so `hello` + `since` can resume --

  get storageKey() {
    return `cardroom.table.${this.tableId}`;
  }

  save(seq) {
    this.seq = seq;
    try {
      localStorage.setItem(this.storageKey, JSON.stringify({ seq, log: this.log.slice(-40) }));
      localStorage.setItem("cardroom.lastTable", this.tableId);
    } catch {
      /* storage full or disabled: resuming falls back to a full sync */
    }
  }

  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.storageKey) || "null");
      if (saved) {
        this.seq = saved.seq;
        this.log = saved.log || [];
      }
    } catch {
      this.seq = null;
    }
  }
}
