"""The fair-play facts every reader of the league honours (docs/league.md, "Fair play").

A *void* makes a match's results stop counting (off the boards, out of careers, its ratings
recomputed by ``voiding``); a *cheat mark* voids every result of an account and hides it from
every board. This module only reads and writes those rows; ``voiding`` recomputes what
depends on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, insert, select

from cardroom.league.models import CheatMark, Void
from cardroom.league.periods import as_utc

# The ``unrated`` table event of a match counted while one of its players is marked.
VOIDED_AT_COUNTING = {
    "reason": "voided",
    "players": [],
    "message": "not rated: a player's results are void (fair play)",
}


def voided_ids() -> Select[str]:
    """The ids of the void matches, as a subquery for ``NOT IN`` filters."""
    return select(Void.match_id).distinct()


def marked_ids() -> Select[str]:
    """The ids of the accounts marked as cheating, as a subquery for ``NOT IN`` filters."""
    return select(CheatMark.player_id)


def counts(match_id: Any) -> ColumnElement[bool]:
    """A filter: the match is not void (its results count)."""
    return match_id.not_in(voided_ids())


def shown(subject: Any) -> ColumnElement[bool]:
    """A filter: the subject is not marked as cheating (it may appear on boards)."""
    return subject.not_in(marked_ids())


def is_void(conn: Connection, match_id: str) -> bool:
    return conn.scalar(select(Void.match_id).where(Void.match_id == match_id).limit(1)) is not None


def void_sources(conn: Connection, match_id: str) -> list[str]:
    """Who voided the match: ``moderator`` and/or the marked players' ids."""
    return list(conn.scalars(select(Void.source).where(Void.match_id == match_id)))


def voided_among(conn: Connection, match_ids: Iterable[str]) -> set[str]:
    ids = list(set(match_ids))
    if not ids:
        return set()
    return set(conn.scalars(select(Void.match_id).where(Void.match_id.in_(ids))))


def mark_of(conn: Connection, player_id: str) -> dict[str, Any] | None:
    """The account's cheat mark (``{"reason", "marked_at"}``), or None."""
    row = conn.execute(
        select(CheatMark.reason, CheatMark.marked_at).where(CheatMark.player_id == player_id)
    ).first()
    if row is None:
        return None
    return {"reason": row.reason, "marked_at": as_utc(row.marked_at).isoformat()}


def marked_among(conn: Connection, subjects: Iterable[str]) -> list[str]:
    people = sorted({s for s in subjects if s.startswith("p_")})
    if not people:
        return []
    return sorted(conn.scalars(select(CheatMark.player_id).where(CheatMark.player_id.in_(people))))


def add_voids(
    conn: Connection, match_ids: Iterable[str], source: str, reason: str, now: datetime
) -> None:
    """Void each match for ``source`` (a match already void for that source is left alone)."""
    ids = sorted(set(match_ids))
    have = set(
        conn.scalars(select(Void.match_id).where(Void.match_id.in_(ids), Void.source == source))
    )
    rows = [
        {"match_id": m, "source": source, "reason": reason[:500], "voided_at": as_utc(now)}
        for m in ids
        if m not in have
    ]
    if rows:
        conn.execute(insert(Void), rows)


def void_if_marked(conn: Connection, match_id: str, subjects: Iterable[str], now: datetime) -> bool:
    """At counting: void a match that seats a marked account (one row per marked player, so
    lifting one mark leaves the match void while another stands). Whether it did."""
    marked = marked_among(conn, subjects)
    for player in marked:
        add_voids(conn, [match_id], player, "the account is marked as cheating", now)
    return bool(marked)
