"""People who are really there, through a real server: the turn of someone gone is skipped by
another player after a grace period (and only then); quick play pairs only people connected
now; the lobby lists a table only while one of its players is there, and not once finished;
a table its players left closes. Table time runs fast (CLOCK_SPEED), so nothing sleeps long."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from conftest import TIMEOUT, Person, play_until_over

pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)

QUICK = {"stock_size": 3, "match_target": None}


async def listed(server) -> set[str]:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return {t["id"] for t in (await http.get("/api/tables")).json()["tables"]}


async def test_another_player_skips_the_turn_of_someone_offline_after_the_grace_period(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    tid = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]["id"]
    await bob.post(f"/api/tables/{tid}/join")
    await ada.connect(tid)
    await bob.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    first = await ada.expect(lambda m: m["type"] == "event" and m.get("view"))
    if first["view"]["current"] == ada.seat:  # let it be Bob's turn: Ada discards
        discard = next(a for a in first["legal"] if a["type"] == "discard")
        await ada.act(discard)
    await bob.close()  # Bob's tab is closed on his turn
    news = await ada.expect(
        lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"]
    )
    assert news["claim_in"] is not None and news["claim_in"] > 0
    early = await ada.post(f"/api/tables/{tid}/skip", expect=409)
    assert "Bob is offline" in early["error"]["message"]
    for _ in range(int(TIMEOUT * 10)):  # 20 table seconds: 0.4 s at 50x
        response = await ada.http.post(f"/api/tables/{tid}/skip")
        if response.status_code == 200:
            break
        await asyncio.sleep(0.1)
    assert response.status_code == 200, response.text
    skipped = await ada.expect(
        lambda m: m["type"] == "event" and m["events"][0]["kind"] == "skipped"
    )
    assert skipped["events"][0]["detail"]["name"] == "Ada"
    assert [e["kind"] for e in skipped["events"]][:2] == ["skipped", "timed_out"]
    assert skipped["view"]["current"] == ada.seat
    cyd = await Person(server, "Cyd").register()
    refused = await cyd.post(f"/api/tables/{tid}/skip", expect=403)  # not at the table
    assert refused["error"]["code"] == "forbidden"
    await ada.close()


async def test_quick_play_pairs_only_people_who_are_connected_now(server):
    ghost = await Person(server, "Ghost").register()
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    rules = {"stock_size": 5, "match_target": 25}
    haunted = await ghost.post("/api/quickplay", {"seats": 2, "options": rules}, expect=201)
    await ghost.connect(haunted["table"]["id"])
    assert haunted["table"]["id"] in await listed(server)
    await ghost.close()  # two seconds later, the tab is closed
    for _ in range(int(TIMEOUT * 10)):
        if haunted["table"]["id"] not in await listed(server):
            break  # the table leaves the public list at once
        await asyncio.sleep(0.05)
    assert haunted["table"]["id"] not in await listed(server)
    mine = await ada.post("/api/quickplay", {"seats": 2, "options": rules}, expect=201)
    assert mine["table"]["id"] != haunted["table"]["id"] and mine["created"] is True
    await ada.connect(mine["table"]["id"])
    paired = await bob.post("/api/quickplay", {"seats": 2, "options": rules})
    assert paired["table"]["id"] == mine["table"]["id"] and paired["created"] is False
    await ada.close()


async def test_finished_tables_leave_the_list_and_a_table_its_players_left_closes(server):
    ada = await Person(server, "Ada").register()
    body = {"seats": 2, "options": QUICK, "public": True, "abandon_after": 3600}
    tid = (await ada.post("/api/tables", body, expect=201))["table"]["id"]
    await ada.post(f"/api/tables/{tid}/bots", {"level": "easy"})
    await ada.connect(tid)
    spectator = await Person(server, "Eve").register()
    await spectator.connect(tid)  # a watcher does not keep the table open
    assert tid in await listed(server)
    await ada.post(f"/api/tables/{tid}/start")
    await play_until_over(ada)
    for _ in range(int(TIMEOUT * 10)):
        if tid not in await listed(server):
            break
        await asyncio.sleep(0.05)
    assert tid not in await listed(server)  # finished
    # The short timeout is set only now, with Ada here: set at creation, its five table
    # seconds (0.1 s) could pass before her first connect, and did with two suites running
    # side by side (the table closed under her: "this table is closed").
    patched = await ada.http.patch(f"/api/tables/{tid}", json={"abandon_after": 5})
    assert patched.status_code == 200, patched.text
    await ada.close()
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(int(TIMEOUT * 10)):  # 5 table seconds: 0.1 s at 50x
            response = await http.get(f"/api/tables/{tid}")
            if response.status_code == 404:
                break
            await asyncio.sleep(0.1)
    assert response.status_code == 404
    await spectator.expect(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
    await spectator.close()
