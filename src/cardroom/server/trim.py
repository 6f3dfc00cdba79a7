"""Keeping a long-running server's memory flat: freed memory handed back to the system now
and then (glibc's ``malloc_trim``), and garbage in reference cycles collected every minute.

A server that was saturated keeps the memory of its peak: glibc holds freed heap pages for
reuse, so the resident size per table after a flat-out minute stays well above what the
tables hold (docs/performance.md). Trimming every few seconds returns the free pages; it
runs on a thread (the call releases the GIL), so the loop is not held while glibc walks its
heap. Elsewhere than glibc (musl, macOS) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable

last_collection = {"seconds": 0.0, "collected": 0, "count": 0}
"""The last full collection's pause and what it freed (the soak's probe reads it)."""


def malloc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        function = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_size_t]
    function.restype = ctypes.c_int
    return lambda: int(function(0))


async def trim_every(seconds: float) -> None:
    """Trim every ``seconds`` until cancelled (0: never)."""
    if seconds <= 0:
        return
    trim = malloc_trim()
    if trim is None:
        return
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(seconds)
        try:
            await loop.run_in_executor(None, trim)
        except RuntimeError:  # the default executor is gone: the server is stopping
            return


async def collect_every(seconds: float) -> None:
    """A full garbage collection every ``seconds`` until cancelled (0: Python's own schedule).

    The server's collector thresholds make full collections rare (fewer pauses of the loop),
    so garbage in reference cycles waits for one: each closed WebSocket leaves a cycle of
    uvicorn's and websockets' protocol objects behind (a few KB), and a room with watchers
    coming and going piles up tens of thousands an hour (``cardroom bench soak``,
    docs/performance.md). A collection a minute frees them while they are few; the objects
    frozen at start-up are not scanned, so it costs milliseconds."""
    if seconds <= 0:
        return
    while True:
        await asyncio.sleep(seconds)
        started = time.perf_counter()
        freed = gc.collect()
        last_collection.update(
            seconds=time.perf_counter() - started,
            collected=freed,
            count=last_collection["count"] + 1,
        )
