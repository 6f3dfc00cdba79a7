"""The rate limiter and the hashing pool on their own: a clock the test moves, no sleeping."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cardroom.server.limits import Limiter, RateLimited, WorkPool, take_all


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_its_rate():
    clock = FakeClock()
    limiter = Limiter(rate=2.0, burst=3, clock=clock)
    assert [limiter.take("ada") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("ada") == pytest.approx(0.5)  # one token comes back every 0.5 s
    assert limiter.take("bob") == 0.0  # each key has its own bucket
    clock.now += 0.5
    assert limiter.take("ada") == 0.0
    assert limiter.take("ada") > 0
    clock.now += 60  # a long pause refills the bucket to its burst, no more
    assert [limiter.take("ada") for _ in range(4)][-1] > 0


def test_a_refused_take_costs_nothing():
    clock = FakeClock()
    limiter = Limiter(rate=1.0, burst=1, clock=clock)
    assert limiter.take("ada") == 0.0
    for _ in range(10):
        assert limiter.take("ada") == pytest.approx(1.0)
    clock.now += 1.0
    assert limiter.take("ada") == 0.0


def test_a_flood_of_keys_keeps_memory_bounded():
    limiter = Limiter(rate=1.0, burst=1, clock=FakeClock(), max_keys=100)
    for n in range(1000):
        limiter.take(f"key-{n}")
    assert len(limiter) == 100
    assert limiter.take("key-0") == 0.0  # the oldest was forgotten: a full bucket again


def test_take_all_takes_from_every_bucket_or_from_none():
    clock = FakeClock()
    player = Limiter(rate=1.0, burst=5, clock=clock)
    address = Limiter(rate=0.5, burst=2, clock=clock)
    take_all([(player, "ada"), (address, "10.0.0.1")], "new tables")
    take_all([(player, "bob"), (address, "10.0.0.1")], "new tables")
    with pytest.raises(RateLimited) as refused:
        take_all([(player, "cal"), (address, "10.0.0.1")], "new tables")
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.retry_after == 2  # whole seconds, rounded up
    assert player.wait("cal") == 0.0 and player.take("cal") == 0.0  # cal's bucket untouched


def test_the_hash_pool_runs_a_bounded_number_at_once_and_refuses_after_its_wait():
    pool = WorkPool(workers=2, wait=0.2)
    running, most = 0, 0
    lock = threading.Lock()
    release = threading.Event()

    def work(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(5)
        with lock:
            running -= 1
        return n

    async def main() -> list[object]:
        tasks = [asyncio.ensure_future(pool.run(work, n)) for n in range(5)]
        await asyncio.wait(tasks[2:])  # the three beyond the pool give up after their wait
        release.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(main())
    assert most == 2
    assert results[:2] == [0, 1]
    assert all(isinstance(r, RateLimited) for r in results[2:])
