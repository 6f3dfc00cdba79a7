"""Lobby commands travel between processes by value: JSON there and back, nothing else."""

from __future__ import annotations

import pytest

from cardroom.tables import commands as c

from .harness import ADA

LOBBY = [
    c.Join(ADA, 1),
    c.Leave(ADA),
    c.AddBot(ADA, None, "easy"),
    c.FillWithBots(ADA, "hard"),
    c.ClearSeat(ADA, 2),
    c.Configure(ADA, {"stock": "low"}, 60),
    c.Start(ADA, rematch=True),
    c.SkipTurn(ADA),
    c.Evict(ADA, 3),
    c.Rename(ADA),
]


@pytest.mark.parametrize("command", LOBBY, ids=lambda command: type(command).__name__)
def test_a_lobby_command_survives_its_json_form(command):
    assert c.lobby_command_from_json(c.lobby_command_to_json(command)) == command


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "Act", "who": {"id": "p", "name": "A"}, "conn": "x", "id": "a", "action": {}},
        {"type": "TimerFired", "timer": "turn"},  # the table's own machinery: never sent
        {"type": "Join", "seat": 1},  # nobody sends it
        {"type": "Join", "who": {"id": "p"}},
        {"type": "Join", "who": {"id": "p", "name": "A"}, "colour": "red"},
    ],
)
def test_anything_else_is_refused(data):
    with pytest.raises(ValueError):
        c.lobby_command_from_json(data)
