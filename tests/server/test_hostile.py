"""What a hostile stranger sends a real server: actions of the wrong shape on Skip and Skyjo
tables, and frames nested too deep for a parser. Each gets a documented answer: ``bad_message``
naming the field (the table unchanged, a legal move still plays), or a close frame with a code
and a reason (docs/protocol.md section 4); never a dropped socket or a traceback."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from conftest import TIMEOUT, Person, Server
from test_keeper_api import SKYJO, keeper

from cardroom.server.protocol import CLOSE_TOO_DEEP, MAX_DEPTH

GAMES = {
    "skip": {"stock_size": 10, "match_target": None},
    "skyjo": {"end_score": 10},
}
# Each malformed action, and the field its error names.
MALFORMED: list[tuple[Any, str]] = [
    ({"type": {}}, "action.type"),
    ({"type": []}, "action.type"),
    ({"type": ["play"]}, "action.type"),
    ({"type": None}, "action.type"),
    ({"type": 7}, "action.type"),
    ({"type": True}, "action.type"),
    ({}, "action.type"),
    ({"type": "play", "from": {}, "to": 1}, "action.from"),
    ({"type": "play", "from": "hand", "card": [7], "to": 1}, "action.card"),
    ({"type": "reveal", "column": {"a": 1}, "row": 1}, "action.column"),
    ([{"type": "pass"}], "action"),
    ("pass", "action"),
    (None, "action"),
]
DEEP = "[" * 4000  # 4,000 bytes: under the message limit, past any parser's recursion


async def _started(server: Server, game: str) -> tuple[Person, Person, dict[str, Any]]:
    """Two people at a started table: (the one with a move to make, the other, their position)."""
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    created = await ada.post(
        "/api/tables", {"game": game, "seats": 2, "options": GAMES[game]}, expect=201
    )
    table = created["table"]["id"]
    await bob.post(f"/api/tables/{table}/join")
    await ada.connect(table)
    await bob.connect(table)
    await ada.post(f"/api/tables/{table}/start")
    for person in (ada, bob):
        await person.expect(lambda m: m["type"] == "event" and m.get("view"))
    for person, other in ((ada, bob), (bob, ada)):
        position = person.latest_view()
        if position is not None and position.get("legal"):
            return person, other, position
    raise AssertionError("nobody has a move to make")


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_malformed_actions_are_bad_messages_naming_the_field_and_change_nothing(
    server: Server, game: str
) -> None:
    mover, other, position = await _started(server, game)
    seen = len(other.messages)
    for action, field in MALFORMED:
        refused = await mover.act(action)
        assert refused["type"] == "error", (action, refused)
        assert refused["code"] == "bad_message" and refused["field"] == field, (action, refused)
        assert refused["message"]
    # A game's own notation still refuses a well-shaped action it cannot read: bad_action.
    refused = await mover.act({"type": "launch"})
    assert refused["code"] == "bad_action" and "field" not in refused
    # Nothing changed, nobody else heard of it, and the socket plays on.
    await mover.send({"type": "resync"})
    sync = await mover.expect(lambda m: m["type"] == "sync")
    assert sync["view"] == position["view"] and sync["legal"] == position["legal"]
    played = await mover.act(position["legal"][0])
    assert played["type"] == "event" and played.get("ack") is not None, played
    await other.expect(lambda m: m["type"] == "event" and m["seq"] == played["seq"])
    assert all(m["type"] != "error" for m in other.messages[seen:])
    for person in (mover, other):
        await person.close()


async def _closed_by(ws: Any) -> tuple[list[dict[str, Any]], int | None, str]:
    """What the server said before closing the socket, and its close frame's code and reason."""
    said = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            said.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))
    received = closed.value.rcvd
    assert received is not None, "the socket was dropped without a close frame"
    return said, received.code, received.reason


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "frame", [DEEP, "{" * 2000, '{"type":"ping","id":' + "[" * 17 + "]" * 17 + "}"]
)
async def test_a_frame_nested_too_deep_is_closed_with_1008_and_a_reason_on_every_socket(
    server: Server, frame: str
) -> None:
    ada = await Person(server, "Ada").register()
    created = await ada.post("/api/tables", {"seats": 2}, expect=201)
    table = f"{server.ws_url}/ws/tables/{created['table']['id']}"
    hello = json.dumps({"type": "hello", "token": ada.token})
    kept = await (await keeper(server, "Kim")).create(SKYJO)

    async def after(url: str, first: str | None, welcome: str) -> None:
        async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
            if first is not None:
                await ws.send(first)
            greeting = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert greeting["type"] == welcome
            await ws.send(frame)
            said, code, reason = await _closed_by(ws)
            assert code == CLOSE_TOO_DEEP and str(MAX_DEPTH) in reason, (url, code, reason)
            assert said[-1]["type"] == "error" and said[-1]["code"] == "too_deep", said

    await after(table, hello, "welcome")
    await after(f"{server.ws_url}/ws/queue", hello, "welcome")
    await after(f"{server.ws_url}/ws/keeper/{kept['code']}", None, "kept")
    # As the first message, in place of a hello, too.
    for url in (table, f"{server.ws_url}/ws/queue"):
        async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
            await ws.send(frame)
            said, code, reason = await _closed_by(ws)
            assert code == CLOSE_TOO_DEEP and str(MAX_DEPTH) in reason, (url, code, reason)
            assert [m["code"] for m in said] == ["too_deep"]
    await ada.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
async def test_nesting_up_to_the_limit_is_read_as_usual(server: Server) -> None:
    ada = await Person(server, "Ada").register()
    created = await ada.post("/api/tables", {"seats": 2}, expect=201)
    await ada.connect(created["table"]["id"])
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)  # in the ping: MAX_DEPTH deep
    await ada.ws.send('{"type":"ping","id":' + nested + "}")
    refused = await ada.expect(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_message"  # a ping id is a string or a number
    await ada.send({"type": "ping", "id": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})
    assert (await ada.expect(lambda m: m["type"] == "pong"))["id"].startswith("[[[")
    await ada.close()
