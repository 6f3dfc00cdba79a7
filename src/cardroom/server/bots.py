"""Bots at tables: they think off the event loop (an executor) so tables stay responsive.

Bots come from the level registry (``cardroom.bots.levels.LEVELS``), never a hard-coded list.
With ``process`` the thinking runs on other cores; each worker keeps its own bot per
(name, seed), which is enough since a bot decides from the view it is given.
"""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from cardroom.bots import Bot, make_bot
from cardroom.bots.levels import LEVELS
from cardroom.games.skip import Action, SeatView

_worker_bots: dict[tuple[str, str], Bot] = {}


def level_bot_name(level_id: str) -> str:
    """The registered bot behind a level; raises ``ValueError`` for an unknown level."""
    if level_id not in LEVELS:
        raise ValueError(f"unknown level {level_id!r}; choose one of {', '.join(LEVELS)}")
    return LEVELS[level_id].bot


def levels_json() -> list[dict[str, Any]]:
    return [
        {"id": level.id, "name": level.name, "description": level.description}
        for level in LEVELS.values()
    ]


def _choose_in_worker(bot_name: str, seed: str, view: SeatView) -> Action:
    bot = _worker_bots.get((bot_name, seed))
    if bot is None:
        bot = _worker_bots[(bot_name, seed)] = make_bot(bot_name, seed)
    return bot.choose(view)


class BotRunner:
    """Runs ``bot.choose(view)`` where the settings say: a thread, a process pool, or inline.

    A bot whose decisions take well under ``inline_below`` seconds (measured on its first
    moves, in CPU time) costs less on the loop than the hand-off to an executor, so from then
    on it thinks inline; a bot that thinks longer always goes to the executor.
    """

    SAMPLES = 8

    def __init__(self, mode: str = "thread", inline_below: float = 0.002) -> None:
        if mode not in ("thread", "process", "inline"):
            raise ValueError("the bot executor is thread, process or inline")
        self.mode = mode
        self.inline_below = inline_below
        self.executor: Executor | None = None
        self._cost: dict[str, tuple[int, float]] = {}  # bot name -> (samples, worst seconds)
        if mode == "thread":
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cardroom-bot")
        elif mode == "process":
            self.executor = ProcessPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 1))

    def _cheap(self, bot_name: str) -> bool:
        samples, worst = self._cost.get(bot_name, (0, 0.0))
        return samples >= self.SAMPLES and worst < self.inline_below / 4

    def _timed(self, bot: Bot, bot_name: str, view: SeatView) -> Action:
        start = time.thread_time()
        action = bot.choose(view)
        spent = time.thread_time() - start
        samples, worst = self._cost.get(bot_name, (0, 0.0))
        self._cost[bot_name] = (min(samples + 1, self.SAMPLES), max(worst, spent))
        return action

    async def choose(self, bot: Bot, bot_name: str, seed: str, view: SeatView) -> Action | None:
        """The bot's action, or None when the server is shutting down."""
        if self.executor is None:
            return bot.choose(view)
        if self._cheap(bot_name):
            return self._timed(bot, bot_name, view)
        loop = asyncio.get_running_loop()
        try:
            if self.mode == "process":
                return await loop.run_in_executor(
                    self.executor, _choose_in_worker, bot_name, seed, view
                )
            return await loop.run_in_executor(self.executor, self._timed, bot, bot_name, view)
        except RuntimeError:  # the executor was shut down: the server is stopping
            return None

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
