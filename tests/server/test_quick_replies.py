"""A quick bot's replies to a move (no bot delay) are carried out with the move: stored in the
same write, told after it in order, each message only once every move it tells of is stored.
A real table actor, a real bot, a journal that keeps what it is given."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from cardroom.server.actor import MAX_CHAINED_REPLIES, Services, TableActor, _one_write
from cardroom.server.auth import Identity
from cardroom.server.bots import BotRunner
from cardroom.server.protocol import ActionRequest
from cardroom.server.settings import Settings
from cardroom.server.timers import Clock
from cardroom.store.journal import Statement
from cardroom.tables import commands as c
from cardroom.tables.effects import MoveRow, Send, Think, Write

ADA = Identity("p_ada", "Ada")
TWELVES = [12] * 4  # the top of every stock; the deck's twelve 12s are enough for 3 seats


@dataclass
class KeepingJournal:
    """Commits at once; counts the moves stored so far (the steps name them)."""

    writes: list[int] = field(default_factory=list)  # moves in each write
    stored: int = 0

    async def write(self, steps: list[Any]) -> None:
        moves = sum(1 for step in steps if isinstance(step, Statement) and "sent_by" in step.params)
        self.writes.append(moves)
        self.stored += moves


@dataclass(eq=False)
class Socket:
    """A connection that notes, for every message, how many moves were stored when it left."""

    identity: Identity
    journal: KeepingJournal
    batch: bool = False  # as said in its hello: a command's messages in one frame
    got: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.got.append((self.journal.stored, json.loads(text)))

    def close(self, code: int = 1000) -> None:
        pass


def table_row(seats: int) -> dict[str, Any]:
    return {
        "id": "t_quick",
        "name": None,
        "public": False,
        "game": "skip",
        "owner_id": ADA.id,
        "owner_name": ADA.name,
        # Every stock's top four are 12s: each waits for a building pile at 11, so no round ends
        # before a dozen moves, and no seat can win before the others moved.
        "options": {
            "stock_size": 5,
            "match_target": None,
            "deal": {"first": 0, "stocks": [TWELVES] * seats},
        },
        "abandon_after": 300.0,
        "status": "waiting",
        "seq": 0,
        "epoch": 1,
        "seats": [
            {"number": n, "player_id": None, "bot_level": None, "away": False} for n in range(seats)
        ],
    }


def quick_actor(journal: KeepingJournal, seats: int) -> TableActor:
    """A real table actor with no bot delay and inline bots, writing to ``journal``."""
    services = Services(
        Settings(bot_delay=0.0, round_pause=60.0),
        Clock(),
        journal,  # type: ignore[arg-type]
        BotRunner("inline"),
        on_close=lambda actor: None,
    )
    return TableActor(services, table_row(seats))


async def play_against(bots: int, batching: Socket | None = None) -> tuple[KeepingJournal, Socket]:
    """Ada and ``bots`` Easy bots, Ada playing the first legal move until the round ends;
    ``batching``, if given, is a second socket of Ada's, connected before the start."""
    journal = KeepingJournal()
    actor = quick_actor(journal, 1 + bots)
    await actor._started()
    await actor.run(c.Join(ADA, 0))
    for seat in range(1, 1 + bots):
        await actor.run(c.AddBot(ADA, seat, "easy"))
    socket = Socket(ADA, journal)
    await actor.connect(socket, None)
    if batching is not None:
        batching.journal = journal
        await actor.connect(batching, None)
    await actor.run(c.Start(ADA))
    for number in range(400):
        last = next(m for _, m in reversed(socket.got) if m.get("type") in ("event", "sync"))
        if last["view"] is None or last["view"].get("result") or not last.get("legal"):
            break
        writes = len(journal.writes)
        await actor.handle_action(socket, _request(f"a{number}", last["legal"][0], last["seq"]))
        assert len(journal.writes) == writes + 1  # the move and the replies: one write
    actor.stop()
    return journal, socket


def _request(action_id: str, action: dict[str, Any], after: int) -> ActionRequest:
    return ActionRequest(id=action_id, action=action, after=after)


def test_a_quick_bot_answers_within_the_move_s_write_and_nothing_is_told_before_it_is_stored():
    journal, socket = asyncio.run(play_against(bots=2))
    events = [(stored, m) for stored, m in socket.got if m["type"] == "event"]
    assert len(events) > 10  # 11 plays at least before the first 12 (TWELVES)
    assert max(journal.writes) > 1  # some of Ada's moves were answered by the bots at once
    for stored, message in events:
        if message.get("move") is not None:
            assert message["move"] <= stored  # every move told of was stored first
    seqs = [m["seq"] for _, m in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)  # in order, none twice
    movers = {m["view"]["current"] for _, m in events if m["view"] and not m["view"].get("result")}
    assert movers >= {1, 2}  # the bots' turns were told to Ada as they happened


def test_writes_are_merged_where_the_first_one_was_and_other_effects_keep_their_order():
    a = MoveRow("m", 1, 1, None, 0, {"type": "pass"}, None)
    b = MoveRow("m", 2, 1, None, 1, {"type": "pass"}, None)
    think = Think((1,), 1, "greedy", "seed", None)
    first = [Write((a,)), Send("c1", {"n": 1}), think]
    then = [Write((b,)), Send("c1", {"n": 2}), Write((), wait=False)]
    merged = _one_write([e for e in first if e is not think], then)
    assert merged[0] == Write((a, b))
    assert merged[1:] == [Send("c1", {"n": 1}), Send("c1", {"n": 2}), Write((), wait=False)]
    assert MAX_CHAINED_REPLIES >= 4  # a bot's whole turn, usually
