"""A server's stop in named steps, each bounded: one that hangs is logged and left behind.

A stop that waits forever on one part (a Redis read, a table's last write) is killed by whoever
sent SIGTERM (systemd after 90 s, a test after 20) with nothing said of why; here each awaited
step has the grace to finish, and one that overruns, or a blocking step that takes long, is
named in the log.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("cardroom.server")

Step = tuple[str, Callable[[], Awaitable[object] | object]]
SLOW = 1.0  # seconds: a step this long is named in the log even when it ends


async def close_in_steps(
    steps: list[Step], grace: float, clock: Callable[[], float] = time.monotonic
) -> None:
    """Run ``steps`` in order; an awaited step is given ``grace`` seconds, then abandoned."""
    for name, step in steps:
        began = clock()
        try:
            result = step()
            if inspect.isawaitable(result):
                await asyncio.wait_for(result, grace)
        except TimeoutError:
            log.error("stopping: %s did not finish within %g s; left behind", name, grace)
            continue
        except Exception:
            log.exception("stopping: %s failed", name)
            continue
        took = clock() - began
        if took >= SLOW:
            log.warning("stopping: %s took %.1f s", name, took)
