"""Skyjo at a table: the table master runs it through the Game contract alone, in-process."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from cardroom.games import get_game
from cardroom.games.base import Step, rebuild
from cardroom.games.skyjo import HIDDEN
from cardroom.tables import commands as c
from cardroom.tables.settings import TableSettings

from .harness import ADA, BEA, CAL, EVE, PACE, Room

SKYJO = get_game("skyjo")
VIEW_KEYS = {
    "game", "seat", "players", "phase", "current", "turn", "grids", "discard_top",
    "discard_count", "draw_count", "holding", "drawn", "reveals_left", "starter", "closer",
    "result", "scores", "end_score", "options",
}  # fmt: skip


def assert_nothing_hidden_was_told(room: Room, messages: list[dict[str, Any]]) -> None:
    """No message holds a face-down card of anyone (its owner's included), the draw pile's
    order, or a drawn card anyone but its drawer may see."""
    state = room.master.match.game_match.state
    for message in messages:
        view = message.get("view")
        if view:
            assert set(view) == VIEW_KEYS
            for owner, columns in enumerate(view["grids"]):
                for column, cells in enumerate(columns):
                    for row, cell in enumerate(cells):
                        p = column * 3 + row
                        card, up = state.cards[owner][p], state.up[owner][p]
                        assert cell == (None if card is None else card if up else HIDDEN)
            if view["drawn"] is not None:
                assert view["seat"] == state.current and view["drawn"] == state.drawn
        for event in message.get("events") or []:
            detail, seat = event["detail"], event["seat"]
            if event["kind"] == "drew":
                assert detail == {}
            if "row" in detail and seat is not None and state.phase != "over":
                p = (detail["column"] - 1) * 3 + detail["row"] - 1
                assert state.cards[seat][p] is None or state.up[seat][p], event


def test_a_whole_skyjo_match_through_the_table_master_never_tells_a_face_down_card():
    room = Room.open(seats=3, game="skyjo", options={"end_score": 40})
    room.sit(ADA, BEA, CAL)
    room.connect(EVE)
    room.do(c.Start(ADA))
    conns = ["ws-ada", "ws-bea", "ws-cal"]
    rng = random.Random(12)
    seen = {conn: 0 for conn in room.sent}
    played = 0
    for _ in range(5000):
        match = room.master.match
        assert match is not None
        for conn, messages in room.sent.items():
            assert_nothing_hidden_was_told(room, messages[seen.get(conn, 0) :])
            seen[conn] = len(messages)
        if match.game_match.over:
            break
        seat = match.game_match.current
        if seat is None:
            room.advance(5.0)  # the pause between rounds
            continue
        mover = conns[seat]
        view = room.view(mover)
        assert view["view"]["current"] == seat
        room.act(mover, rng.choice(view["legal"]))
        played += 1
    match = room.master.match
    assert match.game_match.over and room.master.status == "finished"
    assert match.game_match.round_number >= 1 and played > 20
    assert room.finished == [match.id]
    steps = [Step(r.kind, r.seat, r.action) for r in room.moves() if r.match_id == match.id]
    options = SKYJO.options_from_json(match.game_match.options.to_json())
    assert rebuild(SKYJO, options, match.game_match.seed, steps).scores == match.game_match.scores
    facts = SKYJO.analyse(options, match.game_match.seed, steps)
    assert list(facts.winners) == list(match.game_match.winners)
    events = [e for m in room.sent["ws-eve"] if m["type"] == "event" for e in m["events"]]
    kinds = [e["kind"] for e in events]
    assert kinds[:4] == ["match_started", "round_started", "dealt", "turn"]
    assert kinds[-1] == "match_over" and "round_summary" in kinds and "starts" in kinds
    assert all("legal" not in m for m in room.sent["ws-eve"])


def test_a_skyjo_turn_timer_plays_the_default_for_an_absent_player():
    patient = TableSettings(bot_delay=0.5, round_pause=2.0, autopilot_after=99, history=256)
    room = Room.open(seats=2, game="skyjo", options={"turn_timer": 10}, settings=patient)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.advance(10.0)  # Ada turns nothing: the first two of her cards are turned for her
    grid = room.view("ws-bea")["view"]["grids"][0]
    assert grid[0][0] != HIDDEN and grid[0][1] != HIDDEN and grid[0][2] == HIDDEN
    assert room.master.match.game_match.current == 1
    room.advance(10.0)
    room.advance(10.0)  # the first turn: a card is drawn, discarded and a card turned
    timed_out = [r for r in room.moves() if r.action == {"type": "timeout"}]
    assert len(timed_out) == 3
    assert room.master.match.game_match.state.phase == "play"


def test_a_game_without_bots_keeps_timing_out_an_absent_player_instead_of_seating_a_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("cardroom.tables.master.levels_for", lambda game: {})  # no levels
    patient = dataclasses.replace(PACE, forfeit_after=100)  # not the ladder's forfeit here
    room = Room.open(seats=2, game="skyjo", options={"turn_timer": 10}, settings=patient)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    for _ in range(8):
        room.advance(10.0)
        assert room.think() == 0, "a bot was asked to play a game that has none"
    events = [e["kind"] for m in room.sent["ws-ada"] if m["type"] == "event" for e in m["events"]]
    assert "autopilot" not in events and events.count("timed_out") == 8


def test_an_absent_skyjo_player_is_handed_to_the_autopilot_level_after_repeated_timeouts():
    room = Room.open(seats=2, game="skyjo", options={"turn_timer": 10})  # autopilot after 2
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    assert room.master.levels["easy"].game == "skyjo"
    thought = 0
    for _ in range(12):
        room.advance(10.0)
        thought += room.think()
    events = [e["kind"] for m in room.sent["ws-ada"] if m["type"] == "event" for e in m["events"]]
    assert "autopilot" in events and thought > 0
