"""The attempts in the database: registering one (the scored one first, once), storing each
move over the one before it, and reading the day's board, a player's streak and history.

The board follows the ladder's rules (docs/league.md): only claimed accounts appear (a guest
plays, unranked), an account marked as cheating or banned from ranked play is left out, and
of accounts seen on one address or device (``ladder.linked_pairs``) only the one that
finished first stands.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from cardroom.daily.models import DailyAttempt
from cardroom.games.daily import Outcome
from cardroom.league import fairplay
from cardroom.league.ladder import LadderRules, linked_pairs
from cardroom.league.models import Account
from cardroom.moderation.sanctions import rank_bar
from cardroom.store.models import Player

PRACTICE_A_DAY = 50  # practice attempts one player may start per UTC day
BOARD_SIZE = 100
HISTORY_SIZE = 60
PLAYING, FINISHED = "playing", "finished"
TABLE = DailyAttempt.__table__


class AttemptError(Exception):
    """A request about attempts refused: an HTTP status, a stable code and the words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True, slots=True)
class Attempt:
    id: str
    player_id: str
    game: str
    day: date
    scored: bool
    moves: list[dict[str, Any]]
    seq: int
    status: str
    result: int | None
    place: int | None
    marks: str | None
    words: str | None
    started_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def summary_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "day": self.day.isoformat(),
            "scored": self.scored,
            "status": self.status,
            "moves": self.seq,
            "result": self.result,
            "place": self.place,
            "words": self.words,
            "marks": self.marks if self.finished else None,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


def _attempt(row: Any) -> Attempt:
    return Attempt(
        id=row.id,
        player_id=row.player_id,
        game=row.game,
        day=date.fromisoformat(row.day),
        scored=bool(row.scored),
        moves=json.loads(row.moves),
        seq=row.seq,
        status=row.status,
        result=row.result,
        place=row.place,
        marks=row.marks,
        words=row.words,
        started_at=_utc(row.started_at),
        finished_at=_utc(row.finished_at) if row.finished_at else None,
    )


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def scored_key(player_id: str, game: str, day: date) -> str:
    return f"{player_id}/{game}/{day.isoformat()}"


def get(conn: Connection, attempt_id: str) -> Attempt | None:
    row = conn.execute(select(TABLE).where(DailyAttempt.id == attempt_id)).first()
    return _attempt(row) if row else None


def scored_attempt(conn: Connection, player_id: str, game: str, day: date) -> Attempt | None:
    key = scored_key(player_id, game, day)
    row = conn.execute(select(TABLE).where(DailyAttempt.scored_key == key)).first()
    return _attempt(row) if row else None


def register(
    conn: Connection, player_id: str, game: str, day: date, today: date, now: datetime
) -> tuple[Attempt, bool]:
    """The attempt a player gets on asking to play ``game``'s deal of ``day``: today's scored
    one, made on the first ask and handed back on every later one (two tabs, two processes:
    the unique key decides), until it is finished; then, and on a past day, a new practice
    one. Returns the attempt and whether it was made now."""
    if day == today:
        key = scored_key(player_id, game, day)
        values = _new_row(player_id, game, day, True, key, now)
        dialect = conn.dialect.name
        maker = pg_insert if dialect == "postgresql" else sqlite_insert
        done = conn.execute(
            maker(DailyAttempt)
            .values(**values)
            .on_conflict_do_nothing(index_elements=["scored_key"])
            .returning(DailyAttempt.id)
        )
        made = done.first() is not None  # (psycopg's rowcount here is -1)
        attempt = scored_attempt(conn, player_id, game, day)
        assert attempt is not None  # inserted now, or by whoever asked first
        if made or not attempt.finished:
            return attempt, made
    started = conn.scalar(
        select(func.count())
        .select_from(DailyAttempt)
        .where(
            DailyAttempt.player_id == player_id,
            DailyAttempt.scored.is_(False),
            DailyAttempt.started_at >= datetime.combine(today, datetime.min.time(), UTC),
        )
    )
    if (started or 0) >= PRACTICE_A_DAY:
        raise AttemptError(
            429, "too_many_attempts", f"at most {PRACTICE_A_DAY} practice rounds a day"
        )
    values = _new_row(player_id, game, day, False, None, now)
    conn.execute(insert(DailyAttempt).values(**values))
    attempt = get(conn, values["id"])
    assert attempt is not None
    return attempt, True


