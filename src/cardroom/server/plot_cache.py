"""Rendered rating plots, kept while the history they show stays the same.

A plot costs ~0.2 s of matplotlib, and anyone may ask for any player's: so a plot is rendered
once per distinct history (its key is the history itself, hashed), at most ``RENDERS`` at a
time, and the newest ``ENTRIES`` are kept. Asking again for an unchanged plot costs a database
read and a dictionary lookup.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

ENTRIES = 512
RENDERS = 2


class PlotCache:
    def __init__(self, entries: int = ENTRIES, renders: int = RENDERS) -> None:
        self._entries = entries
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self._renders = asyncio.Semaphore(renders)
        self.rendered = 0  # for tests and the abuse bench: how many plots were really drawn

    @staticmethod
    def key(*parts: Any) -> str:
        return hashlib.sha256(repr(parts).encode()).hexdigest()

    async def get(self, key: str, render: Callable[[], bytes]) -> bytes:
        png = self._png.get(key)
        if png is not None:
            self._png.move_to_end(key)
            return png
        async with self._renders:
            png = self._png.get(key)  # drawn by someone who waited before us
            if png is None:
                png = await run_in_threadpool(render)
                self.rendered += 1
                self._png[key] = png
                if len(self._png) > self._entries:
                    self._png.popitem(last=False)
        return png
