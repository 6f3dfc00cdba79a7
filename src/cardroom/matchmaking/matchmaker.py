"""One matchmaking round over a store: match what the core pairs, claim it atomically, and hand
out bots to those who asked for one after a wait. The clock is injected."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardroom.matchmaking.pairing import bots_due, pair
from cardroom.matchmaking.stores import TicketStore
from cardroom.matchmaking.tickets import Pairing, Ticket
from cardroom.matchmaking.widening import STANDARD, Widening


@dataclass(slots=True)
class Round:
    """What one round decided: matches made (claimed by this process) and bot offers taken."""

    matched: list[Pairing] = field(default_factory=list)
    bots: list[Ticket] = field(default_factory=list)


class Matchmaker:
    def __init__(
        self, store: TicketStore, clock: Callable[[], float], rule: Widening = STANDARD
    ) -> None:
        self.store = store
        self.clock = clock
        self.rule = rule

    async def enqueue(self, ticket: Ticket) -> bool:
        return await self.store.add(ticket)

    async def withdraw(self, ticket: Ticket) -> None:
        await self.store.remove(ticket)

    def status(self, ticket: Ticket) -> dict[str, Any]:
        """What the waiting player sees: "looking for players near 18.4 … ±3.0"."""
        waited = ticket.waited(self.clock())
        return {
            "near": round(ticket.rating, 1),
            "gap": round(self.rule.gap(waited), 1),
            "waited": int(waited),
        }

    async def run_round(self) -> Round:
        now = self.clock()
        out = Round()
        for queue in await self.store.queues():
            tickets = await self.store.waiting(queue)
            matched: set[str] = set()
            for pairing in pair(tickets, now, self.rule):
                if await self.store.claim(pairing.tickets):
                    out.matched.append(pairing)
                    matched.update(t.id for t in pairing.tickets)
            left = [t for t in tickets if t.id not in matched]
            for ticket in bots_due(left, now):
                if await self.store.claim([ticket]):
                    out.bots.append(ticket)
        return out
