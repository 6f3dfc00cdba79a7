"""Table time: turn timers (R7.3), bots for absent players, rounds, team fall-back (R2.5),
abandoned tables. The server's clock runs fast (CLOCK_SPEED), so nothing here sleeps long."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from conftest import TIMEOUT, Person

from cardroom.games.skip import replay


def kinds(message: dict) -> list[str]:
    return [e["kind"] for e in message.get("events", ())]


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)  # see tests/tables
async def test_timed_out_turns_are_skipped_and_a_bot_plays_until_the_player_returns(fresh_server):
    # Table time runs 10x: a 5 s turn passes in half a second, a bot waits 0.2 s per move.
    server = fresh_server(CARDROOM_CLOCK_SPEED="10", CARDROOM_BOT_DELAY="2")
    server.start()
    ada = await Person(server, "Ada").register()
    eve = await Person(server, "Eve").register()  # watches
    options = {"stock_size": 20, "match_target": None, "turn_timer": 5}
    tid = (await ada.post("/api/tables", {"seats": 2, "options": options}, expect=201))["table"][
        "id"
    ]
    await ada.post(f"/api/tables/{tid}/bots", {"level": "easy"})
    await eve.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    mine = 0  # Ada sits at seat 0 and never acts

    for _ in range(3):  # each of her turns ends with no discard (R7.3)
        timed_out = await eve.expect(lambda m: "timed_out" in kinds(m))
        assert timed_out["events"][kinds(timed_out).index("timed_out")]["seat"] == mine
        assert "discarded" not in kinds(timed_out)
    assert timed_out["events"][0] == {"kind": "autopilot", "seat": mine, "detail": {"on": True}}
    bot_move = await eve.expect(
        lambda m: (
            m["type"] == "event"
            and any(e["kind"] in ("played", "discarded") and e["seat"] == mine for e in m["events"])
        )
    )
    assert bot_move["view"]["hand"] is None  # a spectator still sees no hand

    await ada.connect(tid)  # Ada is back: her seat is hers again
    back = await eve.expect(
        lambda m: m["type"] == "table" and not m["table"]["seats"][mine]["autopilot"]
    )
    assert back["table"]["seats"][mine]["connected"]
    idle = await eve.expect(lambda m: "timed_out" in kinds(m))
    assert idle["events"][kinds(idle).index("timed_out")]["seat"] == mine
    for person in (ada, eve):
        await person.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_rounds_add_up_and_a_team_falls_back_to_solo_when_a_partner_has_gone(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    options = {"stock_size": 3, "match_target": 200, "teams": True}
    tid = (await ada.post("/api/tables", {"seats": 4, "options": options}, expect=201))["table"][
        "id"
    ]
    await bob.post(f"/api/tables/{tid}/join")
    await ada.post(f"/api/tables/{tid}/bots", {"level": "easy"})
    await ada.post(f"/api/tables/{tid}/bots", {"level": "beginner"})
    await ada.connect(tid)
    started = await ada.post(f"/api/tables/{tid}/start")
    match_id = started["table"]["match"]["id"]
    first = await ada.expect(lambda m: "round_started" in kinds(m))
    assert first["view"]["partners"] == [2, 3, 0, 1]
    # Both people step away: bots play their seats meanwhile (R2.4, R7.3).
    await ada.post(f"/api/tables/{tid}/leave")
    await bob.post(f"/api/tables/{tid}/leave")

    summary = await ada.expect(lambda m: "round_summary" in kinds(m), timeout=TIMEOUT * 2)
    detail = summary["events"][kinds(summary).index("round_summary")]["detail"]
    assert detail["round"] == 1 and sum(detail["scores"]) >= 25
    solo = await ada.expect(lambda m: "solo" in kinds(m))
    started_two = solo["events"][kinds(solo).index("round_started")]["detail"]
    assert started_two == {"round": 2, "dealer": started_two["dealer"], "teams": False}
    assert solo["view"]["partners"] is None
    assert solo["view"]["hand"] is not None and solo["view"]["seat"] == 0

    over = await ada.expect(lambda m: "match_over" in kinds(m), timeout=TIMEOUT * 3)
    result = over["events"][kinds(over).index("match_over")]["detail"]
    assert max(result["scores"]) >= 200
    record = (await ada.http.get(f"/api/matches/{match_id}/record")).json()
    assert record["rounds"][0]["teams"] is True and record["rounds"][1]["teams"] is False
    assert replay(record).scores == result["scores"]

    rematch = await bob.post(f"/api/tables/{tid}/join")  # back at the table after the match
    assert rematch["seat"] == 1
    proposed = await bob.post(f"/api/tables/{tid}/rematch")  # a proposal Ada must accept
    assert proposed["table"]["status"] == "finished"
    assert proposed["table"]["rematch"]["waiting"] == [0]
    again = await ada.post(f"/api/tables/{tid}/rematch")
    assert again["table"]["status"] == "playing"
    assert again["table"]["match"]["id"] != match_id
    await ada.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_a_table_without_people_closes_after_its_abandoned_timeout(server):
    ada = await Person(server, "Ada").register()
    kept = await ada.post("/api/tables", {"seats": 2, "abandon_after": 3600}, expect=201)
    # A bot is seated first, then the timeout set: five seconds could pass before the bot is
    # seated on a busy machine, and a closed table takes no bot.
    left = await ada.post("/api/tables", {"seats": 2, "abandon_after": 3600}, expect=201)
    await ada.post(f"/api/tables/{left['table']['id']}/bots", {"level": "easy"})
    patched = await ada.http.patch(f"/api/tables/{left['table']['id']}", json={"abandon_after": 5})
    assert patched.status_code == 200, patched.text
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(int(TIMEOUT * 10)):
            response = await http.get(f"/api/tables/{left['table']['id']}")
            if response.status_code == 404:
                break
            await asyncio.sleep(0.1)
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
        assert (await http.get(f"/api/tables/{kept['table']['id']}")).status_code == 200
    await ada.connect(kept["table"]["id"])  # people keep a table open; a closed one is gone
    closed = await ada.http.post(f"/api/tables/{left['table']['id']}/join")
    assert closed.status_code == 404
    await ada.close()
