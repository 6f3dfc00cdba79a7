"""A server's stop in named steps, each bounded: one that hangs is logged and left behind.

A stop that waits forever on one part (a Redis read, a table's last write) is killed by whoever
sent SIGTERM (systemd after 90 s, a test after 20) with nothing said of why; here each awaited
step has the grace to finish, and one that overruns is named in the log with where every
pending task was waiting, and one that takes long is named with its time.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("cardroom.server")

Step = tuple[str, Callable[[], Awaitable[object] | object]]
SLOW = 1.0  # seconds: a step this long is named in the log even when it ends
SHOWN_TASKS = 12  # pending tasks described when a step overruns, at most


async def close_in_steps(
    steps: list[Step], grace: float, clock: Callable[[], float] = time.monotonic
) -> None:
    """Run ``steps`` in order; an awaited step is given ``grace`` seconds, then abandoned."""
    for name, step in steps:
        began = clock()
        try:
            result = step()
            if inspect.isawaitable(result):
                pending = asyncio.ensure_future(result)
                done, _ = await asyncio.wait({pending}, timeout=grace)
                if not done:
                    log.error(
                        "stopping: %s did not finish within %g s; left behind; waiting: %s",
                        name,
                        grace,
                        waiting(),
                    )
                    pending.cancel()
                    continue
                pending.result()
        except Exception:
            log.exception("stopping: %s failed", name)
            continue
        took = clock() - began
        if took >= SLOW:
            log.warning("stopping: %s took %.1f s", name, took)


def waiting() -> str:
    """Where each pending task (but this one) is waiting, on one line: its name and the
    chain of coroutines it awaits, innermost last."""
    this = asyncio.current_task()
    tasks = [t for t in asyncio.all_tasks() if t is not this and not t.done()]
    shown = [f"{t.get_name()} at {' > '.join(awaits(t.get_coro()))}" for t in tasks]
    more = len(shown) - SHOWN_TASKS
    return "; ".join(shown[:SHOWN_TASKS]) + (f"; and {more} more" if more > 0 else "")


def awaits(coroutine: Any) -> list[str]:
    """``function:line`` of each coroutine or generator in the chain ``coroutine`` awaits."""
    out: list[str] = []
    while coroutine is not None and len(out) < 8:
        frame = getattr(coroutine, "cr_frame", None) or getattr(coroutine, "gi_frame", None)
        if frame is None:
            break
        out.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        coroutine = getattr(coroutine, "cr_await", None) or getattr(coroutine, "gi_yieldfrom", None)
    return out
