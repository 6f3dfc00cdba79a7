"""Handing freed memory back to the system now and then (glibc's ``malloc_trim``).

A server that was saturated keeps the memory of its peak: glibc holds freed heap pages for
reuse, so the resident size per table after a flat-out minute stays well above what the
tables hold (docs/performance.md). Trimming every few seconds returns the free pages; it
runs on a thread (the call releases the GIL), so the loop is not held while glibc walks its
heap. Elsewhere than glibc (musl, macOS) there is nothing to call and nothing is done.

Before a trim, once ``SWEEP_AFTER`` WebSockets have ended since the last one, garbage is
collected in full. A closed socket of uvicorn's sans-io implementation is a reference cycle
(the ``websockets`` protocol and its parser generator, with the handshake's headers and the
buffers), and at the server's collection thresholds (``gc_thresholds``, high so that busy
tables pause rarely) a full collection comes seldom: the memory of closed sockets stayed in
use while new sockets took more. A full collection took 8-12 ms at 200 busy tables and
18-24 ms at 500 (docs/performance.md); counting sockets makes a steady table pay nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Callable

SWEEP_AFTER = 64
"""Ended WebSockets (a few KB of garbage each) that make the next trim collect in full."""


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


async def trim_every(seconds: float, sockets_ended: Callable[[], int] = lambda: 0) -> None:
    """Trim every ``seconds`` until cancelled (0: never); collect garbage in full first when
    ``SWEEP_AFTER`` sockets have ended since the last time (``sockets_ended``: a running
    count)."""
    if seconds <= 0:
        return
    trim = malloc_trim()
    if trim is None:
        return
    loop = asyncio.get_running_loop()
    swept = sockets_ended()
    while True:
        await asyncio.sleep(seconds)
        if sockets_ended() - swept >= SWEEP_AFTER:
            swept = sockets_ended()
            gc.collect()  # on the loop: it holds the GIL throughout, on any thread
        try:
            await loop.run_in_executor(None, trim)
        except RuntimeError:  # the default executor is gone: the server is stopping
            return
