"""What moderators did, carried out on this process: every process reads the audit log from
its last entry on, in order, and applies each entry's effects to what it holds. A banned
player's sockets here close at once (4403, the reason in the close frame), a sanctioned player's
sockets here hear what, why and until when, a cached standing is dropped (the next chat line or
request reads the new one), a renamed player's seats show the new name, a closed table here
closes.

The log is the truth and the cluster's broadcast only a wake-up: an action made through the
API wakes every process at once; one made on the command line (``cardroom admin``), or a
broadcast lost on the way, is found by the next poll (``CARDROOM_MODERATION_POLL`` seconds).
Each entry is applied once per process, in the order it was written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from starlette.concurrency import run_in_threadpool

from cardroom.cancelling import cancel_and_wait
from cardroom.moderation import audit
from cardroom.moderation.sanctions import BAN, RENAME
from cardroom.server.auth import Auth
from cardroom.server.cluster import Cluster
from cardroom.server.connection import sockets_of
from cardroom.server.protocol import dumps
from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity

log = logging.getLogger(__name__)
T = TypeVar("T")

WAKE = "moderation"  # the broadcast's kind
CLOSE_BANNED = 4403  # a banned player's sockets (docs/protocol.md)
MAX_CLOSE_REASON = 120  # bytes a close frame's reason may hold (123), with room to spare


class ModerationWatch:
    def __init__(
        self, engine: Engine, tables: Any, auth: Auth, cluster: Cluster, poll: float
    ) -> None:
        self.engine = engine
        self.tables = tables
        self.auth = auth
        self.cluster = cluster
        self.poll = poll
        self.last = 0  # the last audit entry carried out here
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _read(self, reader: Callable[[Connection], T]) -> T:
        def run() -> T:
            with self.engine.connect() as conn:
                return reader(conn)

        return await run_in_threadpool(run)

    async def start(self) -> None:
        """From now on: what was done before this process started needs no carrying out (its
        sockets and caches are new)."""
        self.last = await self._read(audit.last_id)
        self.cluster.listen(WAKE, lambda _message: self._wake.set())
        self._task = asyncio.create_task(self._watch(), name="moderation-watch")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)

    def announce(self, entry_id: int) -> None:
        """Wake every process (this one too) for the entry just written."""
        self.cluster.broadcast(WAKE, {"id": entry_id})

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()
            try:
                await self.catch_up()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database out of reach: the next poll tries again
                log.warning("moderation: the audit log could not be read", exc_info=True)

    async def catch_up(self) -> int:
        """Carry out every entry written since the last one: how many there were."""
        async with self._lock:
            entries = await self._read(lambda conn: audit.since(conn, self.last))
            for entry in entries:
                self.last = entry["id"]
                try:
                    await self.apply(entry)
                except Exception:  # one entry's failure must not hold up the ones after it
                    log.exception("moderation: audit entry %s could not be applied", entry["id"])
            return len(entries)

    async def apply(self, entry: dict[str, Any]) -> None:
        action, target, details = entry["action"], entry["target"], entry["details"]
        if action in ("sanction", "lift", "grant"):
            self.auth.changed(target)  # the next request or chat line reads the standing anew
        if action in ("sanction", "lift"):
            self._tell(target, {"type": "sanction", "sanction": details})
        if action == "sanction" and details.get("kind") == BAN:
            reason = f"banned: {details.get('reason', '')}".encode()[:MAX_CLOSE_REASON]
            for conn in sockets_of(target):
                conn.close(CLOSE_BANNED, reason.decode(errors="ignore"))
        if action == "sanction" and details.get("kind") == RENAME:
            await self._rename(Identity(target, details["details"]["to"]))
        if action == "close_table":
            await self._close(entry)

    def _tell(self, player_id: str, message: dict[str, Any]) -> None:
        text = dumps(message)
        for conn in sockets_of(player_id):
            conn.send(text)

    async def _rename(self, player: Identity) -> None:
        for actor in list(self.tables.by_id.values()):
            if actor.seat_of(player.id) is not None or actor.owner.id == player.id:
                with contextlib.suppress(Refusal):  # the table closed meanwhile
                    await actor.ask(actor.rename_player, player)

    async def _close(self, entry: dict[str, Any]) -> None:
        actor = self.tables.by_id.get(entry["target"])
        if actor is None or actor.closed:
            return  # another process runs it (it closes it), or it is closed already
        by = Identity(entry["actor"]["id"] or "command-line", entry["actor"]["name"])
        with contextlib.suppress(Refusal):
            await actor.ask(actor.close_by_moderator, by, entry["reason"])
