"""Hints (R7.6): the expert's next step for the asker's own turn, from their own view only,
counted per seat and shown with the match result; never at a ranked table, never when the
house rules turn them off, never for a watcher, one at a time."""

from __future__ import annotations

import random

from cardroom.bots.hints import hint_json
from cardroom.tables import commands as c
from cardroom.tables.hints import HINT_EVERY

from .harness import ADA, BEA, EVE, Room, play_legal


def errors(room: Room, conn: str) -> list[dict]:
    return [m for m in room.sent.get(conn, []) if m["type"] == "error"]


def started(options: dict | None = None) -> tuple[Room, str]:
    """A table of Ada and Bea, the match started; the connection of whoever is to move."""
    room = Room.open(seats=2, options=options)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    seat = room.master.match.game_match.current
    mover = next(conn for conn in ("ws-ada", "ws-bea") if room.view(conn)["view"]["seat"] == seat)
    return room, mover


def test_R7_6_a_hint_is_the_experts_next_step_from_the_askers_own_view() -> None:
    room, mover = started()
    room.do(c.Hint(mover))
    hint = room.last(mover, "hint")
    seat = room.master.match.game_match.current
    expected = hint_json(room.master.match.game_match.view(seat))
    assert hint["action"] == expected["action"] and hint["reason"] == expected["reason"]
    assert hint["action"] in room.view(mover)["legal"]
    assert hint["hints_used"] == 1 and hint["seq"] == room.master.seq
    other = "ws-bea" if mover == "ws-ada" else "ws-ada"
    assert not [m for m in room.sent[other] if m["type"] == "hint"]  # to the asker only


def test_R7_6_hints_are_counted_and_shown_with_the_match_result() -> None:
    room, mover = started()
    room.do(c.Hint(mover))
    room.now += HINT_EVERY
    room.do(c.Hint(mover))
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(3))
    seat = 0 if mover == "ws-ada" else 1
    over = [
        e
        for m in room.sent["ws-bea"]
        if m["type"] == "event"
        for e in m["events"]
        if e["kind"] == "match_over"
    ]
    assert over[0]["detail"]["hints"][seat] == 2 and over[0]["detail"]["hints"][1 - seat] == 0


def test_R7_6_no_hint_at_a_ranked_table_with_a_clear_reason() -> None:
    room, mover = started({"match_target": 500, "stock_size": None})
    room.do(c.Hint(mover))
    refused = errors(room, mover)[-1]
    assert refused["code"] == "ranked" and refused["about"] == "hint"
    assert "ranked" in refused["message"]
    assert room.master.match.hints == [0, 0]


def test_R7_6_the_house_rules_may_turn_hints_off() -> None:
    room, mover = started({"hints": False})
    room.do(c.Hint(mover))
    assert errors(room, mover)[-1]["code"] == "hints_off"


def test_R7_6_not_for_watchers_nor_out_of_turn_and_a_position_once_a_while() -> None:
    room, mover = started()
    watcher = room.connect(EVE)
    room.do(c.Hint(watcher))
    assert errors(room, watcher)[-1]["code"] == "not_seated"
    waiting = "ws-bea" if mover == "ws-ada" else "ws-ada"
    room.do(c.Hint(waiting))
    assert errors(room, waiting)[-1]["code"] == "not_your_turn"
    room.do(c.Hint(mover))
    room.do(c.Hint(mover))
    assert errors(room, mover)[-1]["code"] == "rate_limited"
    assert len([m for m in room.sent[mover] if m["type"] == "hint"]) == 1
    room.act(mover, room.last(mover, "hint")["action"])  # a new position: asked at once
    if room.master.match.game_match.current == room.view(mover)["view"]["seat"]:
        room.do(c.Hint(mover))
        assert len([m for m in room.sent[mover] if m["type"] == "hint"]) == 2


def test_R7_6_hints_used_survive_a_restart_of_the_table() -> None:
    room, mover = started()
    room.do(c.Hint(mover))
    runtime = room.master.runtime_json()
    assert sorted(runtime["hints"]) == [0, 1]


def test_R7_6_a_skyjo_table_gives_the_hard_levels_step_with_its_reason() -> None:
    room = Room.open(seats=2, game="skyjo", options={"end_score": 10})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    seat = room.master.match.game_match.current
    mover = next(conn for conn in ("ws-ada", "ws-bea") if room.view(conn)["view"]["seat"] == seat)
    room.do(c.Hint(mover))
    hint = room.last(mover, "hint")
    assert hint["action"] in room.view(mover)["legal"]
    assert hint["reason"].startswith("turns the card at column")  # the reveal phase (S1.2)


def test_R7_6_a_skyjo_table_may_turn_hints_off_too() -> None:
    room = Room.open(seats=2, game="skyjo", options={"end_score": 10, "hints": False})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    seat = room.master.match.game_match.current
    mover = next(conn for conn in ("ws-ada", "ws-bea") if room.view(conn)["view"]["seat"] == seat)
    room.do(c.Hint(mover))
    assert errors(room, mover)[-1]["code"] == "hints_off"
