"""Playing over real sockets: a whole match, reconnects, refusals, duplicates, hidden cards."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import Person, Server, play_until_over

from cardroom.games.skip import replay

QUICK = {"stock_size": 3, "match_target": None}
ADA_FIRST = {"first": 0}  # a set deal: Ada (seat 0) plays first, so no bot ends it before her


async def table_for(server: Server, seats: int = 2, **options: object) -> tuple[Person, str]:
    ada = await Person(server, "Ada").register()
    created = await ada.post(
        "/api/tables",
        {"seats": seats, "options": {**QUICK, **options}, "abandon_after": 3600},
        expect=201,
    )
    return ada, created["table"]["id"]


async def test_a_full_match_of_two_people_and_a_bot_ends_with_a_replayable_record(server):
    ada, table = await table_for(server, seats=3, deal=ADA_FIRST)
    bob = await Person(server, "Bob").register()
    eve = await Person(server, "Eve").register()
    joined = await bob.post(f"/api/tables/{table}/join")
    assert joined["seat"] == 1
    await ada.post(f"/api/tables/{table}/bots", {"level": "easy"})
    for person in (ada, bob, eve):
        await person.connect(table)
    assert eve.spectator
    started = await bob.post(f"/api/tables/{table}/start")
    assert started["table"]["status"] == "playing"
    match_id = started["table"]["match"]["id"]

    early = await ada.http.get(f"/api/matches/{match_id}/record")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"

    ends = await asyncio.gather(play_until_over(ada, 1), play_until_over(bob, 2))
    over = await eve.expect(lambda m: any(e["kind"] == "match_over" for e in m.get("events", ())))
    assert ends[0]["seq"] == ends[1]["seq"] == over["seq"]

    record = (await ada.http.get(f"/api/matches/{match_id}/record")).json()
    assert [s["name"] for s in record["seats"]] == ["Ada", "Bob", "Easy bot"]
    assert record["result"]["finished"]
    replayed = replay(json.loads(json.dumps(record)))
    assert replayed.over and list(replayed.scores) == record["result"]["scores"]
    summary = (await ada.http.get(f"/api/matches/{match_id}")).json()["match"]
    assert summary["status"] == "finished" and summary["finished_at"]

    # Every event reached everyone, in order, with no gaps.
    for person in (ada, bob, eve):
        seqs = [m["seq"] for m in person.messages if m["type"] in ("event", "table")]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    for person in (ada, bob, eve):
        await person.close()


async def test_a_reconnecting_client_gets_what_it_missed_then_plays_on(server):
    ada, table = await table_for(server, stock_size=20, deal=ADA_FIRST)
    await ada.post(f"/api/tables/{table}/bots", {"level": "beginner"})
    await ada.connect(table)
    await ada.post(f"/api/tables/{table}/start")
    message = await ada.expect(lambda m: m["type"] == "event" and m.get("view"))
    while not message.get("legal"):
        message = await ada.expect(lambda m: m["type"] == "event")
    seen = ada.seq
    await ada.close()

    # Out of the room mid-turn: nothing changes while the player is away.
    mark = len(ada.messages)
    await ada.connect(table, since=seen)
    # A resync gives the same position; nothing but presence happened in between.
    await ada.send({"type": "resync"})
    sync = await ada.expect(lambda m: m["type"] == "sync")
    assert all(m["type"] in ("welcome", "table") for m in ada.messages[mark : ada.cursor - 1])
    assert sync["view"] == message["view"] and sync["legal"] == message["legal"]

    # Play one move, then come back as if that message had been lost.
    play = next(a for a in sync["legal"] if a["type"] == "discard")
    action = {"type": "action", "id": "ada-move-1", "action": play, "after": sync["seq"]}
    await ada.send(action)
    acked = await ada.expect(lambda m: m.get("ack") == "ada-move-1")
    await ada.close()
    await ada.connect(table, since=seen)
    replayed = await ada.expect(lambda m: m["type"] == "event")
    assert replayed["replayed"] and replayed["seq"] == acked["seq"]
    assert replayed.get("ack") == "ada-move-1"
    # The same action sent again (a resend after a reconnect) is not applied twice.
    await ada.send(action)
    duplicate = await ada.expect(lambda m: m["type"] == "ack")
    assert duplicate["duplicate"]
    await ada.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_illegal_out_of_turn_and_malformed_moves_are_refused_to_the_sender_only(server):
    ada, table = await table_for(server)
    bob = await Person(server, "Bob").register()
    await bob.post(f"/api/tables/{table}/join")
    await ada.connect(table)
    await bob.connect(table)
    await ada.post(f"/api/tables/{table}/start")
    first = await ada.expect(lambda m: m["type"] == "event" and m.get("view"))
    await bob.expect(lambda m: m["type"] == "event" and m.get("view"))
    mover, waiter = (ada, bob) if first["view"]["current"] == ada.seat else (bob, ada)
    position = mover.latest_view()
    seq = mover.seq

    refused = await waiter.act({"type": "pass"})
    assert refused["type"] == "error" and refused["code"] == "illegal" and refused["rule"] == "R7.1"

    hand = position["view"]["hand"]
    missing = next(c for c in range(1, 13) if c not in hand)
    refused = await mover.act({"type": "play", "from": "hand", "card": missing, "to": 1})
    assert refused["code"] == "illegal" and refused["rule"] == "R4.2"
    refused = await mover.act({"type": "pass"})
    assert refused["code"] == "illegal" and refused["rule"] == "R4.5"
    refused = await mover.act({"type": "play", "from": "stock", "to": 9})
    assert refused["code"] == "bad_action"
    refused = await mover.act({"type": "timeout"})
    assert refused["code"] == "bad_action"  # only a table may time a turn out (R7.3)

    for junk in ("not json", "[1,2]", '{"type":"launch"}', '{"type":"action","id":""}'):
        await mover.ws.send(junk)
        error = await mover.expect(lambda m: m["type"] == "error")
        assert error["code"] in ("bad_message", "bad_action")
    await mover.ws.send(json.dumps({"type": "ping", "id": "x" * 5000}))
    assert (await mover.expect(lambda m: m["type"] == "error"))["code"] == "too_large"
    # `after` older than the position shown (the last event) is stale; presence is not.
    stale = await mover.act(position["legal"][-1], after=position["seq"] - 1)
    assert stale["code"] == "stale"

    # Nothing changed: the same position, the same sequence number, for both players.
    await mover.send({"type": "resync"})
    sync = await mover.expect(lambda m: m["type"] == "sync")
    assert sync["seq"] == seq and sync["view"] == position["view"]
    assert not [
        m for m in waiter.messages if m["type"] == "error" and m["id"].startswith(mover.name)
    ]
    await ada.close()
    await bob.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_two_sockets_of_one_player_sending_one_action_apply_it_once(server):
    ada, table = await table_for(server, stock_size=20, deal=ADA_FIRST)
    await ada.post(f"/api/tables/{table}/bots", {"level": "easy"})
    await ada.connect(table)
    tab = Person(server, "Ada")
    tab.token, tab.id, tab.http.headers["Authorization"] = ada.token, ada.id, f"Bearer {ada.token}"
    await tab.connect(table)
    await ada.post(f"/api/tables/{table}/start")
    message = await ada.expect(lambda m: m["type"] == "event" and m.get("view"))
    while not message.get("legal"):
        message = await ada.expect(lambda m: m["type"] == "event")
    move = message["legal"][-1]
    request = json.dumps({"type": "action", "id": "same", "action": move})
    await asyncio.gather(ada.ws.send(request), tab.ws.send(request))
    applied = [
        await person.expect(lambda m: m["type"] == "event" and m.get("ack") == "same")
        for person in (ada, tab)
    ]
    assert applied[0]["seq"] == applied[1]["seq"]  # one move, acknowledged on both sockets
    duplicates = await asyncio.wait_for(both_answers(ada, tab), 60)
    assert len(duplicates) == 1 and duplicates[0]["duplicate"]
    assert not [m for p in (ada, tab) for m in p.messages if m["type"] == "error"]
    await ada.close()
    await tab.close()


async def both_answers(*people: Person) -> list[dict]:
    """The duplicate acknowledgements, once the second request has been answered."""
    while True:
        found = [m for p in people for m in p.messages if m["type"] == "ack" and m["id"] == "same"]
        if found:
            return found
        await asyncio.sleep(0.05)
