"""Rate limits and bounded work: what keeps one client from taking the server for itself.

A ``Limiter`` is a token bucket per key (a player id, a client address, a name): ``rate``
requests per second on average, bursts of ``burst``. It forgets idle keys, so a flood of new
keys costs bounded memory. The clock is injectable, so tests need not sleep.

``HashPool`` runs password hashing (argon2 holds tens of MiB per call) a few at a time, so
many sign-ins at once wait their turn instead of exhausting memory.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from cardroom.server import metrics
from cardroom.tables.errors import Refusal

Clock = Callable[[], float]
T = TypeVar("T")

MAX_KEYS = 100_000  # buckets kept per limiter; the least recently used go first


class RateLimited(Refusal):
    """``429 rate_limited``; the answer carries ``Retry-After`` (whole seconds)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(429, "rate_limited", message)
        self.retry_after = max(1, math.ceil(retry_after))


class Limiter:
    """Token buckets by key: ``rate`` per second on average, bursts of ``burst``."""

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Clock = time.monotonic,
        max_keys: int = MAX_KEYS,
        name: str = "other",
    ) -> None:
        self.rate, self.burst = float(rate), float(burst)
        self.name = name  # in the metrics (``cardroom_rate_limited_total{limiter=...}``)
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> tokens, t

    def _tokens(self, key: str, now: float) -> float:
        tokens, last = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + max(0.0, now - last) * self.rate)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may go once more (0: now), without taking anything."""
        tokens = self._tokens(key, self.clock())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def take(self, key: str) -> float:
        """Take one token for ``key``: 0 if allowed, else the seconds to wait (nothing taken)."""
        now = self.clock()
        tokens = self._tokens(key, now)
        if tokens < 1.0:
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return 0.0

    def __len__(self) -> int:
        return len(self._buckets)


def take_all(limiters: Iterable[tuple[Limiter, str]], what: str) -> None:
    """One token from each (limiter, key), or none at all and ``RateLimited`` with the wait:
    a refused request does not use up one bucket while another refuses it."""
    pairs = list(limiters)
    waits = [(limiter, limiter.wait(key)) for limiter, key in pairs]
    wait = max((w for _, w in waits), default=0.0)
    if wait > 0:
        for limiter, w in waits:
            if w > 0:
                metrics.rate_limited(limiter.name)
        raise RateLimited(f"too many {what}; try again in {math.ceil(wait)} s", wait)
    for limiter, key in pairs:
        limiter.take(key)


class WorkPool:
    """At most ``workers`` costly jobs at once (password hashes, match reviews), in threads;
    the rest wait up to ``wait`` seconds for a turn, then are refused (``429``, saying
    ``busy``) rather than piling up memory and CPU."""

    def __init__(
        self, workers: int, wait: float, busy: str = "checking passwords", name: str = "hashing"
    ) -> None:
        self.name = name  # in the metrics, as a limiter's
        self.workers = workers
        self.wait = wait
        self.busy = busy
        self._slots = asyncio.Semaphore(workers)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        try:
            async with asyncio.timeout(self.wait):  # acquire() itself handles the cancel
                await self._slots.acquire()
        except TimeoutError:
            metrics.rate_limited(self.name)
            raise RateLimited(f"the server is busy {self.busy}; try again", 1) from None
        try:
            return await run_in_threadpool(function, *args)
        finally:
            self._slots.release()


def client_address(scope: Any) -> str:
    """The client's address: the peer's, or the one a trusted proxy named in
    ``X-Forwarded-For`` (``CARDROOM_TRUSTED_PROXIES``, put in the scope by ``proxies.py``)."""
    client = scope.get("client") if isinstance(scope, dict) else None
    return str(client[0]) if client else "unknown"


class Guards:
    """The server's limiters, made from its settings (``docs/protocol.md`` section 5)."""

    def __init__(self, settings: Any, clock: Clock = time.monotonic) -> None:
        s = settings

        def limiter(name: str, rate: float, burst: int) -> Limiter:
            return Limiter(rate, burst, clock, name=name)

        self.players_address = limiter(
            "players_address", s.players_address_rate, s.players_address_burst
        )
        self.create_player = limiter("create_player", s.create_rate, s.create_burst)
        self.create_address = limiter(
            "create_address", s.create_address_rate, s.create_address_burst
        )
        self.named_player = limiter("named_player", s.named_rate, s.named_burst)
        self.named_address = limiter("named_address", s.named_address_rate, s.named_address_burst)
        self.signin_name = limiter("signin_name", s.signin_rate, s.signin_burst)
        self.signin_address = limiter(
            "signin_address", s.signin_address_rate, s.signin_address_burst
        )
        self.keeper_player = limiter("keeper_player", s.keeper_rate, s.keeper_burst)
        self.keeper_address = limiter(
            "keeper_address", s.keeper_address_rate, s.keeper_address_burst
        )
        self.daily_player = limiter("daily_player", s.daily_rate, s.daily_burst)
        self.shared_address = limiter(
            "shared_address", s.shared_address_rate, s.shared_address_burst
        )
        self.hashing = WorkPool(s.hash_workers, s.hash_wait, name="hashing")
        self.moderating = limiter("moderating", s.moderation_rate, s.moderation_burst)
        self.reporting = limiter("reporting", s.report_rate, s.report_burst)
        self.review_address = limiter(
            "review_address", s.review_address_rate, s.review_address_burst
        )
        self.reviewing = WorkPool(
            s.review_workers, s.review_wait, "reviewing other matches", name="reviewing"
        )
