"""Several server processes sharing PostgreSQL and Redis (``docs/scaling.md``).

Each table is run by exactly one process, the holder of its lease (``store/lease.py``); the
others forward to it over the bus (``store/bus.py``, ``forwarding.py``). A heartbeat renews
this process's leases, stops any table whose lease it lost (it must not write any more), and
takes over open tables whose lease has lapsed (their process died) by restoring them from the
database, exactly as a restart does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT

from cardroom.cancelling import cancel_and_wait
from cardroom.server.auth import Identity
from cardroom.server.cluster import Cluster, TableDirectory, not_found
from cardroom.server.forwarding import (
    RemoteConnection,
    RemoteTable,
    decode_request,
    error_from_json,
    error_json,
)
from cardroom.store import repository as repo
from cardroom.store.bus import Bus
from cardroom.store.lease import Leases
from cardroom.tables import commands as c
from cardroom.tables.errors import Refusal

if TYPE_CHECKING:
    from cardroom.server.actor import TableActor
    from cardroom.server.connection import Connection
    from cardroom.server.settings import Settings

log = logging.getLogger(__name__)

REPLY_TIMEOUT = 15.0  # seconds an owner has to answer a forwarded call
MOVED = "moved"  # the answer of a process that does not (or no longer) own the table
SERVICE_RESTART = 1012  # close code: reconnect (the web client does; docs/protocol.md)

_COMPARE_AND_DELETE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(slots=True)
class Forward:
    """A socket held here whose table another process owns."""

    conn: Connection
    table_id: str
    owner: str


class RedisCluster(Cluster):
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.redis = Redis.from_url(settings.redis_url)
        self.prefix = settings.redis_prefix
        self.ttl = settings.lease_ttl
        self.node = settings.node_id or (
            f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        )
        self.leases = Leases(self.redis, self.prefix, self.node, self.ttl)
        self.bus = Bus(self.redis, self.channel(self.node), self.on_message)
        # What every process hears (a shared kept game changed): one channel all subscribe to.
        self.everyone = Bus(self.redis, f"{self.prefix}everyone", self._heard)
        self.forwards: dict[str, Forward] = {}  # conn id -> socket held here, table elsewhere
        self.conn_ids: dict[Connection, str] = {}
        self.remote: dict[str, RemoteConnection] = {}  # conn id -> socket elsewhere, table here
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._delete_if = self.redis.register_script(_COMPARE_AND_DELETE)
        self._heartbeat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_renewed = 0.0

    def channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}:bus"

    @property
    def lobby_key(self) -> str:
        return f"{self.prefix}lobby"

    @property
    def census_key(self) -> str:
        return f"{self.prefix}census"

    def post(self, node: str, message: dict[str, Any]) -> None:
        self.bus.post(self.channel(node), message)

    def broadcast(self, kind: str, message: dict[str, Any]) -> None:
        self.everyone.post(self.everyone.channel, {"kind": kind, "message": message})

    def _heard(self, data: dict[str, Any]) -> None:
        if isinstance(data.get("kind"), str) and isinstance(data.get("message"), dict):
            self.hear(data["kind"], data["message"])

    # -- life ------------------------------------------------------------------------------------

    async def start(self, tables: TableDirectory) -> None:
        self.tables = tables
        self._last_renewed = asyncio.get_running_loop().time()
        await self.leases.beat()
        await self.bus.start()
        await self.everyone.start()
        self._heartbeat = asyncio.create_task(self._beat_forever(), name="cluster-heartbeat")

    async def stop(self) -> None:
        await cancel_and_wait(self._heartbeat)
        with contextlib.suppress(Exception):
            for conn in list(self.remote.values()):
                conn.close(SERVICE_RESTART)
            for fwd in list(self.forwards.values()):
                fwd.conn.close(SERVICE_RESTART)
            await self.bus.stop()
            await self.everyone.stop()
            for table_id in list(self.tables.by_id):
                await self.leases.release(table_id)
            if self.tables.by_id:
                await self.redis.hdel(self.lobby_key, *self.tables.by_id)
            await self.redis.hdel(self.census_key, self.node)
            await self.leases.gone()
        await self.redis.aclose()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- leases ----------------------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        return await self.leases.claim(table_id)

    def announce(self, actor: TableActor) -> None:
        if actor.public:
            self._spawn(self.redis.hset(self.lobby_key, actor.id, json.dumps(actor.info())))

    async def release(self, table_id: str) -> None:
        await self.leases.release(table_id)

    def released(self, actor: TableActor) -> None:
        async def release() -> None:
            await self.leases.release(actor.id)
            await self.redis.hdel(self.lobby_key, actor.id)

        self._spawn(release())

    async def _beat_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: heartbeat failed", exc_info=True)
                if loop.time() - self._last_renewed > self.ttl:
                    # Our leases have lapsed: another process may run these tables now.
                    for actor in list(self.tables.by_id.values()):
                        self.tables.drop(actor, SERVICE_RESTART)

    async def ready(self) -> dict[str, dict[str, Any]]:
        """Redis answers a PING, and this process renewed its leases within two heartbeats."""
        from cardroom.server.health import CHECK_TIMEOUT, reason

        try:
            await asyncio.wait_for(self.redis.ping(), CHECK_TIMEOUT)
            redis: dict[str, Any] = {"ok": True}
        except Exception as error:
            redis = {"ok": False, "error": reason(error) or "no answer to PING"}
        age = round(asyncio.get_running_loop().time() - self._last_renewed, 3)
        leases: dict[str, Any] = {"ok": age <= 2 * self.ttl / 3, "age_seconds": age}
        if not leases["ok"]:
            leases["error"] = f"leases last renewed {age:g} s ago (lease ttl {self.ttl:g} s)"
        return {"redis": redis, "leases": leases}

    async def beat(self) -> None:
        """Renew, let go of what was lost, notice who died, take over orphaned tables."""
        await self.leases.beat()
        lost = await self.leases.renew(list(self.tables.by_id))
        self._last_renewed = asyncio.get_running_loop().time()
        for table_id in lost:
            actor = self.tables.by_id.get(table_id)
            if actor is not None:
                log.warning("cluster: lost the lease of table %s; stopping it here", table_id)
                self.tables.drop(actor, SERVICE_RESTART)
        await self._forget_dead_sockets()
        await self._check_forwards()
        await self._publish_lobby()
        await self.redis.hset(self.census_key, self.node, json.dumps(self.census()))
        await self._take_over_orphans()

    async def _forget_dead_sockets(self) -> None:
        """Sockets whose process died are gone (presence: the abandoned-table timer is right)."""
        nodes = {conn.node for conn in self.remote.values()}
        dead = nodes - await self.leases.alive(nodes)
        for conn in [r for r in self.remote.values() if r.node in dead]:
            self.remote.pop(conn.conn_id, None)
            conn.closed = True
            actor = self.tables.by_id.get(conn.table_id)
            if actor is not None:
                actor.tell(actor.disconnect, conn)

    async def _check_forwards(self) -> None:
        """Sockets here whose table changed hands reconnect, to reach the new owner."""
        table_ids = sorted({fwd.table_id for fwd in self.forwards.values()})
        owners = await self.leases.owners(table_ids)
        for conn_id, fwd in list(self.forwards.items()):
            if owners.get(fwd.table_id) != fwd.owner:
                self._end_forward(conn_id, SERVICE_RESTART)

    async def _publish_lobby(self) -> None:
        infos: dict[FieldT, EncodableT] = {a.id: json.dumps(a.info()) for a in self.tables.public()}
        if infos:
            await self.redis.hset(self.lobby_key, mapping=infos)

    async def _take_over_orphans(self) -> None:
        open_ids = await self.tables.services.journal.run(repo.open_table_ids)
        candidates = [t for t in open_ids if t not in self.tables.by_id]
        owners = await self.leases.owners(candidates)
        for table_id, owner in owners.items():
            if owner is None:
                with contextlib.suppress(Refusal):
                    if await self.tables.adopt(table_id) is not None:
                        log.warning("cluster: took over table %s", table_id)

    # -- finding a table -------------------------------------------------------------------------

    async def locate(self, table_id: str) -> Any:
        """The table's owner, waiting out a dead owner's lease (then taking the table over)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * self.ttl + REPLY_TIMEOUT
        while True:
            owner = await self.leases.owner(table_id)
            if owner is None:
                actor = await self.tables.adopt(table_id)  # 404 if it is not open
                if actor is not None:
                    return actor
            elif owner == self.node:
                actor = self.tables.by_id.get(table_id)
                if actor is not None and not actor.closed:
                    return actor
                adopted = await self.tables.adopted(table_id)
                if adopted is not None:
                    return adopted
            else:
                remote = RemoteTable(self, table_id, owner)
                reply = await self._request(owner, {"t": "call", "method": "info"}, table_id)
                if reply is not None:
                    if "error" in reply:
                        raise error_from_json(reply["error"])
                    remote._info = reply["info"]
                    return remote
            if loop.time() > deadline:
                raise Refusal(503, "unavailable", "the table's server does not answer; retry")
            await asyncio.sleep(self.ttl / 10)

    async def censuses(self) -> list[dict[str, Any]]:
        """This process's census, then the other live processes' as of their last heartbeat
        (a process that died is left out, and its entry dropped)."""
        entries = {_text(k): v for k, v in (await self.redis.hgetall(self.census_key)).items()}
        others = [node for node in entries if node != self.node]
        alive = await self.leases.alive(others)
        dead = [node for node in others if node not in alive]
        if dead:
            await self.redis.hdel(self.census_key, *dead)
        found = [{"node": self.node, **self.census()}]
        found += [{"node": node, **json.loads(entries[node])} for node in sorted(alive)]
        return found

    async def listing(self) -> list[dict[str, Any]]:
        entries = await self.redis.hgetall(self.lobby_key)
        infos = {_text(k): json.loads(v) for k, v in entries.items()}
        owners = await self.leases.owners(list(infos))
        return [
            info
            for table_id, info in infos.items()
            if owners.get(table_id) not in (None, self.node)
        ]

    async def claim_name(self, key: str, table_id: str) -> str | None:
        name_key = f"{self.prefix}name:{key}"
        if await self.redis.set(name_key, table_id, nx=True):
            return None
        value = await self.redis.get(name_key)
        return _text(value) if value is not None else None

    async def forget_name(self, key: str, table_id: str) -> None:
        await self._delete_if(keys=[f"{self.prefix}name:{key}"], args=[table_id])

    # -- calls to an owner -----------------------------------------------------------------------

    async def _request(
        self, owner: str, message: dict[str, Any], table_id: str
    ) -> dict[str, Any] | None:
        """Send a call and wait for its answer; None if nobody (or no longer) owns the table."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = future
        try:
            message = {**message, "table": table_id, "rid": rid, "node": self.node}
            received = await self.bus.post(self.channel(owner), message, count=True)
            if not received:
                return None
            try:
                reply = await asyncio.wait_for(future, REPLY_TIMEOUT)
            except TimeoutError:
                raise Refusal(
                    503, "unavailable", "the table's server did not answer in time; retry"
                ) from None
        finally:
            self.pending.pop(rid, None)
        if reply.get("error", {}).get("code") == MOVED:
            return None
        return reply

    async def call(self, remote: RemoteTable, command: Any) -> Any:
        """Run a lobby command (a master command, sent by value) at the owner; follow the
        table if it changed hands."""
        message = {"t": "call", "command": c.lobby_command_to_json(command)}
        while True:
            reply = await self._request(remote.owner_node, message, remote.id)
            if reply is not None:
                if "error" in reply:
                    raise error_from_json(reply["error"])
                remote._info = reply["info"]
                return reply.get("result")
            target = await self.locate(remote.id)
            if not isinstance(target, RemoteTable):  # it is ours now
                result = await target.ask(target.run, command)
                remote._info = target.info()
                return result
            remote.owner_node = target.owner_node

    # -- sockets held here, tables elsewhere (gateway side) --------------------------------------

    async def forward_connect(
        self, remote: RemoteTable, conn: Connection, since: int | None
    ) -> None:
        conn_id = secrets.token_hex(8)
        while True:
            self.forwards[conn_id] = Forward(conn, remote.id, remote.owner_node)
            self.conn_ids[conn] = conn_id
            message = {
                "t": "connect",
                "conn": conn_id,
                "player": [conn.identity.id, conn.identity.name],
                "since": since,
                "batch": conn.batch,
            }
            try:
                reply = await self._request(remote.owner_node, message, remote.id)
            except Refusal:
                self._end_forward(conn_id, None)
                raise
            if reply is not None:
                if "error" in reply:
                    self._end_forward(conn_id, None)
                    raise error_from_json(reply["error"])
                return
            self.forwards.pop(conn_id, None)
            target = await self.locate(remote.id)
            if not isinstance(target, RemoteTable):  # the table came here meanwhile
                self.conn_ids.pop(conn, None)
                remote.local = target
                return
            remote.owner_node = target.owner_node

    def forward(self, conn: Connection, kind: str, **fields: Any) -> None:
        conn_id = self.conn_ids.get(conn)
        fwd = self.forwards.get(conn_id) if conn_id is not None else None
        if fwd is None:
            return
        message = {"t": kind, "conn": conn_id, "table": fwd.table_id, "node": self.node, **fields}
        received = self.bus.post(self.channel(fwd.owner), message, count=True)

        def check(future: asyncio.Future[int]) -> None:
            if not future.cancelled() and future.result() == 0 and conn_id in self.forwards:
                self._end_forward(conn_id, SERVICE_RESTART)  # the owner is gone: reconnect

        received.add_done_callback(check)

    def forward_gone(self, conn: Connection) -> None:
        conn_id = self.conn_ids.pop(conn, None)
        fwd = self.forwards.pop(conn_id, None) if conn_id is not None else None
        if fwd is not None:
            self.post(fwd.owner, {"t": "gone", "conn": conn_id, "table": fwd.table_id})

    def _end_forward(self, conn_id: str, code: int | None) -> None:
        fwd = self.forwards.pop(conn_id, None)
        if fwd is not None:
            self.conn_ids.pop(fwd.conn, None)
            if code is not None:
                fwd.conn.close(code)

    # -- messages from the bus -------------------------------------------------------------------

    def on_message(self, data: dict[str, Any]) -> None:
        kind = data.get("t")
        if kind == "out":
            fwd = self.forwards.get(data["conn"])
            if fwd is not None:
                fwd.conn.send(data["text"])
        elif kind == "close":
            self._end_forward(data["conn"], int(data.get("code") or 1000))
        elif kind == "reply":
            future = self.pending.get(data["rid"])
            if future is not None and not future.done():
                future.set_result(data)
        else:
            self._serve(kind, data)

    def _serve(self, kind: Any, data: dict[str, Any]) -> None:
        """A call for a table this process owns (or owned: then the caller hears ``moved``)."""
        actor = self.tables.by_id.get(data.get("table", ""))
        if actor is not None and actor.closed:
            actor = None
        if kind == "call":
            self._serve_call(actor, data)
        elif kind == "connect":
            self._serve_connect(actor, data)
        elif kind in ("action", "resync", "chat", "hint", "ready", "gone"):
            conn = self.remote.get(data["conn"])
            if kind == "gone":
                self.remote.pop(data["conn"], None)
            if conn is None or actor is None:
                if kind != "gone":  # a socket we do not know: let it reconnect
                    self.post(data["node"], {"t": "close", "conn": data["conn"], "code": 1012})
                return
            if kind == "action":
                actor.tell(actor.handle_action, conn, decode_request(data["req"]))
            elif kind == "resync":
                actor.tell(actor.resync, conn)
            elif kind == "chat":
                actor.tell(actor.chat, conn, str(data.get("text", "")))
            elif kind == "hint":
                actor.tell(actor.hint, conn)
            elif kind == "ready":
                actor.tell(actor.ready, conn)
            else:
                conn.closed = True
                actor.tell(actor.disconnect, conn)

    def _reply(self, data: dict[str, Any], **fields: Any) -> None:
        self.post(data["node"], {"t": "reply", "rid": data["rid"], **fields})

    def _moved(self, data: dict[str, Any]) -> None:
        self._reply(data, error={"status": 503, "code": MOVED, "message": "not here"})

    def _serve_call(self, actor: TableActor | None, data: dict[str, Any]) -> None:
        if actor is None:
            return self._moved(data)
        if data.get("method") == "info":
            return self._reply(data, info=actor.info())
        try:
            command = c.lobby_command_from_json(data.get("command"))
        except ValueError as error:
            return self._reply(data, error=error_json(Refusal(400, "bad_request", str(error))))
        self._answer(actor, data, _enqueue(actor, actor.run, command))

    def _serve_connect(self, actor: TableActor | None, data: dict[str, Any]) -> None:
        if actor is None:
            return self._moved(data)
        conn = RemoteConnection(
            self,
            data["conn"],
            data["node"],
            Identity(*data["player"]),
            actor.id,
            bool(data.get("batch")),
        )
        self.remote[conn.conn_id] = conn
        future = _enqueue(actor, actor.connect, conn, data.get("since"))

        def refused(f: asyncio.Future[Any]) -> None:
            if f.cancelled() or f.exception() is not None:
                self.remote.pop(conn.conn_id, None)

        future.add_done_callback(refused)
        self._answer(actor, data, future)

    def _answer(self, actor: TableActor, data: dict[str, Any], future: asyncio.Future[Any]) -> None:
        def done(f: asyncio.Future[Any]) -> None:
            error = None if f.cancelled() else f.exception()
            if f.cancelled() or (error is not None and not isinstance(error, Refusal)):
                if error is not None:
                    log.error("table %s: a forwarded call failed", actor.id, exc_info=error)
                error = Refusal(500, "server_error", "the table could not do that")
            if isinstance(error, Refusal):
                self._reply(data, error=error_json(error))
            else:
                self._reply(data, result=f.result(), info=actor.info())

        future.add_done_callback(done)


def _text(value: bytes | str) -> str:
    """A reply as text: bytes from this client, str if the URL asks for decode_responses (as
    ``Leases`` and the matchmaking store read them)."""
    return value.decode() if isinstance(value, bytes) else value


def _enqueue(actor: TableActor, command: Any, *args: Any) -> asyncio.Future[Any]:
    """Put a command in the table's inbox now (keeping the order messages arrived in)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    if actor.closed:
        future.set_exception(not_found(actor.id))
    else:
        actor.inbox.put_nowait((command, args, future))
    return future
