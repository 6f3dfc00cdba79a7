"""A process that lost a table can never store for it again (issue "Fair and hard to break"):
taking a table over bumps its epoch, and every write of a table is fenced with the epoch its
writer holds; a stale write is refused whole, and the writes sharing its commit still land."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import Engine, func, select

from cardroom.store import repository as repo
from cardroom.store.journal import Fence, Journal, StaleWriter
from cardroom.store.models import Move, Table
from cardroom.tables.audience import action_key


def _table(conn, table_id: str) -> None:
    repo.insert_player(conn, f"p_{table_id}", "Ada")
    table = {
        "id": table_id,
        "public": True,
        "owner_id": f"p_{table_id}",
        "options": {},
        "abandon_after": 300.0,
        "status": "playing",
        "match_id": f"m_{table_id}",
    }
    repo.insert_table(conn, table, [])
    match = {
        "id": f"m_{table_id}",
        "table_id": table_id,
        "options": {},
        "seed": "s",
        "seats": [],
        "status": "playing",
    }
    repo.insert_match(conn, match)


def _move(table_id: str, number: int, epoch: int) -> list:
    step = repo.move_row(
        f"m_{table_id}", number, 1, "action", 0, {"type": "pass"}, action_key("p", "a1")
    )
    return [Fence(table_id, epoch), step]


def _moves(engine: Engine, table_id: str) -> int:
    with engine.connect() as conn:
        query = select(func.count()).select_from(Move).where(Move.match_id == f"m_{table_id}")
        return conn.execute(query).scalar_one()


async def _fenced(engine: Engine) -> None:
    journal = Journal(engine)
    try:
        await journal.run(lambda c: (_table(c, "t_a"), _table(c, "t_b")))
        await journal.write(_move("t_a", 1, 0))  # the writer holds epoch 0: stored
        assert _moves(engine, "t_a") == 1
        # Another process takes t_a over: the epoch goes up, and it reads the move stored.
        rows = await journal.run(lambda c: repo.take_over(c, ["t_a"]))
        assert rows[0]["epoch"] == 1
        assert rows[0]["match"]["moves"][0]["sent_by"] == action_key("p", "a1")
        # The old owner writes again, in one commit with another table's write: refused
        # alone, whole; the other table's move is stored.
        stale = journal.write(_move("t_a", 2, 0))
        other = journal.write(_move("t_b", 1, 0))
        results = await asyncio.gather(stale, other, return_exceptions=True)
        assert isinstance(results[0], StaleWriter) and results[1] is None
        assert _moves(engine, "t_a") == 1 and _moves(engine, "t_b") == 1
        await journal.write(_move("t_a", 2, 1))  # the new owner writes: stored
        assert _moves(engine, "t_a") == 2
        with engine.connect() as conn:
            assert conn.execute(select(Table.epoch).where(Table.id == "t_a")).scalar_one() == 1
    finally:
        journal.close()


def test_a_stale_owner_cannot_store_a_move(engine: Engine) -> None:
    asyncio.run(_fenced(engine))


@pytest.mark.parametrize("engine", ["sqlite"], indirect=True)
def test_a_take_over_of_no_table_reads_nothing(engine: Engine) -> None:
    with engine.begin() as conn:
        assert repo.take_over(conn, []) == []
        assert repo.take_over(conn, ["t_none"]) == []


async def _seqs(engine: Engine) -> list[int]:
    journal = Journal(engine)
    seqs = []
    try:
        await journal.run(lambda c: _table(c, "t_s"))
        for seq in (5, 3, 9):  # a late background write never lowers the stored seq
            await journal.write([Fence("t_s", 0, seq)])
            with engine.connect() as conn:
                seqs.append(conn.execute(select(Table.seq).where(Table.id == "t_s")).scalar_one())
        stale = journal.write([Fence("t_s", 7, 20)])
        results = await asyncio.gather(stale, return_exceptions=True)
        assert isinstance(results[0], StaleWriter)
        with engine.connect() as conn:
            seqs.append(conn.execute(select(Table.seq).where(Table.id == "t_s")).scalar_one())
    finally:
        journal.close()
    return seqs


def test_every_write_stores_the_tables_seq_with_its_fence_and_never_lowers_it(
    engine: Engine,
) -> None:
    assert asyncio.run(_seqs(engine)) == [5, 5, 9, 9]
