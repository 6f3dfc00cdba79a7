"""Leases in Redis: which server process owns which table, and which processes are alive.

A table's lease is ``{prefix}table:{id}:owner = <node>`` set with ``NX PX <ttl>``: at most one
process holds it, and it lapses by itself when its holder stops renewing it (a crash). Renewal
and release compare the value first (in Lua, atomically), so a process whose lease lapsed can
never extend or delete the lease a successor now holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from redis.asyncio import Redis

# KEYS: leases; ARGV[1]: node, ARGV[2]: ttl in ms. Returns the keys no longer held by the node.
_RENEW = """
local lost = {}
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""

# KEYS[1]: a lease; ARGV[1]: node. Deletes it only if the node still holds it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """One process's view of the leases: claim, renew, release, and who holds what."""

    def __init__(self, redis: Redis, prefix: str, node: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.ttl_ms = max(int(ttl * 1000), 100)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}table:{table_id}:owner"

    def node_key(self, node: str) -> str:
        return f"{self.prefix}node:{node}:alive"

    async def claim(self, table_id: str) -> bool:
        """True if this process now holds the table's lease (it was free)."""
        return bool(await self.redis.set(self.key(table_id), self.node, nx=True, px=self.ttl_ms))

    async def renew(self, table_ids: Iterable[str]) -> set[str]:
        """Extend every lease this process holds; the ids whose lease it has lost."""
        ids = list(table_ids)
        if not ids:
            return set()
        keys = [self.key(t) for t in ids]
        lost = await self._renew(keys=keys, args=[self.node, self.ttl_ms])
        lost_keys = {k.decode() if isinstance(k, bytes) else k for k in lost}
        return {t for t, k in zip(ids, keys, strict=True) if k in lost_keys}

    async def release(self, table_id: str) -> bool:
        """Give the table up (closing, shutting down), if this process still holds it."""
        return bool(await self._release(keys=[self.key(table_id)], args=[self.node]))

    async def owner(self, table_id: str) -> str | None:
        value = await self.redis.get(self.key(table_id))
        return value.decode() if isinstance(value, bytes) else value

    async def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        if not table_ids:
            return {}
        values = await self.redis.mget([self.key(t) for t in table_ids])
        return {
            t: (v.decode() if isinstance(v, bytes) else v)
            for t, v in zip(table_ids, values, strict=True)
        }

    # -- processes -------------------------------------------------------------------------------

    async def beat(self) -> None:
        """This process is alive for one more ttl (sockets it forwards are still there)."""
        await self.redis.set(self.node_key(self.node), "1", px=self.ttl_ms)

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        wanted = sorted(set(nodes))
        if not wanted:
            return set()
        values = await self.redis.mget([self.node_key(n) for n in wanted])
        return {n for n, v in zip(wanted, values, strict=True) if v is not None}

    async def gone(self) -> None:
        """This process stops: others need not wait for its heartbeat to lapse."""
        await self.redis.delete(self.node_key(self.node))
