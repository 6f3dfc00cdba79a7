"""A rematch is a proposal the other people accept or decline, as on Board Game Arena: one
click never throws everyone into a new match; bots accept at once."""

from __future__ import annotations

import random

import pytest

from cardroom.tables import commands as c
from cardroom.tables.errors import Refusal

from .harness import ADA, BEA, EVE, Room, play_legal


def finished(*people, bots: int = 0) -> Room:
    room = Room.open(seats=len(people) + bots)
    room.sit(*people)
    for _ in range(bots):
        room.do(c.AddBot(ADA, None, "easy"))
    room.do(c.Start(ADA))
    play_legal(room, [f"ws-{p.name.lower()}" for p in people], random.Random(4))
    assert room.master.status == "finished"
    return room


def told(room: Room, conn: str) -> list[dict]:
    return [e for m in room.sent[conn] if m["type"] == "event" for e in m["events"]]


def test_a_rematch_starts_only_once_everyone_has_accepted():
    room = finished(ADA, BEA)
    first = room.master.match.id
    room.do(c.Start(ADA, rematch=True))
    assert room.master.status == "finished" and room.master.match.id == first
    proposal = room.master.info()["rematch"]
    assert proposal == {"by": ADA.to_json(), "accepted": [0], "waiting": [1]}
    news = told(room, "ws-bea")[-1]
    assert news["kind"] == "rematch_proposed" and news["detail"]["name"] == "Ada"
    assert room.last("ws-bea", "table")["table"]["rematch"] == proposal
    room.do(c.Start(ADA, rematch=True))  # asking twice changes nothing
    assert room.master.status == "finished"
    room.do(c.Start(BEA, rematch=True))
    assert room.master.status == "playing" and room.master.match.id != first
    assert room.master.info()["rematch"] is None
    kinds = [e["kind"] for e in told(room, "ws-ada")]
    accepted = len(kinds) - 1 - kinds[::-1].index("rematch_accepted")
    assert kinds[accepted + 1] == "match_started"


def test_a_declined_rematch_ends_the_proposal_and_the_table_stays_finished():
    room = finished(ADA, BEA)
    room.do(c.Start(ADA, rematch=True))
    room.do(c.DeclineRematch(BEA))
    assert room.master.status == "finished" and room.master.info()["rematch"] is None
    assert told(room, "ws-ada")[-1]["kind"] == "rematch_declined"
    assert told(room, "ws-ada")[-1]["detail"]["name"] == "Bea"
    room.do(c.Start(BEA))  # "start" after a match proposes too
    assert room.master.status == "finished"
    assert room.master.info()["rematch"]["by"]["id"] == BEA.id


def test_against_bots_a_rematch_starts_at_once():
    room = finished(ADA, bots=2)
    room.do(c.Start(ADA, rematch=True))
    assert room.master.status == "playing"
    assert "rematch_proposed" not in [e["kind"] for e in told(room, "ws-ada")]


def test_a_change_of_seats_withdraws_the_proposal():
    room = finished(ADA, BEA)
    room.do(c.Start(BEA, rematch=True))
    room.do(c.Leave(ADA))
    assert room.master.info()["rematch"] is None
    withdrawn = told(room, "ws-bea")[-1]
    assert withdrawn["kind"] == "rematch_withdrawn"
    assert withdrawn["detail"]["reason"] == "the seats changed"


def test_answering_a_rematch_needs_a_seat_and_a_proposal():
    room = finished(ADA, BEA)
    with pytest.raises(Refusal) as none:
        room.do(c.DeclineRematch(BEA))
    assert none.value.status == 409 and "no rematch" in none.value.message
    room.do(c.Start(ADA, rematch=True))
    room.connect(EVE)
    for command in (c.DeclineRematch(EVE), c.Start(EVE, rematch=True)):
        with pytest.raises(Refusal) as watcher:
            room.do(command)
        assert watcher.value.status == 403
