"""The one hook the server calls: a match has finished, so rate it, count it, award it.

``on_match_finished`` runs after the final move is committed, in a transaction of its own off
the writer that every table's moves wait on, so a finishing match never slows another table's
move. It counts a match exactly once (its results rows say whether it was counted), and
``unrated_matches`` finds the finished matches a crash left uncounted, for the server to count
at its next start. It returns the table events to announce (achievements, rating changes,
a division placed, rewards unlocked).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Integer, cast, func, insert, select

from cardroom.games import get_game
from cardroom.games.base import ReplayError
from cardroom.league import achievements, divisions, fairplay, ratings, rewards, seasons
from cardroom.league.ladder import Barred, LadderRules, barred_verdict
from cardroom.league.ladder import verdict as ladder_verdict
from cardroom.league.models import Result, bot_subject
from cardroom.league.periods import as_utc, season_of, system_clock
from cardroom.store import repository as repo
from cardroom.store.models import Match as MatchRow

log = logging.getLogger(__name__)


def subject_of(seat: dict[str, Any]) -> str:
    """Who played a match seat (``match_seat_json`` of the server): a player or a bot level."""
    if seat.get("player_id"):
        return str(seat["player_id"])
    return bot_subject(str(seat.get("bot") or "unknown"))


def on_match_finished(
    conn: Connection,
    match_id: str,
    *,
    now: datetime | None = None,
    season_months: int = 1,
    ladder: LadderRules | None = None,
    barred: Barred | None = None,
) -> list[dict[str, Any]]:
    """Rate, record and award a finished match once; the events the table should announce.

    ``ladder``: the ladder's rules (``ladder.py``): a ranked match that breaks one is counted
    as casual, with an ``unrated`` event saying why. None applies none of them (tools and
    tests of the ratings alone; the server always passes its settings'). ``barred``: who a
    moderator has banned from ranked play (``ladder.Barred``), checked with or without the
    ladder's other rules: a ranked match with such a player is counted as casual.

    Never raises for a match it cannot read: a league problem must not lose the final move.
    """
    row = repo.get_match(conn, match_id)
    if row is None or row["status"] != "finished":
        return []
    if conn.scalar(select(func.count()).where(Result.match_id == match_id)):
        return []  # already counted
    seats: list[dict[str, Any]] = list(row["seats"] or [])
    moment = as_utc(now or row["finished_at"] or system_clock())
    events: list[dict[str, Any]] = []
    try:
        game, facts, subjects = match_facts(conn, row)
    except (LookupError, ReplayError, ValueError) as error:
        log.error("league: match %s cannot be analysed: %s", match_id, error)
        return []
    why = None
    if facts.seats[0].ranked and barred is not None:
        why = barred_verdict(conn, subjects, moment, barred)
    if facts.seats[0].ranked and why is None and ladder is not None:
        sides = [[subjects[s] for s in (f.side or [f.seat])] for f in facts.seats]
        why = ladder_verdict(conn, subjects, moment, ladder, sides=sides)
    if why is not None:  # the ladder's rules: counted as casual, and said why
        for f in facts.seats:
            f.ranked = False
        events.append(_event("unrated", None, **why.detail()))
    seasons.roll_over(conn, moment, season_months)
    _store_results(conn, row, facts, subjects, moment, why.reason if why else None)
    rated = facts.seats[0].ranked
    void = fairplay.void_if_marked(conn, match_id, subjects, moment)
    if void:  # a marked account's results are void: rated by nobody while the mark stands
        rated = False
        events.append(_event("unrated", None, **fairplay.VOIDED_AT_COUNTING))
    if rated:
        events += _rate(conn, row, facts, subjects, moment, game.lower_scores_win)
    if not void:
        events += _award(conn, row, facts, seats, subjects, moment, game.name)
    if rated:
        events += _place(conn, facts, subjects, moment, season_of(moment, season_months).id, game)
    events += _unlock(conn, facts, subjects, moment)
    return events


def match_facts(conn: Connection, row: dict[str, Any]) -> tuple[Any, Any, list[str]]:
    """The game, its facts seat by seat (the one replay of the stored steps) and each seat's
    subject, for a finished match row: what counting a match and recounting it (``voiding``)
    both start from. Raises ``LookupError``, ``ReplayError`` or ``ValueError`` for a match
    that cannot be read."""
    seats: list[dict[str, Any]] = list(row["seats"] or [])
    game = get_game(row.get("game") or "skip")
    options = game.options_from_json(row["options"])
    subjects = [subject_of(seats[s] if s < len(seats) else {}) for s in range(options.players)]
    facts = game.analyse(
        options,
        row["seed"],
        repo.steps_of(repo.match_moves(conn, row["id"])),
        ranked=game.is_ranked(options) and not repo.is_casual_table(conn, row["table_id"]),
        seats=seats,
    )
    return game, facts, subjects


def entrants_of(facts: Any, subjects: list[str], lower_scores_win: bool) -> list[ratings.Entrant]:
    """The match's seats as the ratings see them: side, score (the better the higher) and
    whether the seat forfeited."""
    sign = -1 if lower_scores_win else 1  # ratings rank the higher score first
    entrants = []
    for f in facts.seats:
        side = min(f.side) if f.side else f.seat
        forfeited = bool(getattr(f, "forfeited", False))
        entrants.append(ratings.Entrant(subjects[f.seat], side, sign * f.points, forfeited))
    return entrants


def _place(
    conn: Connection,
    facts: Any,
    subjects: list[str],
    moment: datetime,
    season_id: str,
    game: Any,
) -> list[dict[str, Any]]:
    """Players whose placement matches are now played get their division for the season."""
    events = []
    for f in facts.seats:
        player = subjects[f.seat]
        if not player.startswith("p_"):
            continue
        before = divisions.place_of(conn, season_id, player, game.name, facts.mode)
        after = divisions.place_if_ready(conn, season_id, player, game.name, facts.mode, moment)
        if before is None and after is not None:
            badge = divisions.BY_ID[after].to_json()
            events.append(_event("division", f.seat, mode=facts.mode, division=badge))
    return events


def _unlock(
    conn: Connection, facts: Any, subjects: list[str], moment: datetime
) -> list[dict[str, Any]]:
    """Card backs and themes the match's achievements or placements unlocked."""
    events = []
    for f in facts.seats:
        player = subjects[f.seat]
        if player.startswith("p_"):
            for reward in rewards.unlock_earned(conn, player, moment):
                events.append(_event("unlock", f.seat, item=reward.to_json()))
    return events


def unrated_matches(conn: Connection) -> list[str]:
    """Finished matches with no results yet: counted by nobody because a process stopped
    between storing the final move and counting the match."""
    counted = select(Result.match_id).distinct()
    query = select(MatchRow.id).where(MatchRow.status == "finished", MatchRow.id.not_in(counted))
    return [r.id for r in conn.execute(query.order_by(MatchRow.finished_at))]


def _store_results(
    conn: Connection,
    row: dict[str, Any],
    facts: Any,
    subjects: list[str],
    moment: datetime,
    unrated: str | None,
) -> None:
    conn.execute(
        insert(Result),
        [
            {
                "match_id": row["id"],
                "seat": f.seat,
                "subject": subjects[f.seat],
                "table_id": row["table_id"],
                "game": row.get("game") or "skip",
                "mode": f.mode,
                "ranked": f.ranked,
                "players": f.players,
                "won": f.won,
                "points": f.points,
                "rounds": f.rounds,
                "rounds_won": f.rounds_won,
                "turns": f.turns,
                # Skip's own column (stock cards played); games without stocks store 0
                "stock_played": getattr(f, "stock_played", 0),
                "best_round": f.best_round if f.best_round is not None else 0,
                "finished_at": moment,
                "forfeited": bool(getattr(f, "forfeited", False)),
                "unrated": unrated,
            }
            for f in facts.seats
        ],
    )


def _rate(
    conn: Connection,
    row: dict[str, Any],
    facts: Any,
    subjects: list[str],
    moment: datetime,
    lower_scores_win: bool,
) -> list[dict[str, Any]]:
    changes = ratings.update_match(
        conn,
        entrants_of(facts, subjects, lower_scores_win),
        game=row.get("game") or "skip",
        mode=facts.mode,
        match_id=row["id"],
        table_id=row["table_id"],
        now=moment,
    )
    events = []
    for f in facts.seats:
        change = changes.get(subjects[f.seat])
        if change is None or not subjects[f.seat].startswith("p_"):
            continue
        before, after = change
        events.append(
            _event(
                "rating",
                f.seat,
                mode=facts.mode,
                before=round(before.ordinal, 2),
                after=round(after.ordinal, 2),
            )
        )
    return events


def _award(
    conn: Connection,
    row: dict[str, Any],
    facts: Any,
    seats: list[dict[str, Any]],
    subjects: list[str],
    moment: datetime,
    game: str,
) -> list[dict[str, Any]]:
    events = []
    for f in facts.seats:
        subject = subjects[f.seat]
        if not (f.seat < len(seats) and seats[f.seat].get("player_id")):
            continue  # bots collect ratings, not achievements
        counts = conn.execute(
            select(func.count(), func.coalesce(func.sum(cast(Result.won, Integer)), 0)).where(
                Result.subject == subject
            )
        ).one()
        f.career_matches, f.career_wins = int(counts[0]), int(counts[1])
        won = achievements.award(conn, subject, f, row["id"], row["table_id"], moment, game)
        for a in won:
            player = {"id": subject, "name": seats[f.seat].get("name")}
            events.append(_event("achievement", f.seat, player=player, achievement=a.to_json()))
    return events


def _event(kind: str, seat: int | None, **detail: Any) -> dict[str, Any]:
    """A table event in the protocol's shape (``server.protocol.table_event``)."""
    return {"kind": kind, "seat": seat, "detail": detail}
