"""Table time: an injectable clock, so tests run timers fast instead of sleeping.

Table time runs ``speed`` times faster than real time. Deadlines are stored as table-time
timestamps, which stay meaningful across restarts as long as the speed is the same.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Clock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("the clock speed must be positive")
        self.speed = speed

    def now(self) -> float:
        """Table-time seconds since the epoch."""
        return time.time() * self.speed

    def call_later(self, seconds: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(seconds, 0.0) / self.speed, callback)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(seconds, 0.0) / self.speed)


class Timer:
    """One pending callback that can be re-armed or cancelled (a turn timer, a pause)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.handle: asyncio.TimerHandle | None = None
        self.deadline: float | None = None

    def start(self, seconds: float, callback: Callable[[], None]) -> None:
        self.cancel()
        self.deadline = self.clock.now() + seconds
        self.handle = self.clock.call_later(seconds, callback)

    def start_at(self, deadline: float, callback: Callable[[], None]) -> None:
        self.start(deadline - self.clock.now(), callback)
        self.deadline = deadline

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle = None
        self.deadline = None

    @property
    def active(self) -> bool:
        return self.handle is not None

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return round(max(self.deadline - self.clock.now(), 0.0), 1)
