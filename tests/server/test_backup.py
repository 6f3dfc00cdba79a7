"""Backups an operator can trust: ``cardroom backup`` taken while a match is played, restored
into a new database, brings the match back on a second server at the backup's last confirmed
move, to be played on from there."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    CARDROOM,
    TIMEOUT,
    Person,
    PostgresDatabase,
    Server,
    choose,
    play_confirmed,
    play_until_over,
    reconnect_where_they_were,
    two_at_one_table,
)

from cardroom.games.skip import replay

# Stocks of 10: no game ends within the moves played before the backup and after it.
OPTIONS = {"stock_size": 10, "match_target": None, "deal": {"first": 0}}


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command, as an operator runs it."""
    return subprocess.run(
        [str(CARDROOM), *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


async def more_moves(ada: Person, bob: Person, moves: int, seed: int) -> None:
    """``moves`` more confirmed moves, after ``play_confirmed``."""
    rng = random.Random(seed)
    for _ in range(moves):
        mover = ada if ada.latest_view().get("legal") else bob
        reply = await mover.act(choose(mover.latest_view()["legal"], rng))
        assert reply["type"] == "event"
        other = bob if mover is ada else ada
        await other.expect(lambda m, seq=reply["seq"]: m.get("seq") == seq)


async def test_a_backup_taken_mid_match_resumes_on_a_restored_database(
    fresh_server: Any, tmp_path: Path
) -> None:
    server: Server = fresh_server()
    on_postgres = server.db_url.startswith("postgresql")
    if on_postgres and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not on the PATH (PostgreSQL's client tools)")
    server.start()
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    tid = await two_at_one_table(ada, bob, OPTIONS)
    last = await play_confirmed(ada, bob, 8, seed=7)

    # The backup, while the server serves and both sockets stay open.
    file = tmp_path / "backups" / "cardroom.backup"
    file.parent.mkdir()
    made = await asyncio.to_thread(cardroom, "backup", str(file), "--db", server.db_url)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("backed up ") and made.stdout.count("\n") == 1
    assert cardroom("backup", str(file), "--db", server.db_url).returncode == 2  # no overwrite

    # Play goes on after the backup: these moves are not in it.
    await more_moves(ada, bob, 4, seed=8)
    assert ada.latest_view()["seq"] > last["Ada"]["seq"]
    server.stop()
    for person in (ada, bob):
        await person.close()

    if on_postgres:
        restored_db = PostgresDatabase()
        restored_url = restored_db.url
    else:
        restored_url = f"sqlite:///{tmp_path / 'restored' / 'cardroom.db'}"
    second = Server(restored_url, tmp_path)
    try:
        done = cardroom("restore", str(file), "--db", restored_url)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("restored ") and "current" in done.stdout
        again = cardroom("restore", str(file), "--db", restored_url)
        assert again.returncode == 2 and again.stderr.startswith("refused:")
        assert "is not empty" in again.stderr

        second.start()
        # The same people (the token key is in the database) on the second server.
        people = []
        for before in (ada, bob):
            person = Person(second, before.name)
            person.id = before.id
            person.use(before.token)
            person._ids = before._ids  # a client goes on numbering its actions (ids are kept)
            people.append(person)
        ada2, bob2 = people
        syncs = await reconnect_where_they_were((ada2, bob2), tid, last, "restore")
        for name, sync in syncs.items():  # hand, stock tops, whose turn: all as backed up
            view = sync["view"]
            assert view["hand"] == last[name]["view"]["hand"]
            assert view["stock_tops"] == last[name]["view"]["stock_tops"]
            assert view["current"] == last[name]["view"]["current"]

        match_id = syncs["Ada"]["table"]["match"]["id"]
        await asyncio.gather(
            play_until_over(ada2, 1, syncs["Ada"]), play_until_over(bob2, 2, syncs["Bob"])
        )
        record = (await ada2.http.get(f"/api/matches/{match_id}/record")).json()
        assert replay(record).over
        assert sum(len(r["moves"]) for r in record["rounds"]) > 8
        for person in (ada2, bob2):
            await person.close()
    finally:
        second.stop()
        if on_postgres:
            restored_db.drop()
