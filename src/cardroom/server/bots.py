"""Bots at tables: they think off the event loop (an executor) so tables stay responsive.

Bots come from the level registry (``cardroom.bots.levels``), never a hard-coded list. A bot
is kept per (level, seed) in a bounded cache, so a seat's bot keeps its state between moves
without the process keeping every bot it ever made; with ``process`` the thinking runs on
other cores, each worker with a bounded cache of its own.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import OrderedDict, deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from cardroom.bots import Bot
from cardroom.bots.calibrated import rating_of
from cardroom.bots.levels import Level, levels_for

MAX_CACHED_BOTS = 512


class BotCache:
    """The bots of the seats being played, least recently used first out."""

    def __init__(self, size: int = MAX_CACHED_BOTS) -> None:
        self.size = size
        self._bots: OrderedDict[tuple[str, str, str], Bot] = OrderedDict()

    def get(self, level: Level, seed: str) -> Bot:
        key = (level.game, level.id, seed)  # Skip and Skyjo share level ids
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = level.make(seed, live=True)
            if len(self._bots) > self.size:
                self._bots.popitem(last=False)
        else:
            self._bots.move_to_end(key)
        return bot

    def __len__(self) -> int:
        return len(self._bots)


_worker_bots = BotCache()


def levels_json(game: str = "skip") -> list[dict[str, Any]]:
    """The levels of ``game`` as the lobby lists them, each with its calibrated rating
    (``bots/calibrated.py``; null for a level not measured as it plays now)."""
    return [
        {
            "id": level.id,
            "name": level.name,
            "description": level.description,
            "rating": rating_of(game, level.id),
        }
        for level in levels_for(game).values()
    ]


def _choose_in_worker(level: Level, seed: str, view: Any) -> Any:
    return _worker_bots.get(level, seed).choose(view)


class BotRunner:
    """Runs ``bot.choose(view)`` where the settings say: a thread, a process pool, or inline.

    A level whose decisions take well under ``inline_below`` seconds costs less on
    the loop than the hand-off to an executor, so it thinks inline. Judged on its recent
    decisions (the 90th percentile of the last ``RECENT``), not its worst ever: one slow
    decision (a GC pause) must not send every later one through the executor for good.
    """

    SAMPLES = 8  # decisions measured before a level may think inline
    RECENT = 32

    def __init__(self, mode: str = "thread", inline_below: float = 0.002) -> None:
        if mode not in ("thread", "process", "inline"):
            raise ValueError("the bot executor is thread, process or inline")
        self.mode = mode
        self.inline_below = inline_below
        self.executor: Executor | None = None
        self.bots = BotCache()
        self._cost: dict[str, deque[float]] = {}  # level id -> recent decisions' seconds
        self._inline: dict[str, bool] = {}  # level id -> thinks inline (judged as it goes)
        self._noted: dict[str, int] = {}  # level id -> decisions since it was last judged
        if mode == "thread":
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cardroom-bot")
        elif mode == "process":
            self.executor = ProcessPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 1))

    def _cheap(self, level: Level) -> bool:
        return self._inline.get(level.id, False)

    def _judge(self, level_id: str) -> bool:
        recent = self._cost[level_id]
        if len(recent) < self.SAMPLES:
            return False
        typical = sorted(recent)[int(0.9 * (len(recent) - 1))]
        return typical < self.inline_below / 4

    def _timed(self, bot: Bot, level: Level, view: Any) -> Any:
        # Wall time, an upper bound of the CPU time: reading a thread's CPU clock is a system
        # call, which cost a tenth of the loop's time on a busy virtual machine.
        start = time.perf_counter()
        action = bot.choose(view)
        self.note(level, time.perf_counter() - start)
        return action

    def note(self, level: Level, seconds: float) -> None:
        """One decision of ``level`` took ``seconds``."""
        self._cost.setdefault(level.id, deque(maxlen=self.RECENT)).append(seconds)
        # Judged again every few decisions (a sort of the recent ones), not at every decision.
        noted = self._noted.get(level.id, 0) + 1
        if noted >= self.SAMPLES // 2 or len(self._cost[level.id]) <= self.SAMPLES:
            self._inline[level.id] = self._judge(level.id)
            noted = 0
        self._noted[level.id] = noted

    def thinks_inline(self, level: Level) -> bool:
        """Whether ``level`` decides on the loop (``decide_now``) rather than in ``choose``."""
        return self.executor is None or (self.mode == "thread" and self._cheap(level))

    def decide_now(self, level: Level, seed: str, view: Any) -> Any:
        """The decision of a level that ``thinks_inline``, made at once on the caller's thread."""
        bot = self.bots.get(level, seed)
        return bot.choose(view) if self.executor is None else self._timed(bot, level, view)

    async def choose(self, level: Level, seed: str, view: Any) -> Any | None:
        """The bot's action, or None when the server is shutting down."""
        if self.executor is None:
            return self.bots.get(level, seed).choose(view)
        if self.mode == "process":
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(
                    self.executor, _choose_in_worker, level, seed, view
                )
            except RuntimeError:  # the executor was shut down: the server is stopping
                return None
        bot = self.bots.get(level, seed)
        if self._cheap(level):
            return self._timed(bot, level, view)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, self._timed, bot, level, view)
        except RuntimeError:
            return None

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
