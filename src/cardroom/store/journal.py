"""The one writer thread: every table's writes, batched into shared transactions (group commit).

Tables await their write before telling anyone of a move, so a move is committed first (DESIGN:
"a stored move is never lost"). Batching many tables' moves into one commit keeps the database
from being the bottleneck with hundreds of tables, on SQLite as on PostgreSQL, and keeps the
blocking driver calls off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

T = TypeVar("T")
Operation = Callable[[Connection], Any]

log = logging.getLogger(__name__)

_STOP = object()


class Journal:
    """Runs database operations in order on one thread; concurrent ones share a commit."""

    def __init__(self, engine: Engine, max_batch: int = 500) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="cardroom-journal", daemon=True)
        self._thread.start()
        self.commits = 0
        self.operations = 0

    async def run(self, operation: Callable[[Connection], T]) -> T:
        """Run ``operation`` in a committed transaction; its result, or its exception."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((operation, future, loop))
        return await future

    def run_sync(self, operation: Callable[[Connection], T]) -> T:
        """For start-up and tools: run directly, outside the writer thread."""
        with self.engine.begin() as connection:
            return operation(connection)

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=10)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Operation, asyncio.Future[Any], Any]]) -> None:
        try:
            with self.engine.begin() as connection:
                results = [(future, loop, op(connection), None) for op, future, loop in batch]
        except Exception:
            # One bad operation must not fail the others: redo them one by one.
            results = []
            for op, future, loop in batch:
                try:
                    with self.engine.begin() as connection:
                        results.append((future, loop, op(connection), None))
                except Exception as error:  # handed to the awaiting table
                    log.exception("database operation failed")
                    results.append((future, loop, None, error))
        self.commits += 1
        self.operations += len(batch)
        by_loop: dict[Any, list[Any]] = {}
        for entry in results:
            by_loop.setdefault(entry[1], []).append(entry)
        for loop, entries in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is gone (shutdown)
                loop.call_soon_threadsafe(_settle, entries)


def _settle(entries: list[tuple[asyncio.Future[Any], Any, Any, BaseException | None]]) -> None:
    for future, _loop, result, error in entries:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
