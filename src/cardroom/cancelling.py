"""Ending background tasks from a coroutine that may itself be cancelled.

``task.cancel()`` then ``await task`` inside ``suppress(CancelledError)`` also swallows a
cancellation of the awaiting coroutine: a stop given a time limit (server/closing.py) then
runs on past it as if nothing had happened. ``asyncio.wait`` waits for the tasks' endings
without raising them and still lets the caller's cancellation through.

A task can also lose the cancellation it is sent. Python 3.11's ``asyncio.wait_for`` returns
its inner result when the inner work finishes in the same turn of the loop as the
cancellation arrives (python/cpython#86296, fixed in 3.12), and redis-py sends every command
through ``wait_for`` under its default socket timeout: a loop of Redis commands cancelled at
a random moment carried on in 40-68% of 100 tries (hgetall, mget, a pipeline, eval). A task
still running a moment after its cancellation is therefore sent another.
"""

from __future__ import annotations

import asyncio
from typing import Any

AGAIN_AFTER = 0.5
"""Seconds a cancelled task has to end before it is cancelled again: well above the time our
tasks take to unwind (no awaited cleanup of theirs lasts that long), so only a lost
cancellation is repeated."""


async def cancel_and_wait(
    *tasks: asyncio.Future[Any] | None, again_after: float = AGAIN_AFTER
) -> None:
    """Cancel ``tasks`` (``None`` ones skipped) and wait until each has ended, however it
    ended; one still running ``again_after`` seconds after a cancellation gets another."""
    live = [task for task in tasks if task is not None]
    pending = {task for task in live if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _ended, pending = await asyncio.wait(pending, timeout=again_after)
    for task in live:
        if not task.cancelled():
            task.exception()  # retrieved: a stopping task's error is not worth a warning
