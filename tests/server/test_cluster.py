"""Several server processes on one PostgreSQL database and one Redis (docs/scaling.md).

Two real ``cardroom serve`` processes share a fresh database and a Redis key prefix of their
own. Clients cannot tell which process they talk to: people on different processes play one
table, a spectator elsewhere sees no hands, and when the owner of a table is killed the other
process takes the table over and the match goes on from its last confirmed move.

The servers are those at ``CARDROOM_TEST_PG`` and ``CARDROOM_TEST_REDIS`` (``make test`` sets
them, see ``scripts/test-services``), by default the local ones on ports 5432 and 6379.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from conftest import (
    TIMEOUT,
    Person,
    PostgresDatabase,
    Server,
    play_confirmed,
    play_until_over,
    play_until_round_over,
    reconnect_where_they_were,
    two_at_one_table,
)
from redis.asyncio import Redis

from cardroom.games.skip import replay
from cardroom.store.lease import Leases

pytestmark = pytest.mark.postgres

REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
LEASE_TTL = 3.0  # seconds: short, so a takeover happens quickly; checked by behaviour only
OPTIONS = {"stock_size": 10, "match_target": None, "turn_timer": 3600}  # no early end


# -- the lease, against the real Redis -------------------------------------------------------------


@pytest.fixture
async def redis() -> AsyncIterator[tuple[Redis, str]]:
    client = Redis.from_url(REDIS_URL)
    prefix = f"cardroom-test-{secrets.token_hex(4)}:"
    yield client, prefix
    keys = [key async for key in client.scan_iter(match=prefix + "*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


async def test_a_table_has_one_owner_at_a_time(redis):
    client, prefix = redis
    one, two = Leases(client, prefix, "one", 5), Leases(client, prefix, "two", 5)
    assert await one.claim("t_1")
    assert not await two.claim("t_1")
    assert await two.owner("t_1") == "one"
    assert await one.owners(["t_1", "t_2"]) == {"t_1": "one", "t_2": None}


async def test_the_owner_renews_its_lease_and_others_cannot(redis):
    client, prefix = redis
    one, two = Leases(client, prefix, "one", 5), Leases(client, prefix, "two", 5)
    await one.claim("t_1")
    assert await one.renew(["t_1"]) == set()
    assert await two.renew(["t_1"]) == {"t_1"}, "renewing someone else's lease must fail"
    assert not await two.release("t_1"), "releasing someone else's lease must fail"
    assert await one.owner("t_1") == "one"


async def test_a_lapsed_lease_goes_to_the_next_claimant_and_the_old_owner_knows_it_lost(redis):
    client, prefix = redis
    one = Leases(client, prefix, "one", 0.2)
    two = Leases(client, prefix, "two", 5)
    assert await one.claim("t_1")
    while await two.owner("t_1") is not None:  # one stops renewing, as a dead process does
        await asyncio.sleep(0.05)
    assert await two.claim("t_1")
    assert await one.renew(["t_1"]) == {"t_1"}
    assert not await one.release("t_1")
    assert await two.owner("t_1") == "two"


async def test_a_released_lease_is_free_at_once(redis):
    client, prefix = redis
    one, two = Leases(client, prefix, "one", 60), Leases(client, prefix, "two", 60)
    await one.claim("t_1")
    assert await one.release("t_1")
    assert await two.claim("t_1")


async def test_processes_are_alive_while_they_beat(redis):
    client, prefix = redis
    one, two = Leases(client, prefix, "one", 5), Leases(client, prefix, "two", 5)
    await one.beat()
    assert await two.alive(["one", "two"]) == {"one"}
    await one.gone()
    assert await two.alive(["one"]) == set()


# -- two processes -------------------------------------------------------------------------------


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two servers on one fresh PostgreSQL database and one Redis prefix, started together."""
    yield from two_servers(tmp_path)


