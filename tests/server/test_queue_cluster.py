"""The ranked queue on two server processes sharing PostgreSQL and Redis: people queueing on
either process are each matched exactly once, onto one table per match (no double booking),
and a ticket whose socket closed is never matched."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any

import httpx
import pytest
import websockets
from conftest import TIMEOUT, Server
from test_cluster import pair  # noqa: F401  (the fixture: two servers, one database, one Redis)

pytestmark = pytest.mark.postgres


async def guest(server: Server, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
        answer = await http.post("/api/players", json={"name": name})
        assert answer.status_code == 201, answer.text
        return answer.json()


async def queue_until_matched(
    server: Server, who: dict[str, Any], mode: str = "2p", partner: str | None = None
) -> dict[str, Any]:
    wanted = {"type": "queue", "game": "skip", "mode": mode}
    if partner is not None:
        wanted["partner"] = partner
    async with websockets.connect(server.ws_url + "/ws/queue") as ws:
        await ws.send(json.dumps({"type": "hello", "token": who["token"]}))
        await ws.send(json.dumps(wanted))
        async with asyncio.timeout(TIMEOUT):
            async for text in ws:
                message = json.loads(text)
                assert message["type"] != "error", message
                if message["type"] == "matched":
                    return {**message, "player": who["player"]["id"]}
    raise AssertionError("the socket closed before a match")


async def test_people_on_two_processes_are_each_matched_once(pair) -> None:  # noqa: F811
    servers = pair
    people = [await guest(servers[n % 2], f"P{n}") for n in range(12)]
    # A ticket that dies with its socket on one process is never matched on the other.
    async with websockets.connect(servers[0].ws_url + "/ws/queue") as ws:
        await ws.send(json.dumps({"type": "hello", "token": people[0]["token"]}))
        await ws.send(json.dumps({"type": "queue", "game": "skip", "mode": "2p"}))
        while json.loads(await ws.recv())["type"] != "queued":
            pass
    matched = await asyncio.gather(
        *(queue_until_matched(servers[n % 2], p) for n, p in enumerate(people))
    )
    by_table: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in matched:
        by_table[m["table"]].append(m)
    assert len(by_table) == 6
    for table_id, seated in by_table.items():
        assert sorted(m["seat"] for m in seated) == [0, 1]
        token = next(p["token"] for p in people if p["player"]["id"] == seated[0]["player"])
        async with httpx.AsyncClient(base_url=servers[1].url, timeout=TIMEOUT) as http:
            answer = await http.get(
                f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
            )
        table = answer.json()["table"]
        assert table["ranked"] and table["status"] == "playing"
        assert {s["player"]["id"] for s in table["seats"]} == {m["player"] for m in seated}


async def test_partners_on_two_processes_queue_together(pair) -> None:  # noqa: F811
    a, b = pair
    fay, gus = await guest(a, "Fay"), await guest(b, "Gus")
    hal, ivy = await guest(a, "Hal"), await guest(b, "Ivy")
    ids = {p["player"]["id"]: p for p in (fay, gus, hal, ivy)}
    fay_id, gus_id = fay["player"]["id"], gus["player"]["id"]
    matched = await asyncio.gather(
        queue_until_matched(a, fay, "teams", gus_id),
        queue_until_matched(b, gus, "teams", fay_id),
        queue_until_matched(a, hal, "teams"),
        queue_until_matched(b, ivy, "teams"),
    )
    assert len({m["table"] for m in matched}) == 1
    seat = {m["player"]: m["seat"] for m in matched}
    assert abs(seat[fay_id] - seat[gus_id]) == 2  # partners sit opposite (R2.3)
    assert sorted(seat.values()) == [0, 1, 2, 3] and set(seat) == set(ids)
