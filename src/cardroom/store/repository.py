"""Reading and writing rows: small functions over a ``Connection``, run by the journal.

Plain dicts go in and out, so the server never holds ORM objects across threads.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlalchemy import Table as CoreTable

from cardroom.games.base import ACTION, Step
from cardroom.store.journal import Statement
from cardroom.store.models import Base, Match, Move, Player, Seat, Table, utcnow

OPEN_STATUSES = ("waiting", "playing", "finished")


def _core(model: type[Base]) -> CoreTable:
    # A model declared with __tablename__ maps a Table, which SQLAlchemy's types call a FromClause.
    return cast(CoreTable, model.__table__)


# Plain Core statements, built once: the per-move writes are the hot path, and ORM-enabled
# statements cost several times more Python per execution.
_TABLES = _core(Table)
_MATCHES = _core(Match)
_INSERT_MOVE = insert(_core(Move))
_UPDATE_TABLE = update(_TABLES).where(_TABLES.c.id == bindparam("table_key"))
_UPDATE_MATCH = update(_MATCHES).where(_MATCHES.c.id == bindparam("match_key"))


def _row(row: Any) -> dict[str, Any] | None:
    return dict(row._mapping) if row is not None else None


# -- players -------------------------------------------------------------------------------------


def insert_player(conn: Connection, player_id: str, name: str) -> dict[str, Any]:
    created = utcnow()
    conn.execute(insert(Player).values(id=player_id, name=name, created_at=created))
    return {"id": player_id, "name": name, "created_at": created}


def rename_player(conn: Connection, player_id: str, name: str) -> bool:
    """A new display name for a player; False when there is no such player."""
    done = conn.execute(update(Player).where(Player.id == player_id).values(name=name))
    return done.rowcount > 0


def set_language(conn: Connection, player_id: str, language: str | None) -> bool:
    """The language a player reads Cardroom in (None: the browser's); False: no such player."""
    done = conn.execute(update(Player).where(Player.id == player_id).values(language=language))
    return done.rowcount > 0


def language_of(conn: Connection, player_id: str) -> str | None:
    return conn.execute(select(Player.language).where(Player.id == player_id)).scalar()


def get_player(conn: Connection, player_id: str) -> dict[str, Any] | None:
    return _row(conn.execute(select(Player.__table__).where(Player.id == player_id)).first())


def token_holder(conn: Connection, player_id: str) -> tuple[str, int] | None:
    """(name, token generation) of a player: what a token is checked against."""
    row = conn.execute(
        select(Player.name, Player.token_generation).where(Player.id == player_id)
    ).first()
    return (row[0], row[1]) if row is not None else None


def next_token_generation(conn: Connection, player_id: str) -> int:
    """Void every token of the player issued so far; the generation new ones are issued in."""
    generation = Player.token_generation
    conn.execute(update(Player).where(Player.id == player_id).values({generation: generation + 1}))
    return conn.scalar(select(generation).where(Player.id == player_id)) or 0


# -- tables and seats ----------------------------------------------------------------------------


def insert_table(conn: Connection, table: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    conn.execute(insert(Table).values(**table))
    if seats:
        conn.execute(insert(Seat), [{"table_id": table["id"], **seat} for seat in seats])


def is_casual_table(conn: Connection, table_id: str) -> bool:
    """Whether the table was made never to be ranked (the ranked queue's bot match)."""
    return bool(conn.execute(select(_TABLES.c.casual).where(_TABLES.c.id == table_id)).scalar())


def is_public_table(conn: Connection, table_id: str) -> bool:
    """Whether a table is listed for everyone (a private one, or none, is not)."""
    return bool(conn.execute(select(_TABLES.c.public).where(_TABLES.c.id == table_id)).scalar())


def update_table(conn: Connection, table_id: str, **fields: Any) -> None:
    conn.execute(_UPDATE_TABLE, {"table_key": table_id, **fields})


def table_update(table_id: str, **fields: Any) -> Statement:
    """``update_table`` as a batchable journal step (the per-move hot path)."""
    return Statement(_UPDATE_TABLE, {"table_key": table_id, **fields})


def replace_seats(conn: Connection, table_id: str, seats: list[dict[str, Any]]) -> None:
    conn.execute(delete(Seat).where(Seat.table_id == table_id))
    if seats:
        conn.execute(insert(Seat), [{"table_id": table_id, **seat} for seat in seats])


def open_table_ids(conn: Connection) -> list[str]:
    """The ids of the open tables (several processes: the ones some process should run)."""
    query = select(Table.id).where(Table.status.in_(OPEN_STATUSES)).order_by(Table.created_at)
    return [r.id for r in conn.execute(query)]


def take_over(conn: Connection, table_ids: list[str]) -> list[dict[str, Any]]:
    """Take these open tables over: bump each one's epoch (fencing out whoever ran it before:
    ``journal.Fence``), then read them, all in one transaction, so nothing the previous owner
    stored is missed and nothing it stores later is accepted."""
    if not table_ids:
        return []
    conn.execute(
        update(Table)
        .where(Table.id.in_(table_ids), Table.status.in_(OPEN_STATUSES))
        .values(epoch=Table.epoch + 1)
    )
    return open_tables(conn, only=table_ids)


def open_tables(conn: Connection, only: list[str] | None = None) -> list[dict[str, Any]]:
    """Every table that was open when the server stopped (or those of ``only`` still open),
    with seats, match and moves."""
    query = select(Table.__table__).where(Table.status.in_(OPEN_STATUSES))
    if only is not None:
        query = query.where(Table.id.in_(only))
    tables = [dict(r._mapping) for r in conn.execute(query.order_by(Table.created_at))]
    if not tables:
        return []
    ids = [t["id"] for t in tables]
    seats: dict[str, list[dict[str, Any]]] = {}
    for r in conn.execute(
        select(Seat.__table__).where(Seat.table_id.in_(ids)).order_by(Seat.number)
    ):
        seats.setdefault(r.table_id, []).append(dict(r._mapping))
    player_ids = {s["player_id"] for rows in seats.values() for s in rows if s["player_id"]}
    player_ids |= {t["owner_id"] for t in tables}
    names = {
        r.id: r.name
        for r in conn.execute(select(Player.id, Player.name).where(Player.id.in_(player_ids)))
    }
    for table in tables:
        table["seats"] = seats.get(table["id"], [])
        table["owner_name"] = names.get(table["owner_id"], "?")
        for seat in table["seats"]:
            seat["player_name"] = names.get(seat["player_id"]) if seat["player_id"] else None
        table["match"] = None
        if table["match_id"]:
            table["match"] = get_match(conn, table["match_id"])
            if table["match"] is not None:
                table["match"]["moves"] = match_moves(conn, table["match_id"])
    return tables


# -- matches and moves ---------------------------------------------------------------------------


def insert_match(conn: Connection, match: dict[str, Any]) -> None:
    conn.execute(insert(Match).values(**match))


def update_match(conn: Connection, match_id: str, **fields: Any) -> None:
    conn.execute(_UPDATE_MATCH, {"match_key": match_id, **fields})


def insert_move(
    conn: Connection,
    match_id: str,
    number: int,
    round_number: int,
    kind: str,
    seat: int | None,
    action: dict[str, Any] | None,
    sent_by: bytes | None = None,
) -> None:
    step = move_row(match_id, number, round_number, kind, seat, action, sent_by)
    conn.execute(step.statement, step.params)


def move_row(
    match_id: str,
    number: int,
    round_number: int,
    kind: str,
    seat: int | None,
    action: dict[str, Any] | None,
    sent_by: bytes | None = None,
) -> Statement:
    """One stored move as a batchable journal step: moves of many tables share an insert.
    ``sent_by``: the key of a move sent by a client (``audience.action_key``), for
    exactly-once. Stored compactly (``Move``): a seat's action has no ``kind``."""
    return Statement(
        _INSERT_MOVE,
        {
            "match_id": match_id,
            "number": number,
            "round": round_number,
            "kind": None if kind == ACTION else kind,
            "seat": seat,
            "action": action,
            "sent_by": sent_by,
        },
    )


def get_match(conn: Connection, match_id: str) -> dict[str, Any] | None:
    return _row(conn.execute(select(Match.__table__).where(Match.id == match_id)).first())


def match_moves(conn: Connection, match_id: str) -> list[dict[str, Any]]:
    """A match's stored steps in order: number, round, kind, seat, action (its JSON) and
    ``sent_by`` (the key of who sent it, or None)."""
    rows = conn.execute(
        select(Move.number, Move.round, Move.kind, Move.seat, Move.action, Move.sent_by)
        .where(Move.match_id == match_id)
        .order_by(Move.number)
    )
    return [
        {
            "number": r.number,
            "round": r.round,
            "kind": r.kind or ACTION,
            "seat": r.seat,
            "action": r.action,
            "sent_by": bytes(r.sent_by) if r.sent_by is not None else None,
        }
        for r in rows
    ]


def steps_of(moves: list[dict[str, Any]]) -> list[Step]:
    """Stored move rows as the steps of the game's replay (``games.base.replay``)."""
    return [Step(m["kind"], m.get("seat"), m.get("action")) for m in moves]


def iso(moment: datetime | None) -> str | None:
    """Timestamps as ISO 8601 UTC (SQLite gives them back without a zone)."""
    if moment is None:
        return None
    text = moment.isoformat()
    return text if moment.tzinfo is not None else text + "+00:00"
