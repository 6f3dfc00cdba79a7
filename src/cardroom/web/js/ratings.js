/**
 * The seats' league ratings at a ranked table, shown beside their names: read once when a
 * match starts (or when the table is opened mid-match) and kept for that match, then read again
 * once its rating changes are announced, so the side panel agrees with the result.
 */
import { api } from "./api.js";

export class SeatRatings {
  /** `onRead` redraws once the ratings have come. */
  constructor(onRead) {
    this.onRead = onRead;
    this.match = null;
    this.values = null; // {subject: rating}
  }

  /** The ratings of `table`'s seats: null while casual, between matches or not yet read. */
  now(table) {
    const match = table?.match?.id ?? null;
    if (!table?.ranked || !table.rating_mode || !match) return null;
    if (this.match !== match) {
      this.match = match;
      this.values = null;
      const subjects = table.seats.map((s) => (s.player ? s.player.id : s.bot ? `bot:${s.bot.level}` : null)).filter(Boolean);
      if (subjects.length) {
        api.ratings(table.game || "skip", table.rating_mode, subjects).then(({ ratings }) => {
          if (this.match !== match) return;
          this.values = ratings;
          this.onRead();
        }).catch((error) => console.warn("the seats' ratings were not read:", error.message)); // the game goes on without
      }
    }
    return this.values;
  }

  /** Read again at the next `now`: the match's rating changes are stored (the league's news). */
  forget() {
    this.match = null;
    this.values = null;
  }
}
