"""The one hook the server calls: a match has finished, so rate it, count it, award it.

``on_match_finished`` runs inside the transaction that stores the final move (the server's
journal), so a match is counted exactly once or not at all. It returns the table events to
announce (achievements, rating changes); ``announce_into`` wraps it for the table's event list.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Integer, cast, func, insert, select

from cardroom.games.skip import Options
from cardroom.league import achievements, ratings, seasons
from cardroom.league.facts import MatchFacts, RecordError, analyse, steps_of_rows
from cardroom.league.models import Result, bot_subject
from cardroom.league.periods import as_utc, system_clock
from cardroom.store import repository as repo

log = logging.getLogger(__name__)


def is_ranked(options: Options) -> bool:
    """Ranked tables play the standard rules with assist off; everything else is casual."""
    return options.players >= 2 and options.ranked_standard


def subject_of(seat: dict[str, Any]) -> str:
    """Who played a match seat (``match_seat_json`` of the server): a player or a bot level."""
    if seat.get("player_id"):
        return str(seat["player_id"])
    return bot_subject(str(seat.get("bot") or "unknown"))


def on_match_finished(
    conn: Connection, match_id: str, *, now: datetime | None = None, season_months: int = 1
) -> list[dict[str, Any]]:
    """Rate, record and award a finished match once; the events the table should announce.

    Never raises for a match it cannot read: a league problem must not lose the final move.
    """
    row = repo.get_match(conn, match_id)
    if row is None or row["status"] != "finished":
        return []
    if conn.scalar(select(func.count()).where(Result.match_id == match_id)):
        return []  # already counted
    seats: list[dict[str, Any]] = list(row["seats"] or [])
    try:
        options = Options.from_json(row["options"])
        facts = analyse(
            options,
            row["seed"],
            steps_of_rows(repo.match_moves(conn, match_id)),
            ranked=is_ranked(options),
            seats=seats,
        )
    except (RecordError, ValueError) as error:
        log.error("league: match %s cannot be analysed: %s", match_id, error)
        return []
    moment = as_utc(now or row["finished_at"] or system_clock())
    seasons.roll_over(conn, moment, season_months)
    subjects = [subject_of(seats[s] if s < len(seats) else {}) for s in range(options.players)]
    _store_results(conn, row, facts, subjects, moment)
    events: list[dict[str, Any]] = []
    if facts.seats[0].ranked:
        events += _rate(conn, row, facts, subjects, moment)
    events += _award(conn, row, facts, seats, subjects, moment)
    return events


def announce_into(match_id: str, events: list[dict[str, Any]]) -> Callable[[Connection], None]:
    """A journal operation that puts the announcements at the end of ``events``.

    It replaces rather than appends, so a journal retry (which re-runs the operation in a new
    transaction) cannot announce twice.
    """
    mark = len(events)

    def operation(conn: Connection) -> None:
        events[mark:] = on_match_finished(conn, match_id)

    return operation


def _store_results(
    conn: Connection,
    row: dict[str, Any],
    facts: MatchFacts,
    subjects: list[str],
    moment: datetime,
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
                "stock_played": f.stock_played,
                "best_round": f.best_round,
                "finished_at": moment,
            }
            for f in facts.seats
        ],
    )


def _rate(
    conn: Connection,
    row: dict[str, Any],
    facts: MatchFacts,
    subjects: list[str],
    moment: datetime,
) -> list[dict[str, Any]]:
    entrants = []
    for f in facts.seats:
        entrants.append(ratings.Entrant(subjects[f.seat], min(f.side), f.points))
    changes = ratings.update_match(
        conn,
        entrants,
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
    facts: MatchFacts,
    seats: list[dict[str, Any]],
    subjects: list[str],
    moment: datetime,
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
        for a in achievements.award(conn, subject, f, row["id"], row["table_id"], moment):
            player = {"id": subject, "name": seats[f.seat].get("name")}
            events.append(_event("achievement", f.seat, player=player, achievement=a.to_json()))
    return events


def _event(kind: str, seat: int | None, **detail: Any) -> dict[str, Any]:
    """A table event in the protocol's shape (``server.protocol.table_event``)."""
    return {"kind": kind, "seat": seat, "detail": detail}
