"""What a process holds, for the soak benchmark (``cardroom bench soak``, docs/performance.md):
``GET /internal/probe``, only when ``CARDROOM_PROBE=1`` and only with the metrics token when
one is set. It counts what could grow in a process that runs for weeks: memory, the Python
heap, tasks, threads, descriptors, database connections, live tables and sockets, every
bounded cache, and the most numerous live objects by type (the soak's "top growers").

Walking every object takes tens of milliseconds on a busy process: a probe every 10 s is
cheap, which is why it is off unless asked for.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
from collections import Counter
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from cardroom.server import trim
from cardroom.server.metrics import SOCKETS
from cardroom.tables.errors import Refusal

router = APIRouter()
TOP_TYPES = 40  # object types listed, the most numerous first


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def _objects(collect: bool = False) -> dict[str, int]:
    if collect:
        gc.collect()
    counts = Counter(type(o).__qualname__ for o in gc.get_objects())
    return dict(counts.most_common(TOP_TYPES))


def _sizes(state: Any) -> dict[str, int]:
    """Every kept collection of the process whose size is bounded by a setting."""
    out: dict[str, int] = {}
    guards = state.guards
    for name, value in vars(guards).items():
        if hasattr(value, "__len__"):
            out[f"limiter:{name}"] = len(value)
    tables = state.tables
    out["tables"] = len(tables.by_id)
    out["reviews"] = len(state.reviews)
    out["plots"] = len(getattr(state.plots, "_png", ()))
    out["players_cached"] = len(state.auth.players)
    out["queue_waiting"] = len(state.queue.waiters)
    bots = tables.services.bots
    out["bots_cached"] = len(bots.bots)
    return out


@router.get("/internal/probe", include_in_schema=False)
async def probe(request: Request) -> dict[str, Any]:
    settings = request.app.state.settings
    if not settings.probe:
        raise Refusal(404, "not_found", "not found")
    if settings.metrics_token:
        expected = f"Bearer {settings.metrics_token}"
        if request.headers.get("authorization") != expected:
            raise Refusal(404, "not_found", "not found")
    engine = request.app.state.journal.engine
    pool = engine.pool
    checked_out = pool.checkedout() if hasattr(pool, "checkedout") else -1
    # ``?collect=1``: a full collection first, so what is counted is what is really held
    # (unreachable cycles not yet collected count otherwise).
    collect = request.query_params.get("collect") == "1"
    objects = await run_in_threadpool(_objects, collect)
    return {
        "pid": os.getpid(),
        "rss": _rss(),
        "heap_blocks": sys.getallocatedblocks(),
        "tasks": len(asyncio.all_tasks()),
        "threads": threading.active_count(),
        "fds": _fds(),
        "db_connections": checked_out,
        "sockets": int(SOCKETS._value.get()),  # the gauge's own count (metrics.py)
        "sizes": _sizes(request.app.state),
        "gc": [s["collected"] for s in gc.get_stats()],
        "gc_last": dict(trim.last_collection),
        "objects": objects,
    }
