"""Kept games in the database: rows in and out as plain dicts, like ``repository.py``.

The kept game itself is stored as its versioned JSON (``cardroom.keeper.to_json``), so what the
keeper refuses in a file it refuses here too when the row is read back. ``lock`` reads a row
for update (PostgreSQL: other processes' changes to that game wait their turn; SQLite has one
writer anyway), so reading, checking and writing a change is one step.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from cardroom.store.models import KeptEntry, KeptGame, Player

_GAMES = KeptGame.__table__


def _with_owner() -> Any:
    return select(_GAMES, Player.name.label("owner_name")).join(
        Player, Player.id == KeptGame.owner_id
    )


def _row(row: Any) -> dict[str, Any] | None:
    return dict(row._mapping) if row is not None else None


def insert_game(conn: Connection, row: dict[str, Any], entry: str | None) -> dict[str, Any]:
    """A new kept game at revision 1; ``entry`` is the device's id for its creation."""
    conn.execute(insert(KeptGame).values(**row, create_entry=entry))
    found = get_game(conn, row["id"])
    assert found is not None
    return found


def get_game(conn: Connection, game_id: str, *, lock: bool = False) -> dict[str, Any] | None:
    query = _with_owner().where(KeptGame.id == game_id)
    if lock:
        query = query.with_for_update(of=KeptGame)
    return _row(conn.execute(query).first())


def game_by_code(conn: Connection, code: str) -> dict[str, Any] | None:
    return _row(conn.execute(_with_owner().where(KeptGame.code == code)).first())


def game_created_by(conn: Connection, owner_id: str, entry: str) -> dict[str, Any] | None:
    """The game an owner's device created with this entry id, if it was created already."""
    query = _with_owner().where(KeptGame.owner_id == owner_id, KeptGame.create_entry == entry)
    return _row(conn.execute(query).first())


def code_taken(conn: Connection, code: str) -> bool:
    # A count is one row, always: scalar_one, never None.
    return conn.execute(select(func.count()).where(KeptGame.code == code)).scalar_one() > 0


def games_owned(conn: Connection, owner_id: str) -> int:
    return conn.scalar(select(func.count()).where(KeptGame.owner_id == owner_id)) or 0


def games_of(conn: Connection, owner_id: str) -> list[dict[str, Any]]:
    """An owner's kept games, the most recently changed first."""
    query = (
        _with_owner()
        .where(KeptGame.owner_id == owner_id)
        .order_by(KeptGame.updated_at.desc(), KeptGame.id)
    )
    return [dict(r._mapping) for r in conn.execute(query)]


def entry_applied(conn: Connection, game_id: str, entry: str) -> bool:
    query = select(func.count()).where(KeptEntry.game_id == game_id, KeptEntry.entry == entry)
    return conn.execute(query).scalar_one() > 0


def save_change(
    conn: Connection,
    game_id: str,
    *,
    data: dict[str, Any],
    status: str,
    revision: int,
    entry: str | None,
    kind: str,
    now: datetime,
) -> None:
    """The game after a change, at ``revision``; the entry id is kept so it applies once."""
    conn.execute(
        update(KeptGame)
        .where(KeptGame.id == game_id)
        .values(data=data, status=status, revision=revision, updated_at=now)
    )
    if entry is not None:
        conn.execute(
            insert(KeptEntry).values(
                game_id=game_id, entry=entry, kind=kind, revision=revision, created_at=now
            )
        )


def delete_game(conn: Connection, game_id: str) -> None:
    conn.execute(delete(KeptEntry).where(KeptEntry.game_id == game_id))
    conn.execute(delete(KeptGame).where(KeptGame.id == game_id))
