"""A table master run in-process: the effects a server's actor would carry out, done here in
memory — messages collected per connection, rows kept in order, timers on a clock the test
moves, bots asked right away with the real bots of their level. No server, no database."""

from __future__ import annotations

import heapq
import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any

from cardroom.bots.hints import hint_json
from cardroom.tables import commands as c
from cardroom.tables.effects import (
    Advise,
    ArmTimer,
    CancelTimer,
    CloseSocket,
    Effect,
    MatchFinished,
    MoveRow,
    Row,
    Send,
    TableClosed,
    Think,
    Write,
)
from cardroom.tables.master import TableMaster
from cardroom.tables.people import Identity
from cardroom.tables.settings import TableSettings
from cardroom.tables.wire import text_of

ADA = Identity("p_ada", "Ada")
BEA = Identity("p_bea", "Bea")
CAL = Identity("p_cal", "Cal")
DOT = Identity("p_dot", "Dot")
EVE = Identity("p_eve", "Eve")  # a spectator

PACE = TableSettings(bot_delay=0.5, round_pause=2.0, autopilot_after=2, history=256)


@dataclass
class Room:
    """One table and the world around it, driven by a test."""

    master: TableMaster
    now: float = 1000.0
    sent: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    timers: dict[str, tuple[float, tuple[Any, ...]]] = field(default_factory=dict)
    thinking: list[Think] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    closed_sockets: dict[str, int] = field(default_factory=dict)
    table_closed: bool = False
    who: dict[str, Identity] = field(default_factory=dict)

    @classmethod
    def open(
        cls,
        seats: int = 2,
        options: dict[str, Any] | None = None,
        owner: Identity = ADA,
        settings: TableSettings = PACE,
        abandon_after: float = 300.0,
        game: str = "skip",
    ) -> Room:
        """A table of ``game``; a Skip table plays single short rounds unless told otherwise,
        another game its own defaults plus ``options``."""
        ids = itertools.count(1)
        quick = {"match_target": None, "stock_size": 5} if game == "skip" else {}
        row = {
            "id": "t_test",
            "name": None,
            "public": True,
            "game": game,
            "owner_id": owner.id,
            "owner_name": owner.name,
            "options": {**quick, **(options or {})},
            "abandon_after": abandon_after,
            "status": "waiting",
            "seq": 0,
            "seats": [
                {"number": n, "player_id": None, "bot_level": None, "away": False}
                for n in range(seats)
            ],
        }
        master = TableMaster(
            row, settings, new_id=lambda: f"m_{next(ids)}", new_seed=lambda: "a-fixed-seed"
        )
        room = cls(master)
        room.carry_out(master.started(room.now))
        return room

    # -- commands in, effects out --

    def do(self, command: c.Command) -> Any:
        effects, answer = self.master.handle(command, self.now)
        self.carry_out(effects)
        return answer

    def carry_out(self, effects: list[Effect]) -> None:
        self.effects.extend(effects)
        for effect in effects:
            if isinstance(effect, Send):
                # Through JSON, as a socket would: what is sent must be plain JSON.
                self.sent.setdefault(effect.conn, []).append(json.loads(text_of(effect.message)))
            elif isinstance(effect, Write):
                self.rows.extend(effect.rows)
            elif isinstance(effect, ArmTimer):
                self.timers[effect.name] = (effect.at, effect.key)
            elif isinstance(effect, CancelTimer):
                self.timers.pop(effect.name, None)
            elif isinstance(effect, Think):
                self.thinking.append(effect)
            elif isinstance(effect, Advise):  # worked out at once, as a thread would
                hint = {**effect.message, **hint_json(effect.view)}
                self.sent.setdefault(effect.conn, []).append(json.loads(json.dumps(hint)))
            elif isinstance(effect, MatchFinished):
                self.finished.append(effect.match_id)
            elif isinstance(effect, CloseSocket):
                self.closed_sockets[effect.conn] = effect.code
            elif isinstance(effect, TableClosed):
                self.table_closed = True

    # -- people --

    def connect(self, who: Identity, conn: str | None = None, since: int | None = None) -> str:
        conn = conn or f"ws-{who.name.lower()}"
        self.who[conn] = who
        self.do(c.Connect(conn, who, since))
        return conn

    def sit(self, *people: Identity) -> None:
        for who in people:
            self.do(c.Join(who))
            self.connect(who)

    def last(self, conn: str, kind: str | None = None) -> dict[str, Any]:
        return [m for m in self.sent[conn] if kind is None or m["type"] == kind][-1]

    def view(self, conn: str) -> dict[str, Any]:
        """The latest view this connection was sent."""
        return [m for m in self.sent[conn] if m.get("view") is not None][-1]

    def act(self, conn: str, action: dict[str, Any], after: int | None = None) -> str:
        action_id = f"a{len(self.effects)}"
        self.do(c.Act(conn, action_id, action, after))
        return action_id

    # -- time and bots --

    def advance(self, seconds: float) -> None:
        """Move table time on, firing every timer that falls due, in order."""
        end = self.now + seconds
        while True:
            due = [(at, name) for name, (at, _key) in self.timers.items() if at <= end]
            if not due:
                break
            at, name = heapq.nsmallest(1, due)[0]
            self.now = max(self.now, at)
            _at, key = self.timers.pop(name)
            self.do(c.TimerFired(name, key))
        self.now = end

    def think(self) -> int:
        """Every bot asked decides now, from the view it was given; how many moved."""
        asked, self.thinking = self.thinking, []
        for think in asked:
            bot = self.master.levels[think.level].make(think.seed)
            self.do(c.BotMoved(think.key, think.seat, bot.choose(think.view)))
        return len(asked)

    def moves(self) -> list[MoveRow]:
        return [r for r in self.rows if isinstance(r, MoveRow)]


def play_legal(room: Room, conns: list[str], rng: random.Random, limit: int | None = None) -> int:
    """People play random legal actions (bots and timers as they come) until the match ends,
    or for ``limit`` steps."""
    played = 0
    for _ in range(limit or 5000):
        match = room.master.match
        if match is None or match.game_match.over:
            return played
        if room.think():
            continue
        seat = match.game_match.current
        mover = next(
            (conn for conn in conns if room.master.match_seat_of(room.who[conn].id) == seat),
            None,
        )
        if seat is None or mover is None:
            room.advance(5.0)
            continue
        legal = room.view(mover)["legal"]
        room.act(mover, rng.choice(legal))
        played += 1
    if limit is None:
        raise AssertionError("the match did not end")
    return played
