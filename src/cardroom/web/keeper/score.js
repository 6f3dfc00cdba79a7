/**
 * The sheet of a kept game while entries wait to be sent: the server scores every round it
 * has (cardroom.keeper, with the engines' functions); this preview scores the same way (S4.3
 * doubling, S5.1 end; R6.2 points, R6.3 target) so the totals stay right with no connection.
 * Once the server answers, its sheet replaces the preview.
 */

/** Rounds in the file's form, by name: Skyjo {sums, closer}; Skip {went_out, stocks}. */
export function scoreSheet(game, players, options, rounds) {
  const n = players.length;
  let totals = players.map(() => 0);
  let winners = null;
  let endedAt = null;
  const lines = rounds.map((round, index) => {
    let points, doubled = false, why = null, ended = null;
    if (game === "skyjo") {
      const sums = players.map((p) => round.sums[p]);
      const closer = players.indexOf(round.closer);
      const own = sums[closer];
      const beaten = sums.some((s, seat) => seat !== closer && s <= own);
      doubled = beaten && own > 0;
      why = own <= 0 ? "not_positive" : !beaten ? "lowest"
        : Math.min(...sums.filter((_, seat) => seat !== closer)) === own ? "tied" : "not_lowest";
      points = sums.map((s, seat) => (seat === closer && doubled ? 2 * s : s));
      totals = totals.map((t, seat) => t + points[seat]);
      if (Math.max(...totals) >= options.end_score) {
        const low = Math.min(...totals);
        ended = totals.flatMap((t, seat) => (t === low ? [seat] : []));
      }
    } else {
      const won = skipWinners(players, options, round.went_out);
      const left = players.reduce((sum, p, seat) => sum + (won.includes(seat) ? 0 : round.stocks[p] || 0), 0);
      const gain = won.length ? 25 + 5 * left : 0;
      points = players.map((_, seat) => (won.includes(seat) ? gain : 0));
      totals = totals.map((t, seat) => t + points[seat]);
      const target = options.match_target === "single" ? null : options.match_target;
      if (won.length && (target === null || totals[won[0]] >= target)) ended = won;
    }
    const ends = winners === null && ended !== null;
    if (ends) {
      winners = ended;
      endedAt = index + 1;
    }
    return { round: index + 1, points: byName(players, points), totals: byName(players, totals), doubled, why, ends };
  });
  let leaders = [];
  if (rounds.length) {
    const best = game === "skyjo" ? Math.min(...totals) : Math.max(...totals);
    leaders = players.filter((_, seat) => totals[seat] === best);
  }
  return {
    rounds: lines,
    totals: byName(players, totals),
    leaders,
    over: winners !== null,
    winners: winners && winners.map((seat) => players[seat]),
    ended_at: endedAt,
    n,
  };
}

/** The seats that won a Skip round: who went out and their partner (R6.1, R2.3). */
export function skipWinners(players, options, wentOut) {
  if (wentOut === null || wentOut === undefined) return [];
  const seat = players.indexOf(wentOut);
  const team = (options.teams || []).find((t) => t.includes(wentOut));
  const partner = team ? players.indexOf(team[0] === wentOut ? team[1] : team[0]) : -1;
  return partner >= 0 ? [seat, partner].sort((a, b) => a - b) : [seat];
}

/** Teams of two sit opposite (R2.3): seat i with seat i + n/2. */
export function oppositeTeams(players) {
  const half = players.length / 2;
  return players.slice(0, half).map((p, i) => [p, players[i + half]]);
}

export function stockSize(options, players) {
  return options.stock_size ?? (players.length <= 4 ? 30 : 20);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy"; partners as "Ann & Cy". */
export function names(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** Winners or leaders grouped by team for a Skip team game. */
export function sides(players, options, chosen) {
  const teams = options.teams || [];
  if (!teams.length) return chosen;
  const out = [];
  for (const team of teams) if (team.some((p) => chosen.includes(p))) out.push(team.join(" & "));
  return out;
}

function byName(players, values) {
  return Object.fromEntries(players.map((p, seat) => [p, values[seat]]));
}

/** Sums twelve Skyjo cards can make once identical columns are removed (S6.1). */
export const LOWEST_SUM = -17;
export const HIGHEST_SUM = 140;
