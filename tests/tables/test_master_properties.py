"""Random command sequences never break the table master's invariants."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.tables import commands as c
from cardroom.tables.errors import Refusal

from .harness import ADA, BEA, CAL, DOT, EVE, Room

PEOPLE = (ADA, BEA, CAL, DOT, EVE)
JUNK = ({"type": "pass"}, {"type": "timeout"}, {"type": "play"}, {"type": "discard", "card": 1})


def step(room: Room, choice: int, who_index: int, number: int, rng: random.Random) -> None:
    who = PEOPLE[who_index]
    conn = f"ws-{who.name.lower()}-{number % 2}"
    options = [
        lambda: room.do(c.Join(who, None if number > 3 else number)),
        lambda: room.do(c.Leave(who)),
        lambda: room.do(c.AddBot(who, None, "easy")),
        lambda: room.do(c.Start(who, rematch=number % 2 == 1)),
        lambda: (
            conn in room.who  # a socket says hello once
            or room.connect(who, conn, since=None if number > 2 else room.master.seq - number)
        ),
        lambda: room.do(c.Disconnect(conn)),
        lambda: room.act(conn, rng.choice(room.view(conn).get("legal") or list(JUNK))),
        lambda: room.act(conn, rng.choice(JUNK), after=number),
        lambda: room.advance(number * 1.5),
        lambda: room.think(),
        lambda: room.do(c.Configure(who, {"turn_timer": 5 + number} if number % 2 else None)),
        lambda: room.do(c.Evict(who, number % 3)),
        lambda: room.do(c.SkipTurn(who)),
        lambda: room.do(c.Resync(conn)),
        lambda: room.do(c.ClearSeat(who, number % 3)),
    ]
    action = options[choice % len(options)]
    before = room.master.info()
    try:
        action()
    except Refusal:
        assert room.master.info() == before, "a refused command changed the table"
    except (KeyError, IndexError):
        pass  # the test asked for the view of a socket that never got one


def check(room: Room) -> None:
    seated = [s.player_id for s in room.master.seats if s.player_id is not None]
    assert len(seated) == len(set(seated)), "one player in two seats"
    for conn, messages in room.sent.items():
        ordered = [m["seq"] for m in messages if m["type"] in ("event", "table")]
        assert ordered == sorted(set(ordered)), f"{conn}: seq not strictly increasing"
        assert all(m["seq"] <= room.master.seq for m in messages if "seq" in m)
        for message in messages:
            view = message.get("view")
            if view is not None and view["seat"] is not None:
                assert view["seat"] == message["_seat"], "a view of another seat"
            if view is not None and view["seat"] is None:
                assert view["hand"] is None and "legal" not in message


class CheckedRoom(Room):
    """Stamps every message with the seat its receiver holds as it is sent."""

    def carry_out(self, effects):  # type: ignore[no-untyped-def]
        before = {k: len(v) for k, v in self.sent.items()}
        super().carry_out(effects)
        for conn, messages in self.sent.items():
            who = self.who.get(conn)
            seat = self.master.match_seat_of(who.id) if who is not None else None
            for message in messages[before.get(conn, 0) :]:
                message["_seat"] = seat


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(0, 14), st.integers(0, len(PEOPLE) - 1), st.integers(0, 6)),
        min_size=5,
        max_size=80,
    ),
    st.integers(0, 2**16),
)
def test_random_commands_keep_seats_sequences_and_views_sound(steps, seed):
    base = Room.open(seats=3, options={"turn_timer": 5} if seed % 2 else None)
    room = CheckedRoom(base.master, who={})
    if seed % 3:  # most examples start in the middle of a match, watched by a spectator
        room.do(c.Join(ADA))
        room.connect(ADA, "ws-ada-0")
        room.do(c.Join(BEA))
        room.connect(BEA, "ws-bea-1")
        room.do(c.AddBot(ADA, None, "easy"))
        room.do(c.Start(BEA))
        room.connect(EVE, "ws-eve-0")
    rng = random.Random(seed)
    for choice, who_index, number in steps:
        step(room, choice, who_index, number, rng)
        check(room)
