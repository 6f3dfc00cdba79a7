"""The league's work for finished matches, off the path of every table's moves.

Rating, statistics, achievements and season freezing for a finished match run here, on a
thread and a database connection of their own, after the match's final move is committed:
the journal's one writer thread, which every table's commit waits on, never waits for them.
One match at a time, in the order they finish, so two matches of one player are counted in
order. At start, ``catch_up`` counts the finished matches a stopped process left uncounted.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Engine

from cardroom.league import on_match_finished, unrated_matches
from cardroom.league.ladder import Barred, LadderRules

log = logging.getLogger(__name__)


class LeagueWorker:
    def __init__(
        self, engine: Engine, ladder: LadderRules | None = None, barred: Barred | None = None
    ) -> None:
        self.engine = engine
        self.ladder = ladder  # the ladder's rules (docs/league.md); None: none applied
        self.barred = barred  # who a moderator banned from ranked play (moderation/)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardroom-league")
        self._waiting: dict[int, float] = {}  # a count not finished yet -> when it was asked for
        self._asked = 0

    def _count(self, match_id: str) -> list[dict[str, Any]]:
        with self.engine.begin() as conn:
            return on_match_finished(conn, match_id, ladder=self.ladder, barred=self.barred)

    async def count(self, match_id: str) -> list[dict[str, Any]]:
        """Rate, record and award ``match_id`` once; the events its table should announce."""
        loop = asyncio.get_running_loop()
        self._asked += 1
        key = self._asked
        self._waiting[key] = time.monotonic()
        try:
            return await loop.run_in_executor(self.executor, self._count, match_id)
        finally:
            del self._waiting[key]

    def lag(self) -> float:
        """Seconds the oldest match still to be counted has waited (0: none waits): how far
        behind the finished matches the league is (the ``cardroom_league_lag_seconds`` gauge)."""
        waiting = tuple(self._waiting.values())  # one step: a scrape may come from a thread
        return time.monotonic() - min(waiting) if waiting else 0.0

    async def catch_up(self) -> int:
        """Count every finished match nobody counted yet (a crash after its final move)."""
        loop = asyncio.get_running_loop()

        def pending() -> list[str]:
            with self.engine.connect() as conn:
                return unrated_matches(conn)

        missed = await loop.run_in_executor(self.executor, pending)
        counted = 0
        for match_id in missed:
            try:
                await self.count(match_id)
                counted += 1
            except Exception:  # another process counted it first (results are keyed by match
                # and seat, so its insert wins and ours rolls back), or the row is unreadable
                log.warning("league: match %s was not counted here", match_id, exc_info=True)
        if missed:
            log.info(
                "league: counted %d of %d finished match(es) left uncounted", counted, len(missed)
            )
        return counted

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=False)
