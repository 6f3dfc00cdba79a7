"""The ranked queue under load: how long people wait and how close their matches are.

Run: ``cardroom bench matchmaking``. Thousands of tickets arrive at random (a Poisson stream,
seeded) with ratings drawn from a player base like ours (settled players around Gold, a
quarter of newcomers near 0), in the three modes (2p most, teams partly as duos, some asking
for a bot after a minute). Two matchmakers (two server processes) run a round each simulated
second over one shared store, as the server does; ``--redis URL`` makes it Redis (the atomic
claims), else memory. Printed: wait percentiles per mode and per division, the mean rating gap
of the matches made (max - min rating in a match), bots handed out, and the check that no
ticket was booked twice. Deterministic for a seed (memory; Redis rounds race for real).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from cardroom.league.divisions import division_of
from cardroom.matchmaking.matchmaker import Matchmaker
from cardroom.matchmaking.stores import MemoryStore, RedisStore, TicketStore
from cardroom.matchmaking.tickets import Ticket
from cardroom.progress import game_progress

MODES = (("2p", 0.7), ("3p+", 0.2), ("teams", 0.1))
DUOS = 0.3  # of teams tickets: two partners queueing together
BOT_ASKERS = 0.2  # tickets that would rather play a bot after a minute
NEWCOMERS = 0.25  # share of the base still near 0 (few rated matches)
DRAIN = 600.0  # simulated seconds after the last arrival before the rest count as unmatched


@dataclass(slots=True)
class Outcome:
    ticket: Ticket
    waited: float
    gap: float | None  # None: a bot


def rating(rng: random.Random) -> float:
    """A player of the base: a newcomer near 0, or a settled player around Gold."""
    if rng.random() < NEWCOMERS:
        return max(-5.0, rng.gauss(2.0, 3.0))
    return rng.gauss(18.0, 6.0)


def arrivals(count: int, rate: float, seed: int) -> list[Ticket]:
    rng = random.Random(seed)
    now, out = 0.0, []
    for n in range(count):
        now += rng.expovariate(rate)
        mode = rng.choices([m for m, _ in MODES], [w for _, w in MODES])[0]
        duo = mode == "teams" and rng.random() < DUOS
        players = (f"p_{n}a", f"p_{n}b") if duo else (f"p_{n}",)
        bot_after = 60.0 if not duo and rng.random() < BOT_ASKERS else None
        out.append(Ticket(f"k_{n}", "skip", mode, players, players, rating(rng), now, bot_after))
    return out


async def simulate(tickets: list[Ticket], stores: list[TicketStore]) -> tuple[list[Outcome], float]:
    """Rounds of one simulated second until everyone is matched; the outcomes, and the wall
    seconds spent in rounds."""
    clock = [0.0]
    makers = [Matchmaker(s, lambda: clock[0]) for s in stores]
    pending = list(tickets)
    out: list[Outcome] = []
    booked: set[str] = set()
    spent = 0.0
    last = tickets[-1].since + DRAIN if tickets else 0.0
    with game_progress("matchmaking", len(tickets)) as done:
        while pending or (clock[0] < last and await _waiting(stores[0])):
            clock[0] += 1.0
            while pending and pending[0].since <= clock[0]:
                await makers[len(out) % len(makers)].enqueue(pending.pop(0))
            started = time.perf_counter()
            rounds = await asyncio.gather(*(m.run_round() for m in makers))
            spent += time.perf_counter() - started
            for r in rounds:
                for p in r.matched:
                    for t in p.tickets:
                        if t.id in booked:
                            raise AssertionError(f"ticket {t.id} booked twice")
                        booked.add(t.id)
                        out.append(Outcome(t, clock[0] - t.since, p.gap))
                        done()
                for t in r.bots:
                    booked.add(t.id)
                    out.append(Outcome(t, clock[0] - t.since, None))
                    done()
    return out, spent


async def _waiting(store: TicketStore) -> bool:
    for queue in await store.queues():
        if await store.waiting(queue):
            return True
    return False


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(count: int, rate: float, seed: int, redis_url: str | None) -> None:
    tickets = arrivals(count, rate, seed)
    clients = []
    if redis_url:
        from redis.asyncio import Redis

        prefix = f"cardroom-bench-{secrets.token_hex(3)}:"
        clients = [Redis.from_url(redis_url) for _ in range(2)]
        stores: list[TicketStore] = [RedisStore(c, prefix, ttl=3600) for c in clients]
    else:
        shared = MemoryStore()
        stores = [shared, shared]

    async def run() -> tuple[list[Outcome], float]:
        try:
            return await simulate(tickets, stores)
        finally:
            for c in clients:
                keys = [k async for k in c.scan_iter(f"{prefix}*")]
                if keys:
                    await c.delete(*keys)
                await c.aclose()

    outcomes, spent = asyncio.run(run())
    unmatched = count - len(outcomes)
    console = Console()
    table = Table(title=f"The ranked queue: {count} tickets at {rate:g}/s, two matchmakers")
    columns = ("mode or division", "tickets", "p50 wait s", "p90", "p99", "max", "mean gap", "bots")
    for column in columns:
        table.add_column(column, justify="left" if column.startswith("mode") else "right")
    groups: dict[tuple[int, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(-1, o.ticket.mode)].append(o)
        band = division_of(o.ticket.rating)
        groups[(band.step, band.name)].append(o)
    for key in sorted(groups):
        _row(table, key[1], groups[key])
    _row(table, "everyone", outcomes)
    console.print(table)
    store = "Redis" if redis_url else "memory"
    per_round = spent / max(1, int(max(o.ticket.since + o.waited for o in outcomes)))
    console.print(
        f"store: {store}; no ticket booked twice; {unmatched} still waiting at the end (a queue "
        f"too thin to fill a table); {spent:.2f} s in rounds "
        f"({per_round * 1000:.1f} ms per simulated second, both matchmakers)\n"
        f"command: cardroom bench matchmaking --tickets {count} --rate {rate:g} --seed {seed}"
        + (" --redis URL" if redis_url else "")
    )


def _row(table: Table, name: str, group: list[Outcome]) -> None:
    waits = [o.waited for o in group]
    gaps = [o.gap for o in group if o.gap is not None]
    table.add_row(
        name,
        str(len(group)),
        f"{_pct(waits, 0.5):.0f}",
        f"{_pct(waits, 0.9):.0f}",
        f"{_pct(waits, 0.99):.0f}",
        f"{max(waits, default=0):.0f}",
        f"{statistics.fmean(gaps):.2f}" if gaps else "-",
        str(sum(1 for o in group if o.gap is None)),
    )
