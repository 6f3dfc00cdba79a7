"""Where tables live: this process alone (``LocalCluster``), or several processes that share
PostgreSQL and Redis (``RedisCluster``, ``docs/scaling.md``).

The registry (``registry.py``) asks its cluster three things: may this process own a table
(``claim``), where is a table this process does not own (``locate``), and what do the other
processes list in their lobbies. One process with no Redis answers "yes, nowhere, nothing":
the same code path as before there was a cluster. What a cluster asks of the registry in turn
is ``TableDirectory``, a protocol, so the registry imports its cluster and not the reverse;
which cluster a process joins is the app's choice (``app.make_cluster``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from cardroom.tables.errors import Refusal

if TYPE_CHECKING:
    from cardroom.server.actor import Services, TableActor

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]


def not_found(table_id: str) -> Refusal:
    return Refusal(404, "not_found", f"no open table {table_id!r}")


class TableDirectory(Protocol):
    """What a cluster asks of this process's tables (``registry.Tables``): which it runs, to
    drop one another process now owns, and to adopt one whose process died."""

    @property
    def services(self) -> Services: ...

    @property
    def by_id(self) -> dict[str, TableActor]: ...

    def public(self) -> list[TableActor]: ...

    def drop(self, actor: TableActor, code: int) -> None: ...

    async def adopt(self, table_id: str) -> TableActor | None: ...

    async def adopted(self, table_id: str) -> TableActor | None: ...


class Cluster:
    """The interface, with the answers of a process that is the only one (``LocalCluster``)."""

    node = "local"

    def __init__(self) -> None:
        self.listeners: dict[str, Listener] = {}
        # What this process says of itself in the console's live view (set by the app).
        self.census: Callable[[], dict[str, Any]] = lambda: {}

    def listen(self, kind: str, listener: Listener) -> None:
        """Hear every ``broadcast`` of ``kind``, from any process (this one included)."""
        self.listeners[kind] = listener

    def broadcast(self, kind: str, message: dict[str, Any]) -> None:
        """Tell every process (here: only this one), e.g. that a shared kept game changed."""
        self.hear(kind, message)

    def hear(self, kind: str, message: dict[str, Any]) -> None:
        listener = self.listeners.get(kind)
        if listener is None:
            return
        try:
            listener(message)
        except Exception:  # one listener's bug must not stop the bus or the caller
            log.exception("a %s broadcast could not be handled", kind)

    async def start(self, tables: TableDirectory) -> None:
        """Begin serving others (after this process restored the tables it owns)."""
        self.tables = tables

    async def stop(self) -> None:
        """Hand this process's tables over at shutdown (its tables are stopped already)."""

    async def censuses(self) -> list[dict[str, Any]]:
        """Each live process's census (tables, sockets), this one's first: alone, just it."""
        return [{"node": self.node, **self.census()}]

    async def ready(self) -> dict[str, dict[str, Any]]:
        """What ``/readyz`` checks besides the database (``health.py``): nothing, alone."""
        return {}

    async def claim(self, table_id: str) -> bool:
        """May this process run the table's actor? (Creating it, restoring it, taking over.)"""
        return True

    def announce(self, actor: TableActor) -> None:
        """A table now runs here: other processes' lobbies may list it."""

    async def release(self, table_id: str) -> None:
        """Give up a table this process claimed but will not run."""

    def released(self, actor: TableActor) -> None:
        """The table has closed here: others need not look for it any more."""

    async def locate(self, table_id: str) -> Any:
        """A table this process does not run: a ``RemoteTable``, or the actor once taken over."""
        raise not_found(table_id)

    async def listing(self) -> list[dict[str, Any]]:
        """Public tables the other processes host (their ``info()``)."""
        return []

    async def claim_name(self, key: str, table_id: str) -> str | None:
        """Reserve a private table name for ``table_id``; the id holding it already, if any."""
        return None

    async def forget_name(self, key: str, table_id: str) -> None:
        """The table holding ``key`` has gone: the name is free again."""


class LocalCluster(Cluster):
    """One process, any database: every table is here, and nothing is forwarded."""
