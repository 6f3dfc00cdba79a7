"""Between rounds the next deal waits for the players' "Continue" (``tables/readiness.py``):
every player present says it, and the round is dealt at once; the round timer stays the cap."""

from __future__ import annotations

import random

from cardroom.tables import commands as c

from .harness import ADA, BEA, EVE, Room


def play_to_round_end(room: Room, conns: list[str], rng: random.Random) -> None:
    """Random legal moves (bots as they come) until the first round is scored."""
    for _ in range(5000):
        gm = room.master.match.game_match
        if gm.between_rounds:
            return
        if room.think():
            continue
        seat_of = room.master.match_seat_of
        mover = next((conn for conn in conns if seat_of(room.who[conn].id) == gm.current), None)
        if mover is None:
            room.advance(room.master.settings.bot_delay)  # a bot's turn: it is asked
            continue
        room.act(mover, rng.choice(room.view(mover)["legal"]))
    raise AssertionError("the round did not end")


def skyjo_room(*people, bots: int = 0) -> tuple[Room, list[str]]:
    # A high end score: random moves may reach 100 in one round, and the match would end.
    room = Room.open(seats=len(people) + bots, game="skyjo", options={"end_score": 500})
    room.sit(*people)
    for seat in range(len(people), len(people) + bots):
        room.do(c.AddBot(people[0], seat, "easy"))
    room.do(c.Start(people[0]))
    return room, [f"ws-{who.name.lower()}" for who in people]


def test_the_next_round_is_dealt_once_every_player_here_has_read_the_summary():
    room, conns = skyjo_room(ADA, BEA)
    eve = room.connect(EVE)
    room.do(c.Ready("ws-ada"))
    assert room.last("ws-ada", "error")["code"] == "not_between_rounds"  # a round is on
    play_to_round_end(room, conns, random.Random(3))
    assert "round" in room.timers  # the cap: dealt anyway after round_pause
    m = room.master.match

    room.do(c.Ready(eve))
    refused = room.last(eve, "error")
    assert (refused["code"], refused["about"]) == ("not_seated", "ready")

    room.do(c.Ready("ws-ada"))
    assert m.game_match.round_number == 1 and m.game_match.between_rounds
    assert room.last("ws-bea", "table")["table"]["match"]["ready"] == [0]  # Bea sees it
    before = len(room.sent["ws-bea"])
    room.do(c.Ready("ws-ada"))  # a second tab says it again: nothing new
    assert len(room.sent["ws-bea"]) == before

    room.do(c.Ready("ws-bea"))
    assert m.game_match.round_number == 2 and not m.game_match.between_rounds
    assert "round" not in room.timers and m.ready == set()
    assert room.moves()[-1].kind == "next_round"  # stored like any deal: the match replays
    started = [e for msg in room.sent["ws-eve"] if msg["type"] == "event" for e in msg["events"]]
    assert started[-1]["kind"] != "round_summary"
    assert any(e["kind"] == "round_started" and e["detail"]["round"] == 2 for e in started)


def test_bots_and_absent_players_are_not_waited_for_and_the_timer_stays_the_cap():
    room, conns = skyjo_room(ADA, BEA, bots=1)
    play_to_round_end(room, conns, random.Random(5))
    room.do(c.Disconnect("ws-bea"))  # Bea's tab closed: only Ada is waited for
    room.do(c.Ready("ws-ada"))
    assert room.master.match.game_match.round_number == 2

    room, conns = skyjo_room(ADA, BEA)
    play_to_round_end(room, conns, random.Random(5))
    room.do(c.Ready("ws-ada"))  # Bea never says it: the round timer deals
    room.advance(room.master.settings.round_pause)
    assert room.master.match.game_match.round_number == 2
