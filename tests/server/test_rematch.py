"""A rematch through a real server: proposed by one player, declined by another (the table
stays finished), accepted by everyone (a new match starts)."""

from __future__ import annotations

import pytest
from conftest import Person, play_until_over

pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)

QUICK = {"stock_size": 3, "match_target": None}


async def test_a_rematch_is_proposed_declined_then_accepted(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    tid = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]["id"]
    await bob.post(f"/api/tables/{tid}/join")
    await ada.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    await bob.post(f"/api/tables/{tid}/leave")  # a bot plays Bob's seat meanwhile
    over = await play_until_over(ada)
    first = over["match"]
    await bob.post(f"/api/tables/{tid}/join")  # back after the match
    await bob.connect(tid)
    proposed = await ada.post(f"/api/tables/{tid}/rematch")
    assert proposed["table"]["status"] == "finished"
    assert proposed["table"]["rematch"] == {
        "by": {"id": ada.id, "name": "Ada"},
        "accepted": [0],
        "waiting": [1],
    }
    news = await bob.expect(lambda m: m["type"] == "event" and "rematch_proposed" in kinds(m))
    assert news["events"][0]["detail"]["name"] == "Ada"
    declined = await bob.post(f"/api/tables/{tid}/rematch/decline")
    assert declined["table"]["status"] == "finished" and declined["table"]["rematch"] is None
    await ada.expect(lambda m: m["type"] == "event" and "rematch_declined" in kinds(m))
    again = await bob.post(f"/api/tables/{tid}/rematch/decline", expect=409)
    assert again["error"]["message"] == "no rematch has been proposed"
    await bob.post(f"/api/tables/{tid}/rematch")
    started = await ada.post(f"/api/tables/{tid}/rematch")
    assert started["table"]["status"] == "playing" and started["table"]["match"]["id"] != first
    for person in (ada, bob):
        await person.close()


def kinds(message: dict) -> list[str]:
    return [e["kind"] for e in message.get("events", ())]
