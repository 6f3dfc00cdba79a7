"""A table is made for a game: Skyjo through the real server, from the lobby to the record."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from conftest import Person, play_until_over

from cardroom.games.skyjo import replay as replay_skyjo

SHORT = {"end_score": 10}  # a short Skyjo game (S5.1)


async def test_the_lobby_lists_the_games_and_refuses_an_unknown_one(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        games = (await http.get("/api/games")).json()["games"]
    assert {g["name"] for g in games} >= {"skip", "skyjo"}
    ada = await Person(server, "Ada").register()
    refused = await ada.http.post("/api/tables", json={"game": "chess"})
    assert refused.status_code == 400 and "unknown game" in refused.json()["error"]["message"]
    bad = await ada.http.post("/api/tables", json={"game": "skyjo", "options": {"stock": 3}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_options"
    await ada.close()


async def test_two_people_play_a_skyjo_game_to_its_end_and_its_record_replays(server):
    ada = await Person(server, "Ada").register()
    bea = await Person(server, "Bea").register()
    eve = await Person(server, "Eve").register()  # watches: never a face-down card
    created = await ada.post(
        "/api/tables", {"game": "skyjo", "seats": 2, "options": SHORT}, expect=201
    )
    table = created["table"]
    assert table["game"] == "skyjo" and table["options"]["end_score"] == 10
    await bea.post(f"/api/tables/{table['id']}/join")
    for person in (ada, bea, eve):
        await person.connect(table["id"])
    await ada.post(f"/api/tables/{table['id']}/start")
    results = await asyncio.gather(play_until_over(ada, 1), play_until_over(bea, 2))
    over = next(e for e in results[0]["events"] if e["kind"] == "match_over")["detail"]
    totals = over["scores"]
    assert max(totals) >= 10 and over["winners"]
    assert all(totals[w] == min(totals) for w in over["winners"])  # the lowest total wins
    record = (await ada.http.get(f"/api/matches/{over['match']}/record")).json()
    assert record["game"] == "skyjo" and replay_skyjo(record).scores == totals
    watched = [m["view"] for m in eve.messages if m.get("view")]
    assert watched and all(v["seat"] is None for v in watched)
    # The review: Bea's decisions weighed by the Master level, the round in Bea's views only.
    reviewed = await eve.http.get(f"/api/matches/{over['match']}/review", params={"seat": 1})
    assert reviewed.status_code == 200, reviewed.text
    data = reviewed.json()
    assert data["game"] == "skyjo" and data["unit"] == "points" and data["names"][1] == "Bea"
    assert data["decisions"] == sum(1 for r in record["rounds"] for m in r["moves"] if m["seat"])
    assert data["frames"][0]["kind"] == "deal"
    assert all(f["view"]["seat"] == 1 and f["view"]["game"] == "skyjo" for f in data["frames"])
    for turn in data["costliest"]:
        assert turn["cost"] > 0 and turn["reason"] and turn["expert"][0]["type"] != "reveal"
    for person in (ada, bea, eve):
        await person.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_skyjo_quick_play_against_bots_is_one_call_when_the_game_has_bots(server):
    ada = await Person(server, "Ada").register()
    levels = (await ada.http.get("/api/levels", params={"game": "skyjo"})).json()["levels"]
    answer = await ada.http.post(
        "/api/quickplay", json={"game": "skyjo", "bots": 1, "level": "easy", "options": SHORT}
    )
    if not levels:  # no Skyjo bots in this build: refused, naming why
        assert answer.status_code == 400 and "no bots" in answer.json()["error"]["message"]
    else:
        assert answer.status_code == 201, answer.text
        table = answer.json()["table"]
        assert table["game"] == "skyjo" and table["status"] == "playing"
        await ada.connect(table["id"])
        over = await play_until_over(ada, 3)  # the bot plays its seat from its own view
        result = next(e for e in over["events"] if e["kind"] == "match_over")["detail"]
        assert max(result["scores"]) >= 10
    await ada.close()