def _new_row(
    player_id: str, game: str, day: date, scored: bool, key: str | None, now: datetime
) -> dict[str, Any]:
    return {
        "id": "d_" + secrets.token_urlsafe(15),
        "player_id": player_id,
        "game": game,
        "day": day.isoformat(),
        "scored": scored,
        "scored_key": key,
        "moves": "[]",
        "seq": 0,
        "status": PLAYING,
        "started_at": now,
    }


def store_moves(
    conn: Connection,
    attempt_id: str,
    seq: int,
    moves: Sequence[Mapping[str, Any]],
    outcome: Outcome | None,
    marks: str | None,
    now: datetime,
) -> bool:
    """Store the attempt's moves over ``seq`` (the count they were played on); with an
    outcome, the attempt is finished. False: another tab or process stored first."""
    values: dict[str, Any] = {"moves": json.dumps(list(moves)), "seq": len(moves)}
    if outcome is not None:
        values |= {
            "status": FINISHED,
            "result": outcome.result,
            "place": outcome.place,
            "words": outcome.words[:200],
            "marks": (marks or "")[:2000],
            "finished_at": now,
        }
    done = conn.execute(
        update(DailyAttempt)
        .where(
            DailyAttempt.id == attempt_id,
            DailyAttempt.seq == seq,
            DailyAttempt.status == PLAYING,
        )
        .values(**values)
    )
    return done.rowcount == 1


# -- what is shown -----------------------------------------------------------------------------


def board(
    conn: Connection, game: str, day: date, now: datetime, rules: LadderRules | None = None
) -> list[dict[str, Any]]:
    """The day's board: finished scored attempts of claimed accounts, the lowest result
    first (a failed challenge last), the earlier finish first among equals."""
    rows = conn.execute(
        select(TABLE, Player.name)
        .join(Player, Player.id == DailyAttempt.player_id)
        .join(Account, Account.player_id == DailyAttempt.player_id)
        .where(
            DailyAttempt.game == game,
            DailyAttempt.day == day.isoformat(),
            DailyAttempt.scored.is_(True),
            DailyAttempt.status == FINISHED,
            fairplay.shown(DailyAttempt.player_id),
        )
        .order_by(
            DailyAttempt.result.is_(None),
            DailyAttempt.result,
            DailyAttempt.finished_at,
            DailyAttempt.id,
        )
    ).all()
    attempts = [(_attempt(r), r.name) for r in rows]
    players = [a.player_id for a, _ in attempts]
    linked = linked_pairs(conn, players, now, rules or LadderRules())
    kept: list[tuple[Attempt, str]] = []
    seen: set[str] = set()
    for attempt, name in attempts:
        if rank_bar(conn, attempt.player_id, now) is not None:
            continue
        if any(frozenset((attempt.player_id, other)) in linked for other in seen):
            continue  # a second account of someone already on the board
        seen.add(attempt.player_id)
        kept.append((attempt, name))
        if len(kept) >= BOARD_SIZE:
            break
    out: list[dict[str, Any]] = []
    for attempt, name in kept:
        ahead = sum(1 for a, _ in kept if _better(a, attempt))
        out.append(
            {
                "rank": ahead + 1,
                "name": name,
                "player": attempt.player_id,
                "attempt": attempt.id,
                "result": attempt.result,
                "place": attempt.place,
                "marks": attempt.marks,
            }
        )
    return out


def _better(a: Attempt, b: Attempt) -> bool:
    if a.result is None:
        return False
    return b.result is None or a.result < b.result


def history(conn: Connection, player_id: str, game: str | None = None) -> list[Attempt]:
    """The player's scored attempts, the latest day first."""
    query = select(TABLE).where(DailyAttempt.player_id == player_id, DailyAttempt.scored.is_(True))
    if game is not None:
        query = query.where(DailyAttempt.game == game)
    rows = conn.execute(query.order_by(DailyAttempt.day.desc()).limit(HISTORY_SIZE)).all()
    return [_attempt(r) for r in rows]


def streak(attempts: Sequence[Attempt], today: date) -> dict[str, int]:
    """Days in a row with a finished scored attempt: the current run (alive while today's or
    yesterday's is finished) and the best run, from one game's history."""
    days = sorted({a.day for a in attempts if a.finished})
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and (today - previous).days <= 1 else 0
    return {"current": current, "best": best, "played": len(days)}


def finished_scored(conn: Connection, player_id: str, game: str, day: date) -> bool:
    attempt = scored_attempt(conn, player_id, game, day)
    return attempt is not None and attempt.finished
