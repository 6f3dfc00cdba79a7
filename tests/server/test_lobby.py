"""The HTTP lobby: identity, tables, named private tables, quick play, seats, owner powers."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from conftest import Person

# The table logic behind these tests runs in-process in tests/tables; through a real server
# they run on SQLite only (PostgreSQL keeps the tests where the database matters).
pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)

QUICK = {"stock_size": 3, "match_target": None}


async def test_health_index_levels_and_identity(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/healthz")).json()["ok"] is True
        assert (await http.get("/")).status_code == 200
        levels = (await http.get("/api/levels")).json()["levels"]
        assert {"beginner", "easy"} <= {level["id"] for level in levels}
        assert levels[0]["rating"]["mu"] < levels[-1]["rating"]["mu"]  # measured, weakest first
        assert all(lv["rating"]["low"] <= lv["rating"]["high"] for lv in levels)
        me = await http.get("/api/me")
        assert me.status_code == 401 and me.json()["error"]["code"] == "unauthorized"
        forged = await http.get("/api/me", headers={"Authorization": "Bearer eyJpZCI6InAifQ.xx"})
        assert forged.status_code == 401
        for bad in ({}, {"name": ""}, {"name": "x" * 33}, {"name": "a\x00b"}, {"name": 5}):
            response = await http.post("/api/players", json=bad)
            assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
        huge = await http.post("/api/players", content=b'{"name":"' + b"a" * 20000 + b'"}')
        assert huge.status_code == 413
    ada = await Person(server, "  Ada   Lovelace ").register()
    assert (await ada.http.get("/api/me")).json()["player"]["name"] == "Ada Lovelace"


async def test_bad_house_rules_are_refused_with_the_rule(server):
    ada = await Person(server, "Ada").register()
    refused = await ada.post("/api/tables", {"seats": 3, "options": {"teams": True}}, expect=400)
    request_id = refused["error"].pop("request_id")  # docs/protocol.md section 2
    assert refused["error"] == {
        "code": "bad_options",
        "message": "teams of two need 4, 6 or 8 players, not 3 (R2.3)",
        "rule": "R2.3",
    }
    assert isinstance(request_id, str) and request_id
    refused = await ada.post("/api/tables", {"seats": 9}, expect=400)
    assert refused["error"]["rule"] == "R2.1"
    refused = await ada.post("/api/tables", {"options": {"colour": "red"}}, expect=400)
    assert "colour" in refused["error"]["message"]
    refused = await ada.post("/api/tables", {"sneaky": 1}, expect=400)
    assert refused["error"]["code"] == "bad_request"


async def test_two_people_typing_the_same_name_reach_the_same_private_table(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    first, second = await asyncio.gather(
        ada.http.post("/api/tables/named", json={"name": "Friday  Night", "options": QUICK}),
        bob.http.post("/api/tables/named", json={"name": "friday night", "options": QUICK}),
    )
    a, b = first.json(), second.json()
    assert a["table"]["id"] == b["table"]["id"]
    assert sorted([a["created"], b["created"]]) == [False, True]
    assert {a["seat"], b["seat"]} == {0, 1}
    listed = (await ada.http.get("/api/tables")).json()["tables"]
    assert a["table"]["id"] not in {t["id"] for t in listed}  # private tables are not listed


async def test_quick_play_sits_people_at_a_waiting_public_table_with_the_same_rules(server):
    rules = {"stock_size": 4, "match_target": 200, "no_wild_discards": True}
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    cyd = await Person(server, "Cyd").register()
    first = await ada.post("/api/quickplay", {"seats": 2, "options": rules}, expect=201)
    await ada.connect(first["table"]["id"])  # only people connected now are paired
    second = await bob.post("/api/quickplay", {"seats": 2, "options": rules})
    assert second["table"]["id"] == first["table"]["id"] and second["seat"] == 1
    third = await cyd.post("/api/quickplay", {"seats": 2, "options": rules}, expect=201)
    assert third["table"]["id"] != first["table"]["id"]  # that one is full
    await cyd.connect(third["table"]["id"])  # listed while one of its players is there
    listed = {t["id"]: t for t in (await ada.http.get("/api/tables")).json()["tables"]}
    assert listed[first["table"]["id"]]["free_seats"] == 0
    assert [s["player"]["name"] for s in listed[first["table"]["id"]]["seats"]] == ["Ada", "Bob"]
    assert listed[third["table"]["id"]]["options"]["no_wild_discards"] is True
    await ada.close()
    await cyd.close()


async def test_seats_left_empty_at_the_start_stay_empty_and_a_leaver_comes_back(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    cyd = await Person(server, "Cyd").register()
    table = (await ada.post("/api/tables", {"seats": 3, "options": QUICK}, expect=201))["table"]
    tid = table["id"]
    await bob.post(f"/api/tables/{tid}/join", {"seat": 2})
    taken = await cyd.post(f"/api/tables/{tid}/join", {"seat": 2}, expect=409)
    assert taken["error"]["code"] == "conflict"
    started = await bob.post(f"/api/tables/{tid}/start")
    assert started["table"]["match"]["seats"] == [0, 2]
    assert started["table"]["options"]["players"] == 3
    late = await cyd.post(f"/api/tables/{tid}/join", expect=409)
    assert late["error"]["rule"] == "R2.4"
    left = await bob.post(f"/api/tables/{tid}/leave")
    assert left["table"]["seats"][2]["away"] is True
    back = await bob.post(f"/api/tables/{tid}/join")
    assert back["seat"] == 2 and back["table"]["seats"][2]["away"] is False
    again = await cyd.post(f"/api/tables/{tid}/start", expect=403)
    assert again["error"]["code"] == "forbidden"


async def test_only_the_owner_changes_rules_and_evicts(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    tid = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]["id"]
    await bob.post(f"/api/tables/{tid}/join")
    response = await bob.http.patch(f"/api/tables/{tid}", json={"abandon_after": 60})
    assert response.status_code == 403
    response = await ada.http.patch(
        f"/api/tables/{tid}", json={"options": {"turn_timer": 30}, "abandon_after": 600}
    )
    assert response.status_code == 200, response.text
    table = response.json()["table"]
    assert table["options"]["turn_timer"] == 30 and table["abandon_after"] == 600
    response = await ada.http.patch(f"/api/tables/{tid}", json={"options": {"turn_timer": 1}})
    assert response.json()["error"]["rule"] == "R7.3"

    await ada.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    first = await ada.expect(lambda m: m["type"] == "event" and m.get("view"))
    assert first["view"]["turn"] == 1
    await ada.post(f"/api/tables/{tid}/evict", {"seat": 1})
    evicted = await bob.post(f"/api/tables/{tid}/join", expect=403)
    assert evicted["error"]["code"] == "forbidden"
    # The evicted seat is played by a bot: the match goes on to its end.
    over = await ada.expect(
        lambda m: m.get("legal") or any(e["kind"] == "match_over" for e in m.get("events", ()))
    )
    assert over["view"]["current"] == ada.seat or over["view"]["result"] is not None
    await ada.close()


async def _at_a_waiting_table(server: Any) -> tuple[Person, str]:
    """Ada, her socket open at a new table of hers that waits to start (its sync received)."""
    ada = await Person(server, "Ada").register()
    tid = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]["id"]
    await ada.connect(tid)
    await ada.expect(lambda m: m["type"] == "sync")
    return ada, tid


async def test_flooding_a_socket_is_refused_without_changing_anything(server):
    ada, tid = await _at_a_waiting_table(server)
    for i in range(120):
        await ada.send({"type": "ping", "id": i})
    limited = await ada.expect(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
    assert limited["message"]
    pongs = [m for m in ada.messages if m["type"] == "pong"]
    assert len(pongs) < 120
    assert not [m for m in ada.messages if m["type"] == "event"]
    await ada.close()
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get(f"/api/tables/{tid}")).json()["table"]["status"] == "waiting"


async def test_an_action_refused_for_flooding_is_named_by_its_id(server):
    ada, _tid = await _at_a_waiting_table(server)
    for i in range(60):
        await ada.send({"type": "action", "id": f"flood-{i}", "action": {"type": "pass"}})
    await ada.expect(lambda m: m["type"] == "error" and m["code"] == "rate_limited")

    # The refusals of the socket's limiter come at once, the table's own (no match) after its
    # queue: wait for the sixtieth answer, in whichever order they come.
    def errors() -> int:
        return sum(m["type"] == "error" for m in ada.messages)

    if errors() < 60:
        await ada.expect(lambda _m: errors() >= 60)
    limited = [m for m in ada.messages if m["type"] == "error" and m["code"] == "rate_limited"]
    assert limited and all(m["id"] and m["id"].startswith("flood-") for m in limited)
    answered = [m["id"] for m in ada.messages if m["type"] == "error"]
    assert len(answered) == len(set(answered)) == 60  # each one answered once, by its id
    await ada.close()
