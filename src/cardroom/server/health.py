"""``/healthz`` (the process lives) and ``/readyz`` (it can serve: its database answers, and
with several processes, Redis answers and this process's lease heartbeat is fresh).

A load balancer sends players only to a ready process; an orchestrator restarts one that is
not healthy. Each check is cheap (``SELECT 1``, a ``PING``, a clock read) and bounded in time.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Engine, text
from starlette.concurrency import run_in_threadpool

CHECK_TIMEOUT = 3.0  # seconds a check may take before it counts as failed


def reason(error: BaseException) -> str:
    """The first line of what went wrong (a driver adds hints on further lines)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return " ".join(lines[0].split()) if lines else type(cause).__name__


class Readiness:
    """The checks of ``/readyz``: the database, then what the cluster adds (Redis, leases)."""

    def __init__(self, engine: Engine, cluster: Any) -> None:
        self.engine = engine
        self.cluster = cluster

    def _select_one(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    async def database(self) -> dict[str, Any]:
        try:
            await asyncio.wait_for(run_in_threadpool(self._select_one), CHECK_TIMEOUT)
        except TimeoutError:
            return {"ok": False, "error": f"no answer to SELECT 1 within {CHECK_TIMEOUT:g} s"}
        except Exception as error:
            return {"ok": False, "error": reason(error)}
        return {"ok": True}

    async def check(self) -> tuple[bool, dict[str, Any]]:
        """Whether every check passed, and each check's ``{"ok", "error"?, ...}``."""
        checks = {"database": await self.database(), **await self.cluster.ready()}
        return all(c["ok"] for c in checks.values()), checks
