"""Tables owned by another process, and sockets held by another process.

``RemoteTable`` stands, in a process that does not own a table, for that table: the lobby and
the socket endpoint call it exactly as they call a ``TableActor`` (``ask``/``tell`` with
``join``, ``connect``, ``handle_action``...), and it forwards each call to the owner over the
bus. ``RemoteConnection`` stands, in the owner, for a socket held elsewhere: the table sends it
text as to any ``Connection`` and it is forwarded to the one process holding that socket. So
the table code is the same for local and remote people, and each socket gets exactly what the
owner rendered for it (its own seat's view, R7.2), on the channel of its own process only.

What they need of the cluster (``redis_cluster.RedisCluster``, which makes them) is
``Forwarder``, a protocol: this module does not import the cluster that imports it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from cardroom.server.auth import Identity
from cardroom.server.protocol import ActionRequest
from cardroom.tables import commands as c
from cardroom.tables.errors import Refusal

if TYPE_CHECKING:
    from cardroom.server.actor import TableActor
    from cardroom.server.connection import Connection

# -- the wire form of calls ------------------------------------------------------------------------


def encode_request(request: ActionRequest) -> dict[str, Any]:
    return {"id": request.id, "action": request.action, "after": request.after}


def decode_request(data: dict[str, Any]) -> ActionRequest:
    return ActionRequest(data["id"], data["action"], data.get("after"))


def error_json(error: Refusal) -> dict[str, Any]:
    return {
        "status": error.status,
        "code": error.code,
        "message": error.message,
        "rule": error.rule,
    }


def error_from_json(data: dict[str, Any]) -> Refusal:
    return Refusal(data["status"], data["code"], data["message"], data.get("rule"))


# -- what they need of the cluster -----------------------------------------------------------------


class Forwarder(Protocol):
    """The cluster's bus as remote tables and sockets use it (``RedisCluster``)."""

    remote: dict[str, RemoteConnection]  # conn id -> socket elsewhere, table here

    async def call(self, remote: RemoteTable, command: Any) -> Any: ...

    async def forward_connect(
        self, remote: RemoteTable, conn: Connection, since: int | None
    ) -> None: ...

    def forward(self, conn: Connection, kind: str, **fields: Any) -> None: ...

    def forward_gone(self, conn: Connection) -> None: ...

    def post(self, node: str, message: dict[str, Any]) -> None: ...


# -- a table elsewhere -----------------------------------------------------------------------------


class RemoteTable:
    """A table another process owns, with the face of a ``TableActor`` for lobby and sockets."""

    def __init__(self, cluster: Forwarder, table_id: str, owner: str) -> None:
        self.cluster = cluster
        self.id = table_id
        self.owner_node = owner
        self.closed = False
        self.local: TableActor | None = None  # set if the table came to this process meanwhile
        self._info: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def info(self) -> dict[str, Any]:
        """The table as its owner described it in its last answer."""
        return self.local.info() if self.local is not None else self._info

    async def ask(self, command: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        return await command(*args)

    def tell(self, command: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        task = asyncio.create_task(command(*args))  # a task runs a coroutine: async methods
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the socket endpoint's calls --

    async def connect(self, conn: Connection, since: int | None) -> None:
        await self.cluster.forward_connect(self, conn, since)
        if self.local is not None:
            await self.local.ask(self.local.connect, conn, since)

    async def handle_action(self, conn: Connection, request: ActionRequest) -> None:
        if self.local is not None:
            self.local.tell(self.local.handle_action, conn, request)
        else:
            self.cluster.forward(conn, "action", req=encode_request(request))

    async def resync(self, conn: Connection) -> None:
        if self.local is not None:
            self.local.tell(self.local.resync, conn)
        else:
            self.cluster.forward(conn, "resync")

    async def chat(self, conn: Connection, text: str) -> None:
        if self.local is not None:
            self.local.tell(self.local.chat, conn, text)
        else:
            self.cluster.forward(conn, "chat", text=text)

    async def hint(self, conn: Connection) -> None:
        if self.local is not None:
            self.local.tell(self.local.hint, conn)
        else:
            self.cluster.forward(conn, "hint")

    async def ready(self, conn: Connection) -> None:
        if self.local is not None:
            self.local.tell(self.local.ready, conn)
        else:
            self.cluster.forward(conn, "ready")

    async def disconnect(self, conn: Connection) -> None:
        if self.local is not None:
            self.local.tell(self.local.disconnect, conn)
        else:
            self.cluster.forward_gone(conn)

    # -- the lobby's calls: master commands, sent by value to the owner --

    async def join(self, identity: Identity, number: int | None) -> int:
        return await self.cluster.call(self, c.Join(identity, number))

    async def leave(self, identity: Identity) -> None:
        await self.cluster.call(self, c.Leave(identity))

    async def add_bot(self, identity: Identity, number: int | None, level: Any) -> int:
        return await self.cluster.call(self, c.AddBot(identity, number, level))

    async def clear_seat(self, identity: Identity, number: int) -> None:
        await self.cluster.call(self, c.ClearSeat(identity, number))

    async def configure(self, identity: Identity, options: Any, abandon_after: Any) -> None:
        await self.cluster.call(self, c.Configure(identity, options, abandon_after))

    async def start(self, identity: Identity, rematch: bool = False) -> None:
        await self.cluster.call(self, c.Start(identity, rematch))

    async def skip(self, identity: Identity) -> None:
        await self.cluster.call(self, c.SkipTurn(identity))

    async def decline_rematch(self, identity: Identity) -> None:
        await self.cluster.call(self, c.DeclineRematch(identity))

    async def evict(self, identity: Identity, number: Any) -> None:
        await self.cluster.call(self, c.Evict(identity, number))

    async def chat_lines(self, identity: Identity) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self.cluster.call(self, c.ChatLines(identity))
        return result

    async def close_by_moderator(self, identity: Identity, reason: str) -> None:
        await self.cluster.call(self, c.CloseByModerator(identity, reason))


# -- a socket elsewhere ----------------------------------------------------------------------------


class RemoteConnection:
    """In the owner: a socket held by another process, with the face of a ``Connection``."""

    def __init__(
        self,
        cluster: Forwarder,
        conn_id: str,
        node: str,
        identity: Identity,
        table_id: str,
        batch: bool = False,
    ) -> None:
        self.cluster = cluster
        self.batch = batch
        self.conn_id = conn_id
        self.node = node
        self.identity = identity
        self.table_id = table_id
        self.closed = False

    @property
    def player_id(self) -> str:
        return self.identity.id

    def send(self, text: str) -> None:
        if not self.closed:
            self.cluster.post(self.node, {"t": "out", "conn": self.conn_id, "text": text})

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.cluster.remote.pop(self.conn_id, None)
        self.cluster.post(self.node, {"t": "close", "conn": self.conn_id, "code": code})

    async def finish(self) -> None:
        self.closed = True
