"""The ranked queue in the real app (one process, the memory store, an injected clock): people
matched by rating onto a ranked table, a ticket dying with its socket, partners queueing
together, a bot after the chosen wait (casual, and the table says so); badges and rewards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect

from cardroom.server.app import create_app
from cardroom.server.settings import Settings

from .conftest import NOW


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client(engine: Engine, tmp_path: Path) -> Iterator[TestClient]:
    url = engine.url.render_as_string(hide_password=False)
    settings = Settings(
        db_url=url,
        bot_delay=0.0,
        bot_executor="inline",
        round_pause=0.1,
        ladder_enforced=False,  # guests from one address: the ladder's own tests are below
    )
    with TestClient(create_app(settings)) as test_client:
        test_client.app.state.league_clock = lambda: NOW
        test_client.app.state.queue.matchmaker.clock = Clock()
        yield test_client


def guest(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201
    return answer.json()


def queue(stack: ExitStack, client: TestClient, who: dict[str, Any], **wanted: Any) -> Any:
    ws = stack.enter_context(client.websocket_connect("/ws/queue"))
    ws.send_json({"type": "hello", "token": who["token"]})
    assert ws.receive_json()["type"] == "welcome"
    ws.send_json({"type": "queue", "game": "skip", **wanted})
    return ws


def seen_by(client: TestClient, who: dict[str, Any], table_id: str) -> dict[str, Any]:
    """A matched table is private: its people see it."""
    headers = {"Authorization": f"Bearer {who['token']}"}
    return client.get(f"/api/tables/{table_id}", headers=headers).json()["table"]


def until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] in ("queued", "searching", "partner_wait"), message
    raise AssertionError(f"no {kind}")


def test_two_people_are_matched_onto_a_ranked_table(client) -> None:
    ada, bob = guest(client, "Ada"), guest(client, "Bob")
    with ExitStack() as stack:
        a = queue(stack, client, ada, mode="2p")
        queued = until(a, "queued")
        assert (queued["near"], queued["gap"], queued["ranked"]) == (0.0, 1.5, True)
        b = queue(stack, client, bob, mode="2p")
        one, two = until(a, "matched"), until(b, "matched")
    assert one["table"] == two["table"] and {one["seat"], two["seat"]} == {0, 1}
    assert one["ranked"] is True and one["bot"] is None
    table = seen_by(client, ada, one["table"])
    assert table["ranked"] and table["status"] == "playing" and not table["public"]
    assert {s["player"]["name"] for s in table["seats"]} == {"Ada", "Bob"}


def test_a_ticket_dies_with_its_socket_and_one_ticket_per_player(client) -> None:
    cy, di, ed = guest(client, "Cy"), guest(client, "Di"), guest(client, "Ed")
    with ExitStack() as gone:
        c = queue(gone, client, cy, mode="2p")
        until(c, "queued")
        again = queue(gone, client, cy, mode="2p")  # another tab of the same player
        refused = until(again, "error")
        assert refused["code"] == "already_queued"
    # Cy's sockets are closed: Di waits alone, then is matched with Ed.
    with ExitStack() as stack:
        d = queue(stack, client, di, mode="2p")
        until(d, "queued")
        until(d, "searching")
        e = queue(stack, client, ed, mode="2p")
        assert until(d, "matched")["table"] == until(e, "matched")["table"]


def test_partners_queue_together_and_sit_opposite(client) -> None:
    people = [guest(client, n) for n in ("Fay", "Gus", "Hal", "Ivy")]
    fay, gus, hal, ivy = people
    with ExitStack() as stack:
        f = queue(stack, client, fay, mode="teams", partner=gus["player"]["id"])
        assert until(f, "partner_wait")["partner"] == gus["player"]["id"]
        g = queue(stack, client, gus, mode="teams", partner=fay["player"]["id"])
        until(g, "queued")
        h = queue(stack, client, hal, mode="teams")
        i = queue(stack, client, ivy, mode="teams")
        seats = {
            w: until(ws, "matched")["seat"] for w, ws in zip("fghi", (f, g, h, i), strict=True)
        }
    assert abs(seats["f"] - seats["g"]) == 2 and abs(seats["h"] - seats["i"]) == 2


def test_a_bot_after_the_chosen_wait_is_casual_and_says_so(client) -> None:
    jo = guest(client, "Jo")
    clock = client.app.state.queue.matchmaker.clock
    with ExitStack() as stack:
        j = queue(stack, client, jo, mode="2p", bot_after=15)
        until(j, "queued")
        clock.now += 16
        matched = until(j, "matched")
    assert matched["ranked"] is False and matched["bot"]
    table = seen_by(client, jo, matched["table"])
    assert table["ranked"] is False and table["casual"] is True
    assert table["seats"][1]["bot"]["level"] == matched["bot"]


def test_queue_messages_are_checked(client) -> None:
    kim = guest(client, "Kim")
    with ExitStack() as stack:
        k = queue(stack, client, kim, mode="5p")
        assert until(k, "error")["code"] == "bad_request"
        k.send_json({"type": "queue", "mode": "2p", "bot_after": 7})
        assert "bot_after" in until(k, "error")["message"]
        k.send_json({"type": "queue", "mode": "2p", "partner": kim["player"]["id"]})
        assert "teams" in until(k, "error")["message"]


def test_badges_and_rewards_are_the_players_on_every_device(client) -> None:
    lee = guest(client, "Lee")
    headers = {"Authorization": f"Bearer {lee['token']}"}
    answer = client.get("/api/badges", params={"player": [lee["player"]["id"]], "mode": "2p"})
    badge = answer.json()["badges"][lee["player"]["id"]]
    assert badge["division"]["id"] == "placement" and badge["card_back"] == "classic"
    locked = client.put("/api/me/rewards", json={"card_back": "champion"}, headers=headers)
    assert locked.status_code == 403 and "not unlocked" in locked.json()["error"]["message"]
    worn = client.put("/api/me/rewards", json={"theme": "walnut"}, headers=headers)
    assert worn.status_code == 200 and worn.json()["chosen"]["theme"] == "walnut"
    # Another device (a fresh sign-in would do the same) reads the same choice.
    answer = client.get("/api/badges", params={"player": [lee["player"]["id"]]})
    assert answer.json()["badges"][lee["player"]["id"]]["theme"] == "walnut"
    profile = client.get(f"/api/players/{lee['player']['id']}/profile").json()
    assert profile["rewards"]["chosen"]["theme"] == "walnut"
    assert profile["divisions"]["2p"]["id"] == "placement"
    assert client.get("/api/divisions").json()["divisions"][0]["id"] == "bronze"
    assert client.get("/api/divisions/gold").json()["entries"] == []
    assert client.get("/api/divisions/wood").status_code == 404


def test_a_queue_socket_waits_so_long_then_is_told_and_closed(engine: Engine) -> None:
    """Every endpoint has a lifetime: a ticket nobody matches goes after ``queue_max_wait``."""
    url = engine.url.render_as_string(hide_password=False)
    settings = Settings(db_url=url, queue_max_wait=1.5, ladder_enforced=False)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        ada = guest(client, "Ada")
        ws = queue(stack, client, ada, mode="2p", bot_after=None)
        assert ws.receive_json()["type"] == "queued"
        left = until(ws, "left")
        assert "nobody was found" in left["reason"] and "bot" in left["reason"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
        bea = guest(client, "Bea")  # Ada's ticket went with her socket: Bea waits alone,
        ws2 = queue(stack, client, bea, mode="2p", bot_after=None)
        until(ws2, "left")  # never matched (``until`` allows only waiting on the way)


# -- the ladder's rules (docs/league.md, "Ladder rules") ----------------------------------------


@pytest.fixture
def ladder_client(engine: Engine) -> Iterator[TestClient]:
    url = engine.url.render_as_string(hide_password=False)
    with TestClient(create_app(Settings(db_url=url, ladder_casual_matches=3))) as test_client:
        test_client.app.state.league_clock = lambda: NOW
        yield test_client


def test_a_guest_and_a_fresh_account_are_refused_by_the_ranked_queue(ladder_client) -> None:
    client = ladder_client
    mo = guest(client, "Mo")
    with ExitStack() as stack:
        refused = until(queue(stack, client, mo, mode="2p"), "error")
    assert refused["code"] == "ranked_locked"
    assert "claim your name" in refused["message"] and "3 more casual matches" in refused["message"]
    claimed = client.post(
        "/api/account/claim",
        json={"password": "a long password"},
        headers={"Authorization": f"Bearer {mo['token']}"},
    )
    assert claimed.status_code == 201
    mo = claimed.json()
    with ExitStack() as stack:
        refused = until(queue(stack, client, mo, mode="2p"), "error")
    assert refused["code"] == "ranked_locked"
    message = refused["message"]
    assert "claim" not in message and "finish 3 more casual matches" in message
