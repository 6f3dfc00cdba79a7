"""Where tickets wait: one small interface, kept in memory (one process) or in Redis (several
processes: adding and claiming are atomic scripts, so no ticket is ever booked twice)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from redis.asyncio import Redis

from cardroom.matchmaking.tickets import Ticket


class TicketStore(Protocol):
    async def add(self, ticket: Ticket) -> bool:
        """Queue the ticket; False if one of its players already has a ticket (anywhere)."""

    async def remove(self, ticket: Ticket) -> None:
        """The ticket is withdrawn (its socket closed): gone, unless already claimed."""

    async def waiting(self, queue: str) -> list[Ticket]:
        """The live tickets of one queue (``game:mode``)."""

    async def queues(self) -> list[str]:
        """Queues that may hold tickets."""

    async def claim(self, tickets: Sequence[Ticket]) -> bool:
        """Take every one of the tickets out of the queue, or none of them (False: another
        process matched one first, or it was withdrawn)."""

    async def keep_alive(self, tickets: Sequence[Ticket]) -> None:
        """The process holding these tickets' sockets is alive (Redis: their time to live)."""


class MemoryStore:
    """One process: a dict, and the event loop makes every call atomic."""

    def __init__(self) -> None:
        self.tickets: dict[str, dict[str, Ticket]] = {}
        self.holder: dict[str, str] = {}  # player id -> ticket id

    async def add(self, ticket: Ticket) -> bool:
        if any(p in self.holder for p in ticket.players):
            return False
        self.tickets.setdefault(ticket.queue, {})[ticket.id] = ticket
        self.holder.update((p, ticket.id) for p in ticket.players)
        return True

    async def remove(self, ticket: Ticket) -> None:
        await self.claim([ticket])

    async def waiting(self, queue: str) -> list[Ticket]:
        return list(self.tickets.get(queue, {}).values())

    async def queues(self) -> list[str]:
        return [q for q, held in self.tickets.items() if held]

    async def claim(self, tickets: Sequence[Ticket]) -> bool:
        if not all(t.id in self.tickets.get(t.queue, {}) for t in tickets):
            return False
        for t in tickets:
            del self.tickets[t.queue][t.id]
            for p in t.players:
                if self.holder.get(p) == t.id:
                    del self.holder[p]
        return True

    async def keep_alive(self, tickets: Sequence[Ticket]) -> None:
        return None


# KEYS: queue hash, alive key, queues set, then one holder key per player.
# ARGV: ticket id, ticket json, ttl ms, queue name.
_ADD = """
for i = 4, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return 0 end
end
for i = 4, #KEYS do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[3]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
redis.call('SADD', KEYS[3], ARGV[4])
return 1
"""

# KEYS: per ticket, its queue hash and alive key, then every player's holder key.
# ARGV: the ticket count, the ticket ids, then each holder key's ticket id.
_CLAIM = """
local n = tonumber(ARGV[1])
for i = 1, n do
  if redis.call('HEXISTS', KEYS[2 * i - 1], ARGV[1 + i]) == 0 then return 0 end
end
for i = 1, n do
  redis.call('HDEL', KEYS[2 * i - 1], ARGV[1 + i])
  redis.call('DEL', KEYS[2 * i])
end
for i = 2 * n + 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1 + n + i - 2 * n] then redis.call('DEL', KEYS[i]) end
end
return 1
"""


class RedisStore:
    """Several processes: tickets in a hash per queue; each player's holder key makes one
    ticket per player; each ticket's alive key lapses unless its process keeps it alive, so a
    process that dies takes its tickets with it."""

    def __init__(self, redis: Redis, prefix: str = "cardroom:", ttl: float = 15.0) -> None:
        self.redis = redis
        self.prefix = f"{prefix}mm:"
        self.ttl_ms = int(ttl * 1000)
        self._add = redis.register_script(_ADD)
        self._claim = redis.register_script(_CLAIM)

    def _queue(self, queue: str) -> str:
        return f"{self.prefix}q:{queue}"

    def _alive(self, ticket_id: str) -> str:
        return f"{self.prefix}alive:{ticket_id}"

    def _holder(self, player: str) -> str:
        return f"{self.prefix}who:{player}"

    async def add(self, ticket: Ticket) -> bool:
        keys = [self._queue(ticket.queue), self._alive(ticket.id), f"{self.prefix}queues"]
        keys += [self._holder(p) for p in ticket.players]
        args: list[str | int] = [ticket.id, ticket.to_json(), self.ttl_ms, ticket.queue]
        return bool(await self._add(keys=keys, args=args))

    async def remove(self, ticket: Ticket) -> None:
        await self.claim([ticket])

    async def waiting(self, queue: str) -> list[Ticket]:
        raw = await self.redis.hgetall(self._queue(queue))
        held = {_text(k): v for k, v in raw.items()}
        if not held:
            return []
        ids = sorted(held)
        alive = await self.redis.mget([self._alive(i) for i in ids])
        out: list[Ticket] = []
        dead: list[Ticket] = []
        for ticket_id, flag in zip(ids, alive, strict=True):
            (out if flag is not None else dead).append(Ticket.from_json(held[ticket_id]))
        if dead:  # their process stopped keeping them alive: it has gone
            await self.claim(dead)
        return out

    async def queues(self) -> list[str]:
        names = await self.redis.smembers(f"{self.prefix}queues")
        return sorted(_text(n) for n in names)

    async def claim(self, tickets: Sequence[Ticket]) -> bool:
        keys: list[str] = []
        for t in tickets:
            keys += [self._queue(t.queue), self._alive(t.id)]
        holders = [(self._holder(p), t.id) for t in tickets for p in t.players]
        keys += [k for k, _ in holders]
        args: list[str | int] = [len(tickets), *(t.id for t in tickets), *(i for _, i in holders)]
        return bool(await self._claim(keys=keys, args=args))

    async def keep_alive(self, tickets: Sequence[Ticket]) -> None:
        if not tickets:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for t in tickets:
                pipe.pexpire(self._alive(t.id), self.ttl_ms)
                for p in t.players:
                    pipe.pexpire(self._holder(p), self.ttl_ms)
            await pipe.execute()


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
