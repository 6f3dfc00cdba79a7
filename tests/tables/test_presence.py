"""People who are really there: a turn is skipped by the others only when its player is gone
(offline past a grace period, or idle past one at a table without a turn timer); the lobby
lists and matches only tables whose people are connected; a table its people left closes."""

from __future__ import annotations

import pytest

from cardroom.tables import commands as c
from cardroom.tables.errors import Refusal
from cardroom.tables.lobby import everyone_here, is_listed

from .harness import ADA, BEA, CAL, EVE, PACE, Room

OFFLINE = PACE.claim_offline_after
IDLE = PACE.claim_idle_after


def started(seats: int = 3, options: dict | None = None) -> tuple[Room, dict[int, str]]:
    """A running match of people; the connection of each match seat."""
    people = [ADA, BEA, CAL][:seats]
    room = Room.open(seats=seats, options=options)
    room.sit(*people)
    room.do(c.Start(ADA))
    conns = {room.master.match_seat_of(p.id): f"ws-{p.name.lower()}" for p in people}
    return room, conns


def to_play(room: Room) -> int:
    return room.master.match.game_match.current


def someone_else(room: Room, conns: dict[int, str]):
    seat = next(s for s in conns if s != to_play(room))
    return room.who[conns[seat]]


def refusal(room: Room, command: c.Command) -> Refusal:
    with pytest.raises(Refusal) as caught:
        room.do(command)
    return caught.value


def test_a_player_who_is_here_keeps_the_turn_until_idle_past_the_grace_period():
    room, conns = started()
    other = someone_else(room, conns)
    too_early = refusal(room, c.SkipTurn(other))
    assert too_early.status == 409 and "is here" in too_early.message
    assert f"idle for {IDLE:.0f} s (in {IDLE:.0f} s)" in too_early.message
    assert room.last(conns[to_play(room)], "event")["claim_in"] == IDLE
    room.advance(IDLE - 1)
    assert "(in 1 s)" in refusal(room, c.SkipTurn(other)).message
    room.advance(1)
    skipped_seat = to_play(room)
    room.do(c.SkipTurn(other))  # a seated player, not the owner
    events = room.last(conns[skipped_seat], "event")["events"]
    assert [e["kind"] for e in events][:2] == ["skipped", "timed_out"]
    assert events[0]["seat"] == skipped_seat
    assert events[0]["detail"] == {"by": other.id, "name": other.name}
    assert to_play(room) != skipped_seat


def test_an_offline_player_s_turn_is_skipped_after_the_grace_period_then_a_bot_plays():
    room, conns = started(options={"turn_timer": 600})
    gone = to_play(room)
    room.do(c.Disconnect(conns[gone]))
    other = someone_else(room, conns)
    news = room.last(conns[next(s for s in conns if s != gone)], "table")
    assert news["claim_in"] == OFFLINE
    message = refusal(room, c.SkipTurn(other)).message
    assert "is offline" in message and f"gone for {OFFLINE:.0f} s" in message
    room.advance(OFFLINE)
    for _ in range(PACE.autopilot_after):  # each claim counts as a timeout (R7.3)
        while to_play(room) != gone:
            room.advance(PACE.bot_delay)
            room.think()
            if to_play(room) != gone:
                room.act(conns[to_play(room)], room.view(conns[to_play(room)])["legal"][0])
        room.do(c.SkipTurn(other))
    assert gone in room.master.match.autopilot
    while to_play(room) != gone:
        room.act(conns[to_play(room)], room.view(conns[to_play(room)])["legal"][0])
    assert room.master.claim_in() is None  # a bot plays the seat now
    assert "a bot is playing" in refusal(room, c.SkipTurn(other)).message


def test_a_turn_timer_skips_a_present_player_s_turn_itself():
    room, conns = started(options={"turn_timer": 30})
    other = someone_else(room, conns)
    assert room.master.claim_in() is None
    assert "turn timer" in refusal(room, c.SkipTurn(other)).message


def test_nobody_skips_their_own_turn_a_watcher_skips_none_and_none_after_the_match():
    room, conns = started(seats=2)
    room.advance(IDLE)
    me = room.who[conns[to_play(room)]]
    assert "your own turn" in refusal(room, c.SkipTurn(me)).message
    room.connect(EVE)
    assert refusal(room, c.SkipTurn(EVE)).status == 403
    room.master.status = "finished"  # the match is over
    assert room.master.claim_in() is None
    assert refusal(room, c.SkipTurn(ADA)).message == "nobody is to play right now"


def test_the_lobby_lists_a_public_table_only_while_one_of_its_players_is_connected():
    room = Room.open(seats=2)
    room.do(c.Join(ADA))
    assert not is_listed(room.master.info())  # made, but nobody has come yet
    conn = room.connect(ADA)
    assert is_listed(room.master.info()) and everyone_here(room.master.info())
    room.do(c.Join(BEA))  # sat down over HTTP, not connected yet
    assert is_listed(room.master.info()) and not everyone_here(room.master.info())
    room.connect(EVE)  # a watcher is not one of its players
    room.do(c.Disconnect(conn))
    assert not is_listed(room.master.info())
    room.connect(BEA)
    room.do(c.Start(BEA))
    assert is_listed(room.master.info())
    room.master.status = "finished"
    assert not is_listed(room.master.info())


def test_watchers_alone_do_not_keep_a_table_open():
    room = Room.open(seats=2, abandon_after=60)
    room.do(c.Join(ADA))
    ada = room.connect(ADA)
    watcher = room.connect(EVE)
    room.do(c.Disconnect(ada))
    room.advance(61)
    assert room.table_closed
    assert watcher in room.closed_sockets


def test_a_player_sitting_down_keeps_the_table_open_and_leaving_the_seat_does_not():
    room = Room.open(seats=2, abandon_after=60)
    room.do(c.Join(BEA))
    room.connect(EVE)
    room.do(c.Join(EVE))  # the watcher sits down: one of the table's people now
    room.do(c.Leave(BEA))
    room.advance(120)
    assert not room.table_closed
    room.do(c.Leave(EVE))  # still connected, but only watching now (Ada owns it, not here)
    room.advance(61)
    assert room.table_closed
