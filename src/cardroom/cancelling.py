"""Ending background tasks from a coroutine that may itself be cancelled.

``task.cancel()`` then ``await task`` inside ``suppress(CancelledError)`` also swallows a
cancellation of the awaiting coroutine: a stop given a time limit (server/closing.py) then
runs on past it as if nothing had happened. ``gather(..., return_exceptions=True)`` collects
the tasks' own endings and still lets the caller's cancellation through.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Future[Any] | None) -> None:
    """Cancel ``tasks`` (``None`` ones skipped) and wait until each has ended, however it ended."""
    live = [task for task in tasks if task is not None]
    for task in live:
        task.cancel()
    if live:
        await asyncio.gather(*live, return_exceptions=True)
