"""The Redis store as two processes see it: two clients (two matchmakers) racing over the same
tickets never book one twice; a process that stops keeping its tickets alive loses them."""

from __future__ import annotations

import asyncio
import os
import random
import secrets

import pytest
from redis.asyncio import Redis

from cardroom.cancelling import cancel_and_wait
from cardroom.matchmaking.matchmaker import Matchmaker
from cardroom.matchmaking.stores import RedisStore
from cardroom.matchmaking.tickets import Ticket
from cardroom.matchmaking.widening import Widening

pytestmark = pytest.mark.postgres  # needs the test services (Redis), as test_cluster.py does

REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def prefix():
    name = f"cardroom-test-{secrets.token_hex(4)}:"
    yield name
    client = Redis.from_url(REDIS_URL)
    keys = [k async for k in client.scan_iter(f"{name}*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def ticket(n: int, rating: float, mode: str = "2p", players: tuple[str, ...] | None = None):
    players = players or (f"p_{n}",)
    return Ticket(f"k_{n}", "skip", mode, players, players, rating, 0.0)


async def test_two_processes_never_book_a_ticket_twice(prefix) -> None:
    one, two = Redis.from_url(REDIS_URL), Redis.from_url(REDIS_URL)
    try:
        a = Matchmaker(RedisStore(one, prefix), lambda: 100.0, Widening())
        b = Matchmaker(RedisStore(two, prefix), lambda: 100.0, Widening())
        rng = random.Random(7)
        tickets = [ticket(n, rng.gauss(15, 6)) for n in range(200)]
        for t in tickets[:100]:
            assert await a.enqueue(t)
        for t in tickets[100:]:
            assert await b.enqueue(t)
        assert not await a.enqueue(ticket(999, 1.0, players=("p_5",)))  # p_5 waits already
        rounds = await asyncio.gather(*(m.run_round() for m in (a, b, a, b)))
        booked = [t.id for r in rounds for p in r.matched for t in p.tickets]
        assert len(booked) == len(set(booked)) == 200
    finally:
        await one.aclose()
        await two.aclose()


async def test_tickets_of_a_process_that_stopped_lapse(prefix) -> None:
    client = Redis.from_url(REDIS_URL)
    try:
        store = RedisStore(client, prefix, ttl=0.5)
        kept, dropped = ticket(1, 10.0), ticket(2, 30.0)
        await store.add(kept)
        await store.add(dropped)
        waiting = ["k_1", "k_2"]
        while waiting != ["k_1"]:  # until the one nobody keeps alive lapses
            await store.keep_alive([kept])
            await asyncio.sleep(0.05)
            waiting = sorted(t.id for t in await store.waiting("skip:2p"))
            assert "k_1" in waiting  # kept alive every 0.05 s: it never lapses
        assert await store.add(ticket(3, 30.0, players=("p_2",)))  # p_2 may queue again
    finally:
        await client.aclose()


async def test_partners_claimed_together_or_not_at_all(prefix) -> None:
    client = Redis.from_url(REDIS_URL)
    try:
        store = RedisStore(client, prefix)
        duo = ticket(1, 10.0, "teams", ("p_x", "p_y"))
        other = ticket(2, 10.0, "teams", ("p_z", "p_w"))
        await store.add(duo)
        await store.add(other)
        await store.remove(other)  # withdrawn
        assert not await store.claim([duo, other])
        assert [t.id for t in await store.waiting("skip:teams")] == ["k_1"]
        assert await store.claim([duo])
        assert await store.waiting("skip:teams") == []
    finally:
        await client.aclose()


async def test_a_loop_of_store_calls_ends_when_it_is_cancelled(prefix) -> None:
    """redis-py sends every command through ``wait_for``, which on Python 3.11 can lose a
    cancellation (cardroom/cancelling.py): a server's stop once waited out its whole grace
    for the queue's round loop. Cancelled at 40 moments, such a loop ends every time."""
    client = Redis.from_url(REDIS_URL)
    store = RedisStore(client, prefix)
    turns = random.Random(7)

    async def rounds() -> None:
        while True:
            await store.queues()

    try:
        for _ in range(40):
            task = asyncio.create_task(rounds())
            for _ in range(turns.randrange(1, 40)):
                await asyncio.sleep(0)  # a turn of the loop: the cancellation lands anywhere
            async with asyncio.timeout(60):
                await cancel_and_wait(task, again_after=0.02)
            assert task.cancelled()
    finally:
        await client.aclose()