def two_servers(tmp_path: Path, **settings: str) -> Iterator[tuple[Server, Server]]:
    db = PostgresDatabase()
    prefix = f"cardroom-test-{secrets.token_hex(4)}:"
    env = {
        "CARDROOM_REDIS_URL": REDIS_URL,
        "CARDROOM_REDIS_PREFIX": prefix,
        "CARDROOM_LEASE_TTL": str(LEASE_TTL),
        **settings,
    }
    servers = (Server(db.url, tmp_path, **env), Server(db.url, tmp_path, **env))
    try:
        with ThreadPoolExecutor(2) as pool:  # both at once: they take turns to migrate
            list(pool.map(Server.start, servers))
        yield servers
    finally:
        for server in servers:
            server.stop()
        db.drop()
        asyncio.run(_drop_keys(prefix))


async def _drop_keys(prefix: str) -> None:
    client = Redis.from_url(REDIS_URL)
    keys = [key async for key in client.scan_iter(match=prefix + "*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def match_over(message: dict[str, Any]) -> dict[str, Any]:
    return next(e["detail"] for e in message["events"] if e["kind"] == "match_over")


async def move_to(person: Person, server: Server) -> None:
    """The person's client now talks to ``server`` (same token: the database is shared)."""
    await person.http.aclose()
    person.server = server
    person.http = httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT)
    person.http.headers["Authorization"] = f"Bearer {person.token}"


async def test_people_on_two_processes_play_one_table_and_a_spectator_elsewhere_sees_no_hands(
    pair,
):
    a, b = pair
    ada = await Person(a, "Ada").register()
    bob = await Person(b, "Bob").register()
    cy = await Person(b, "Cy").register()
    created = await ada.post("/api/tables", {"seats": 2, "options": OPTIONS}, expect=201)
    tid = created["table"]["id"]
    await ada.connect(tid)  # a table is listed while one of its players is there
    for _ in range(int(TIMEOUT * 10)):  # the other process hears of it within a heartbeat
        listed = (await bob.http.get("/api/tables")).json()["tables"]
        if tid in [t["id"] for t in listed]:
            break
        await asyncio.sleep(0.1)
    assert tid in [t["id"] for t in listed], "the lobby of one process lists the other's tables"
    joined = await bob.post(f"/api/tables/{tid}/join")  # reaches the owner through Redis
    assert joined["seat"] == 1 and joined["table"]["seats"][1]["player"]["id"] == bob.id

    for person in (bob, cy):
        await person.connect(tid)
    assert cy.spectator and bob.seat == 1
    await bob.post(f"/api/tables/{tid}/start")
    results = await asyncio.gather(play_until_over(ada, 1), play_until_over(bob, 2))
    assert match_over(results[0]) == match_over(results[1])

    over = await cy.expect(lambda m: any(e["kind"] == "match_over" for e in m.get("events", ())))
    assert over["view"] is not None and over["view"]["hand"] is None
    watched = [m for m in cy.messages if m.get("view") is not None]
    assert len(watched) > 10 and all(m["view"]["hand"] is None for m in watched)
    match_id = match_over(over)["match"]
    record = (await bob.http.get(f"/api/matches/{match_id}/record")).json()
    assert replay(record).over
    for person in (ada, bob, cy):
        await person.close()


async def test_when_the_owner_dies_the_other_process_takes_the_table_over_where_it_was(pair):
    a, b = pair
    ada = await Person(a, "Ada").register()
    bob = await Person(b, "Bob").register()
    tid = await two_at_one_table(ada, bob, OPTIONS)  # process a owns it: its creator's
    last = await play_confirmed(ada, bob, 10, seed=3)

    a.kill()  # SIGKILL: no lease released, nothing said to anyone
    await ada.close()
    await move_to(ada, b)
    # Bob's socket (on b) is told to reconnect once b sees that the table changed hands.
    await asyncio.wait_for(asyncio.shield(bob._reader), TIMEOUT)
    assert bob.ws.close_code == 1012  # "service restart": what clients reconnect after
    await bob.close()
    syncs = await reconnect_where_they_were((ada, bob), tid, last, "takeover")

    info = (await bob.http.get(f"/api/tables/{tid}")).json()["table"]
    assert info["status"] == "playing"
    finals = await asyncio.gather(
        play_until_over(ada, 4, syncs["Ada"]), play_until_over(bob, 5, syncs["Bob"])
    )
    match_id = match_over(finals[0])["match"]
    record = (await ada.http.get(f"/api/matches/{match_id}/record")).json()
    assert replay(record).over
    assert sum(len(r["moves"]) for r in record["rounds"]) > 10
    for person in (ada, bob):
        await person.close()


async def test_a_process_that_loses_a_lease_stops_running_the_table(pair):
    """Only the lease holder runs a table: when another holds the lease, the process stops it
    (its sockets are told to reconnect) and writes nothing more for it."""
    a, b = pair
    ada = await Person(a, "Ada").register()
    created = await ada.post("/api/tables", {"seats": 2, "options": OPTIONS}, expect=201)
    tid = created["table"]["id"]
    await ada.connect(tid)
    prefix = a.env["CARDROOM_REDIS_PREFIX"]
    client = Redis.from_url(REDIS_URL)
    try:
        await client.set(f"{prefix}table:{tid}:owner", "an-impostor", px=60_000)
        await asyncio.wait_for(asyncio.shield(ada._reader), TIMEOUT)
        assert ada.ws.close_code == 1012
        await ada.close()
        await client.delete(f"{prefix}table:{tid}:owner")  # the "impostor" is gone
        await move_to(ada, b)
        await ada.connect(tid)  # b takes the table over from the database
        info = (await ada.http.get(f"/api/tables/{tid}")).json()["table"]
        assert info["seats"][0]["player"]["id"] == ada.id
        owner = await client.get(f"{prefix}table:{tid}:owner")
        assert owner is not None and owner.decode() != "an-impostor"
    finally:
        await client.aclose()
    await ada.close()


async def test_a_kept_game_entered_on_one_process_is_pushed_to_a_viewer_on_the_other(pair):
    """The score keeper's live view (docs/keeper.md): the change goes over Redis to every
    process, each pushing it to the viewers it holds."""
    a, b = pair
    ada = await Person(a, "Ada").register()
    body = {"game": "skyjo", "players": ["Ann", "Bob"], "entry": "new-1"}
    kept = (await ada.post("/api/keeper/games", body, expect=201))["kept"]
    async with websockets.connect(f"{b.ws_url}/ws/keeper/{kept['code']}") as viewer:
        first = json.loads(await asyncio.wait_for(viewer.recv(), TIMEOUT))
        assert first["kept"]["revision"] == 1
        entry = {"entry": "r-1", "round": {"sums": {"Ann": 9, "Bob": 4}, "closer": "Ann"}}
        await ada.post(f"/api/keeper/games/{kept['id']}/rounds", entry)
        pushed = json.loads(await asyncio.wait_for(viewer.recv(), TIMEOUT))
        assert pushed["kept"]["revision"] == 2
        assert pushed["kept"]["sheet"]["results"]["totals"] == {"Ann": 18, "Bob": 4}
    # The same entry sent to the other process is recognised: applied once.
    await move_to(ada, b)
    again = await ada.post(f"/api/keeper/games/{kept['id']}/rounds", entry)
    assert again["duplicate"] is True and again["kept"]["revision"] == 2


async def test_a_frozen_owner_cannot_store_a_move_once_another_process_took_its_table(pair):
    """Fencing across processes: the owner is frozen (SIGSTOP) with a move on its way, another
    process takes the table over (bumping its epoch), then the frozen one wakes with the move
    to store. Whichever it does first — the move or noticing the lost lease — nothing it does
    reaches the database: the match stays as the new owner has it."""
    import signal

    from sqlalchemy import create_engine, func, select

    from cardroom.store.models import Move, Table

    a, b = pair
    ada = await Person(a, "Ada").register()
    created = await ada.post("/api/tables", {"seats": 2, "options": OPTIONS}, expect=201)
    tid = created["table"]["id"]
    await ada.post(f"/api/tables/{tid}/bots", {"level": "easy"})
    await ada.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    position = await ada.expect(lambda m: m["type"] in ("event", "sync") and m.get("legal"))
    engine = create_engine(a.db_url)
    prefix = a.env["CARDROOM_REDIS_PREFIX"]
    redis = Redis.from_url(REDIS_URL)

    def stored() -> tuple[int, int]:
        with engine.connect() as conn:
            moves = conn.execute(select(func.count()).select_from(Move)).scalar_one()
            epoch = conn.execute(select(Table.epoch).where(Table.id == tid)).scalar_one()
        return moves, epoch

    try:
        moves_before, epoch_before = stored()
        assert a.process is not None
        a.process.send_signal(signal.SIGSTOP)
        try:
            # Its lease is let go (as if it had lapsed) and b takes the table over.
            await redis.delete(f"{prefix}table:{tid}:owner")
            watcher = await Person(b, "Watcher").register()
            taken = await watcher.http.get(f"/api/tables/{tid}")
            assert taken.status_code == 200, taken.text
            assert stored() == (moves_before, epoch_before + 1)
            # A move for the frozen process, waiting in its socket.
            await ada.ws.send(
                json.dumps({"type": "action", "id": "late", "action": position["legal"][0]})
            )
        finally:
            a.process.send_signal(signal.SIGCONT)
        # The woken process stops the table (its socket closes to reconnect) or refuses the
        # move; either way the move is not stored.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(ada._reader), TIMEOUT)
        assert not [m for m in ada.messages if m.get("ack") == "late"], "the move was confirmed"
        assert stored() == (moves_before, epoch_before + 1)
        await move_to(ada, b)
        await ada.connect(tid)
        sync = await ada.expect(lambda m: m["type"] == "sync")
        assert sync["legal"] == position["legal"]  # the position the move was chosen on
    finally:
        await redis.aclose()
        engine.dispose()
        await ada.close()


@pytest.fixture
def patient_pair(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two servers whose round summaries wait up to ten minutes for "Continue"."""
    yield from two_servers(tmp_path, CARDROOM_ROUND_PAUSE="600")


async def test_continue_said_on_the_other_process_deals_the_next_round(patient_pair):
    a, b = patient_pair
    ada = await Person(a, "Ada").register()
    bob = await Person(b, "Bob").register()
    body = {"game": "skyjo", "seats": 2, "options": {"end_score": 500}, "abandon_after": 3600}
    tid = (await ada.post("/api/tables", body, expect=201))["table"]["id"]
    await ada.connect(tid)
    for _ in range(int(TIMEOUT * 10)):  # the other process hears of the table
        if (await bob.http.get(f"/api/tables/{tid}")).status_code == 200:
            break
        await asyncio.sleep(0.1)
    await bob.post(f"/api/tables/{tid}/join")
    await bob.connect(tid)  # Bob's socket is forwarded to Ada's process through Redis
    await ada.post(f"/api/tables/{tid}/start")
    await asyncio.gather(play_until_round_over(ada, 1), play_until_round_over(bob, 2))

    def table_ready(m: dict[str, Any]) -> bool:
        return m["type"] == "table" and m["table"]["match"]["ready"] == [1]

    await bob.send({"type": "ready"})
    await ada.expect(table_ready)  # Ada sees that Bob has read it; no deal yet
    assert not any(
        e["kind"] == "round_started" and e["detail"]["round"] == 2
        for m in ada.messages
        for e in m.get("events", ())
    )
    await ada.send({"type": "ready"})
    for person in (ada, bob):
        await person.expect(
            lambda m: any(
                e["kind"] == "round_started" and e["detail"]["round"] == 2
                for e in m.get("events", ())
            )
        )
    await bob.send({"type": "ready"})  # no summary now: refused, nothing changes
    refused = await bob.expect(lambda m: m["type"] == "error")
    assert (refused["code"], refused["about"]) == ("not_between_rounds", "ready")
    for person in (ada, bob):
        await person.close()
