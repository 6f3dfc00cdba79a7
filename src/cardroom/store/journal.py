"""The one writer thread: every table's writes, batched into shared transactions (group commit).

Tables await their write before telling anyone of a move, so a move is committed first (a
stored move is never lost). Batching many tables' moves into one commit keeps the database
from being the bottleneck with hundreds of tables, on SQLite as on PostgreSQL, and keeps the
blocking driver calls off the event loop.

A write is a list of steps: a ``Statement`` (a prepared Core statement and its parameters),
which the journal runs together with the same statement of other writes in the batch as one
``executemany``; a ``Fence``, which refuses the whole write (``StaleWriter``) unless the
table's epoch is still the writer's; or any callable taking the connection, which runs after
everything queued before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import Connection, Engine, Executable, text

T = TypeVar("T")
Operation = Callable[[Connection], Any]

log = logging.getLogger(__name__)

_STOP = object()


class Statement(NamedTuple):
    """One row's worth of a statement that many tables run: batched as ``executemany``."""

    statement: Executable
    params: dict[str, Any]


class Fence(NamedTuple):
    """The first step of a table's write: it goes through only while the table's epoch is
    still ``epoch`` (the writer still owns the table), else the whole write is refused. It
    stores the table's ``seq`` too (never lowering it), so no move needs a write of its own
    to the table's row."""

    table_id: str
    epoch: int
    seq: int | None = None


class StaleWriter(Exception):
    """A write from a process that no longer owns the table: refused, nothing stored."""


Step = Statement | Fence | Operation

_FENCE = text("UPDATE tables SET epoch = :epoch WHERE id = :table_id AND epoch = :epoch")
_FENCE_AND_SEQ = text(
    "UPDATE tables SET seq = CASE WHEN seq > :seq THEN seq ELSE :seq END "
    "WHERE id = :table_id AND epoch = :epoch"
)


class Journal:
    """Runs database writes in order on one thread; concurrent ones share a commit."""

    def __init__(
        self,
        engine: Engine,
        max_batch: int = 1000,
        on_commit: Callable[[float], None] = lambda seconds: None,
        refusals: tuple[type[Exception], ...] = (),
    ) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.on_commit = on_commit
        """Told the seconds each batch's commit took (the server's metrics), on the writer."""
        self.refusals = refusals
        """Errors a write raises to refuse a request (a moderator's bad input): handed back to
        the caller, which answers with them, and never logged as a failure."""
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="cardroom-journal", daemon=True)
        self._thread.start()
        self.commits = 0
        self.operations = 0

    async def run(self, operation: Callable[[Connection], T]) -> T:
        """Run ``operation`` in a committed transaction; its result, or its exception."""
        return await self.write([operation])

    async def write(self, steps: Sequence[Step]) -> Any:
        """Commit ``steps`` in one transaction (shared with others); the last callable's result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put((steps, future, loop))
        return await future

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

    def _commit(self, batch: list[tuple[Sequence[Step], asyncio.Future[Any], Any]]) -> None:
        try:
            started = time.perf_counter()
            with self.engine.begin() as connection:
                values = _run_steps(connection, [steps for steps, _f, _l in batch])
            self.on_commit(time.perf_counter() - started)
            results: list[tuple[asyncio.Future[Any], Any, Any, Exception | None]] = [
                (future, loop, value, None)
                for (_s, future, loop), value in zip(batch, values, strict=True)
            ]
        except Exception:
            # One bad write must not fail the others: redo them one by one.
            results = []
            for steps, future, loop in batch:
                try:
                    with self.engine.begin() as connection:
                        value = _run_steps(connection, [steps])[0]
                    results.append((future, loop, value, None))
                except StaleWriter as error:  # expected after a take-over: no traceback
                    log.warning("refused a stale write: %s", error)
                    results.append((future, loop, None, error))
                except self.refusals as error:  # a refused request: its answer says why
                    results.append((future, loop, None, error))
                except Exception as error:  # handed to the awaiting table
                    log.exception("database write failed")
                    results.append((future, loop, None, error))
        self.commits += 1
        self.operations += len(batch)
        by_loop: dict[Any, list[Any]] = {}
        for entry in results:
            by_loop.setdefault(entry[1], []).append(entry)
        for loop, entries in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is gone (shutdown)
                loop.call_soon_threadsafe(_settle, entries)


def _run_steps(connection: Connection, writes: list[Sequence[Step]]) -> list[Any]:
    """Run the writes' steps in order, grouping like statements into one ``executemany``.

    The fences of the batch run together too, and must touch one row each: if one does not,
    the whole batch fails and the journal runs its writes one by one, finding the stale one.
    On PostgreSQL a fenced row stays locked to the commit, so a take-over waits for it, then
    fences."""
    pending: dict[tuple[int, tuple[str, ...]], tuple[Executable, list[dict[str, Any]]]] = {}
    fences: dict[int, tuple[Executable, list[dict[str, Any]]]] = {}

    def flush() -> None:
        for fence, rows in fences.values():
            fenced = connection.execute(fence, rows).rowcount
            if fenced != len(rows):
                tables = ", ".join(sorted({row["table_id"] for row in rows}))
                raise StaleWriter(f"a table among {tables} has another owner now")
        fences.clear()
        for statement, rows in pending.values():
            connection.execute(statement, rows)
        pending.clear()

    values: list[Any] = []
    for steps in writes:
        value = None
        for step in steps:
            if isinstance(step, Statement):
                key = (id(step.statement), tuple(step.params))
                pending.setdefault(key, (step.statement, []))[1].append(step.params)
            elif isinstance(step, Fence):
                fence = _FENCE if step.seq is None else _FENCE_AND_SEQ
                fences.setdefault(id(fence), (fence, []))[1].append(step._asdict())
            else:
                flush()
                value = step(connection)
        values.append(value)
    flush()
    return values


def _settle(entries: list[tuple[asyncio.Future[Any], Any, Any, BaseException | None]]) -> None:
    for future, _loop, result, error in entries:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
