"""A table's own cost, without sockets or a database: CPU per move and memory through a match.

The server bench (``server_load``) measures the whole server from outside, where the figures
swing with the machine's load and the allocator. This one runs busy tables in-process, the way
the actor runs them: the table master handles each command, its messages are encoded as the
actor encodes them, its rows become journal statements, its timers fire at once and its bots
decide at once. It measures the CPU per move (with a reference loop timed in the same run) and,
with ``tracemalloc``, the memory each table holds at each quarter of a whole 500-point match:
it must stay flat, since a match is thousands of moves.
"""

from __future__ import annotations

import gc
import random
import time
import tracemalloc
from dataclasses import dataclass, field
from typing import Any

from cardroom.benchmarks.engine import reference_loop_seconds
from cardroom.benchmarks.load_plan import OPTIONS, choose, greedy_level
from cardroom.bots.levels import Level
from cardroom.server.actor import _step
from cardroom.server.bots import BotCache
from cardroom.store.journal import Fence
from cardroom.tables import commands as c
from cardroom.tables.effects import ArmTimer, CancelTimer, Effect, Send, Think, Write
from cardroom.tables.master import TableMaster
from cardroom.tables.people import Identity
from cardroom.tables.settings import TableSettings
from cardroom.tables.wire import Personal, text_of

PLAYER = Identity("p_load", "Load")
MAX_STEPS = 100_000


@dataclass
class BusyTable:
    """One table with a scripted player on one socket and a greedy bot, driven in-process."""

    master: TableMaster
    bots: BotCache
    rng: random.Random
    now: float = 1000.0
    timers: dict[str, tuple[float, tuple[Any, ...]]] = field(default_factory=dict)
    thinking: list[Think] = field(default_factory=list)
    legal: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0  # action ids
    moves: int = 0  # every move applied (the player's and the bot's)

    @classmethod
    def open(cls, number: int, bots: BotCache, settings: TableSettings) -> BusyTable:
        row = {
            "id": f"t_{number}",
            "name": None,
            "public": True,
            "game": "skip",
            "owner_id": PLAYER.id,
            "owner_name": PLAYER.name,
            "options": dict(OPTIONS),
            "abandon_after": 3600.0,
            "status": "waiting",
            "seq": 0,
            "seats": [
                {"number": n, "player_id": None, "bot_level": None, "away": False} for n in range(2)
            ],
        }
        ids = iter(range(1_000_000))
        master = TableMaster(
            row,
            settings,
            new_id=lambda: f"m_{number}_{next(ids)}",
            new_seed=lambda: f"table-memory-{number}-{next(ids)}",
        )
        table = cls(master, bots, random.Random(number))
        table.carry_out(master.started(table.now))
        table.do(c.Join(PLAYER))
        table.do(c.Connect("ws", PLAYER, None))
        table.do(c.AddBot(PLAYER, None, greedy_level()))
        table.do(c.Start(PLAYER))
        return table

    @property
    def playing(self) -> bool:
        return self.master.status == "playing"

    def do(self, command: c.Command) -> None:
        effects, _answer = self.master.handle(command, self.now)
        self.carry_out(effects)

    def carry_out(self, effects: list[Effect]) -> None:
        """What the actor does with effects, minus the sockets and the database."""
        for effect in effects:
            if isinstance(effect, Send):
                text_of(effect.message)  # as the actor encodes it for the socket
                message = effect.message
                # This socket does not batch (Connect's batch=False): no Batch or Deferred here.
                assert isinstance(message, dict | Personal)
                own = message.own if isinstance(message, Personal) else message
                if own.get("legal"):
                    self.legal = own["legal"]
            elif isinstance(effect, Write):
                fence = Fence(self.master.id, 0, self.master.seq)
                _statements = [fence, *(_step(self.master.id, row) for row in effect.rows)]
            elif isinstance(effect, ArmTimer):
                self.timers[effect.name] = (effect.at, effect.key)
            elif isinstance(effect, CancelTimer):
                self.timers.pop(effect.name, None)
            elif isinstance(effect, Think):
                self.thinking.append(effect)

    def step(self) -> None:
        """The next thing that happens at the table: a bot's move, a timer, the player's move."""
        if self.thinking:
            think = self.thinking.pop(0)
            level: Level = self.master.levels[think.level]
            action = self.bots.get(level, think.seed).choose(think.view)
            self.moves += 1
            self.do(c.BotMoved(think.key, think.seat, action))
        elif self.legal:
            legal, self.legal = self.legal, []
            self.sent += 1
            self.moves += 1
            self.do(c.Act("ws", f"a{self.sent}", choose(legal, self.rng), None))
        elif self.timers:
            name, (at, key) = min(self.timers.items(), key=lambda item: item[1][0])
            del self.timers[name]
            self.now = max(self.now, at)
            self.do(c.TimerFired(name, key))
        else:
            raise RuntimeError(f"table {self.master.id} is stuck")


@dataclass
class Figures:
    tables: int
    moves: int
    cpu_seconds: float
    reference_seconds: float
    memory: list[float]  # bytes per table at each quarter of the match, and at its end

    @property
    def cpu_per_move(self) -> float:
        return self.cpu_seconds / self.moves


def run(tables: int = 20, settings: TableSettings | None = None) -> Figures:
    """``tables`` busy tables, each through a whole 500-point match, in lock step: once for the
    CPU time, then the same games again (seeds are fixed) for the memory, since tracing every
    allocation slows everything down."""
    settings = settings or TableSettings(bot_delay=0.0, round_pause=0.2)
    reference, _median = reference_loop_seconds(clock=time.process_time)
    busy = [BusyTable.open(n, BotCache(), settings) for n in range(tables)]
    steps = 0
    started = time.process_time()
    while any(table.playing for table in busy) and steps < MAX_STEPS:
        for table in busy:
            if table.playing:
                table.step()
        steps += 1
    cpu = time.process_time() - started
    moves = sum(table.moves for table in busy)

    gc.collect()
    tracemalloc.start()
    empty = tracemalloc.get_traced_memory()[0]
    busy = [BusyTable.open(n, BotCache(), settings) for n in range(tables)]
    marks = {steps * quarter // 4 for quarter in (1, 2, 3)}
    memory: list[float] = []
    for step in range(steps):
        for table in busy:
            if table.playing:
                table.step()
        if step in marks:
            gc.collect()
            memory.append((tracemalloc.get_traced_memory()[0] - empty) / tables)
    gc.collect()
    memory.append((tracemalloc.get_traced_memory()[0] - empty) / tables)
    tracemalloc.stop()
    return Figures(tables, moves, cpu, reference, memory)


def report(figures: Figures, console: Any) -> None:
    quarters = ", ".join(f"{m / 1024:,.0f} KB" for m in figures.memory)
    console.print(
        f"in-process, {figures.tables} busy tables through a 500-point match "
        f"({figures.moves:,} moves; no sockets, no database):"
    )
    console.print(
        f"  table master CPU per move {figures.cpu_per_move * 1e6:,.1f} µs "
        f"(= {figures.cpu_per_move / figures.reference_seconds * 1e3:.2f} thousandths of a "
        "reference loop, timed in the same run)"
    )
    console.print(
        f"  memory per table at a quarter, half, three quarters and the end: {quarters} "
        "(tracemalloc; goal ≤ 100 KB, flat)"
    )


def main(tables: int = 20) -> None:
    from rich.console import Console

    report(run(tables), Console())


if __name__ == "__main__":
    main()
