"""The gaps found when the server, the web client and the league met: ``after`` that names a
position, a ``hello`` reply that always ends with a view, fresh tokens, claimed names, quick
play against bots in one call, renaming a guest, and a server that starts without matplotlib."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
import websockets
from conftest import TIMEOUT, Person, Server
from itsdangerous import URLSafeSerializer

from cardroom.server.auth import Ticket, Tokens
from cardroom.tables.errors import Refusal

QUICK = {"stock_size": 5, "match_target": None}


async def bot_table(server: Server, name: str) -> tuple[Person, str]:
    """A person and a bot at a started 2-seat table, the person's socket open. The stocks are
    long enough that the bot cannot end the round before the person's first turn."""
    person = await Person(server, name).register()
    options = {**QUICK, "stock_size": 20}
    created = await person.post("/api/tables", {"seats": 2, "options": options}, expect=201)
    table = created["table"]["id"]
    await person.post(f"/api/tables/{table}/bots", {"level": "easy"})
    await person.connect(table)
    await person.post(f"/api/tables/{table}/start")
    return person, table


async def my_turn(person: Person) -> dict[str, Any]:
    """The message that made it this person's turn (the bot cannot move during it)."""
    return await person.expect(lambda m: m.get("view") is not None and bool(m.get("legal")))


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_after_names_the_position_so_presence_news_never_makes_a_move_stale(server):
    ada, table = await bot_table(server, "Ada")
    position = await my_turn(ada)
    # Table news (a watcher's arrival is not told, a new setting is): a `table` message
    # advances seq, but not the game.
    watcher = await Person(server, "Watcher").register()
    await watcher.connect(table)
    await ada.http.patch(f"/api/tables/{table}", json={"abandon_after": 600})
    news = await ada.expect(lambda m: m["type"] == "table" and m["table"]["abandon_after"] == 600)
    assert news["table"]["spectators"] == 1  # the watcher, counted in the next table message
    assert news["seq"] > position["seq"]

    legal = position["legal"]
    play = next((a for a in legal if a["type"] == "play"), legal[0])
    applied = await ada.act(play, after=position["seq"])
    assert applied["type"] == "event" and applied["ack"], applied

    # Now the position has changed: a decision taken on the old one is stale.
    stale = await ada.act({"type": "pass"}, after=position["seq"])
    assert stale["type"] == "error" and stale["code"] == "stale", stale
    # ... and one taken on the newest position (or any later presence news) is not.
    if applied.get("legal"):
        fresh = applied["legal"][0]
        answer = await ada.act(fresh, after=applied["seq"])
        assert answer.get("ack"), answer
    await watcher.close()
    await ada.close()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # see tests/tables
async def test_a_hello_reply_always_ends_with_the_current_view(server):
    ada, table = await bot_table(server, "Reloader")
    position = await my_turn(ada)
    seen = ada.seq
    await ada.close()
    # While away only presence news happened (Ada's own departure): no event to replay.
    await ada.connect(table, since=seen)
    resumed = await ada.expect(lambda m: m.get("view") is not None)
    assert resumed["type"] == "sync"
    assert resumed["view"] == position["view"] and resumed["legal"] == position["legal"]
    await ada.close()

    # Nothing at all missed: still a view to build on.
    await ada.connect(table, since=ada.seq)
    resumed = await ada.expect(lambda m: m.get("view") is not None)
    assert resumed["view"] == position["view"]
    await ada.close()


async def test_every_sign_in_gets_a_fresh_token_and_other_tokens_keep_working(server):
    ada = await Person(server, "Tokena").register()
    claimed = await ada.post("/api/account/claim", {"password": "correct horse"}, expect=201)
    tokens = []
    for _ in range(2):
        response = await ada.http.post(
            "/api/account/signin", json={"name": "tokena", "password": "correct horse"}
        )
        assert response.status_code == 200, response.text
        tokens.append(response.json()["token"])
    assert len({ada.token, claimed["token"], *tokens}) == 4
    for token in (claimed["token"], *tokens):
        me = await ada.http.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 200 and me.json()["player"]["id"] == ada.id
    # The guest token from before the claim is not the account's (a new generation).
    guest = await ada.http.get("/api/account", headers={"Authorization": f"Bearer {ada.token}"})
    assert guest.status_code == 401 and guest.json()["error"]["code"] == "token_revoked"
    await ada.http.aclose()


def test_tokens_carry_a_generation_and_an_expiry_and_tokens_without_one_are_expired() -> None:
    now = [1_000_000.0]
    tokens = Tokens("a test key", lifetime=60, clock=lambda: now[0])
    first, second = tokens.issue("p_1", 3), tokens.issue("p_1", 3)
    assert first != second
    assert tokens.read(first) == tokens.read(second) == Ticket("p_1", 3)
    now[0] += 60
    with pytest.raises(Refusal) as expired:
        tokens.read(first)
    assert (expired.value.status, expired.value.code) == (401, "token_expired")
    legacy = URLSafeSerializer("a test key", salt="cardroom-player").dumps(
        {"id": "p_1", "name": "Ada"}
    )
    with pytest.raises(Refusal) as old:
        tokens.read(legacy)
    assert old.value.code == "token_expired"


async def test_an_old_token_after_a_rename_joins_under_the_new_name(server):
    ada = await Person(server, "Before").register()
    old = ada.token
    renamed = await ada.http.patch("/api/me", json={"name": "After"})
    assert renamed.status_code == 200, renamed.text
    bob = await Person(server, "Host").register()
    table = (await bob.post("/api/tables", {"seats": 2}, expect=201))["table"]["id"]
    ada.http.headers["Authorization"] = f"Bearer {old}"
    joined = await ada.post(f"/api/tables/{table}/join")
    assert joined["table"]["seats"][1]["player"]["name"] == "After"
    welcome = await ada.connect(table)
    assert welcome["player"]["name"] == "After"
    for person in (ada, bob):
        await person.close()
        await person.http.aclose()


async def test_bad_tokens_are_refused_with_401_and_4401_on_a_real_server(server):
    ada = await Person(server, "Holder").register()
    table = (await ada.post("/api/tables", {"seats": 2}, expect=201))["table"]["id"]
    forged = Tokens("not the server's key", lifetime=3600).issue(ada.id, 0)
    for token in (forged, ada.token[:-2], "junk"):
        response = await ada.http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401, response.text
        assert response.json()["error"]["code"] == "unauthorized"
        async with websockets.connect(f"{server.ws_url}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert error["code"] == "unauthorized"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            assert ws.close_code == 4401
    seats = (await ada.http.get(f"/api/tables/{table}")).json()["table"]["seats"]
    assert [s["player"] and s["player"]["id"] for s in seats] == [ada.id, None]
    await ada.http.aclose()


async def test_a_guest_cannot_take_a_claimed_name(server):
    owner = await Person(server, "Claimed Carol").register()
    await owner.claim("correct horse")
    response = await owner.http.post("/api/players", json={"name": "  claimed   CAROL "})
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert error["code"] == "name_claimed" and "sign in" in error["message"]
    # Renaming a guest to it is refused the same way.
    guest = await Person(server, "Not Carol").register()
    renamed = await guest.http.patch("/api/me", json={"name": "claimed carol"})
    assert renamed.status_code == 409 and renamed.json()["error"]["code"] == "name_claimed"
    for person in (owner, guest):
        await person.http.aclose()


async def test_quick_play_against_bots_is_one_call(server):
    ada = await Person(server, "Quick").register()
    out = await ada.post(
        "/api/quickplay",
        {"bots": 2, "level": "easy", "options": {"stock_size": 10, "deal": {"first": 0}}},
        expect=201,
    )
    table = out["table"]
    assert out["seat"] == 0 and out["created"]
    assert table["status"] == "playing" and not table["public"]
    assert table["seats"][0]["player"]["id"] == ada.id
    assert [s["bot"]["level"] for s in table["seats"][1:]] == ["easy", "easy"]
    assert table["match"]["seats"] == [0, 1, 2] and table["options"]["stock_size"] == 10
    await ada.connect(table["id"])
    sync = await ada.expect(lambda m: m["type"] == "sync")
    assert sync["view"]["players"] == 3 and sync["view"]["seat"] == 0
    await ada.close()

    for wrong in ({"bots": 0}, {"bots": 8}, {"bots": 1, "level": "nope"}, {"bots": 1, "seats": 2}):
        response = await ada.http.post("/api/quickplay", json=wrong)
        assert response.status_code == 400, (wrong, response.text)
    bad_rules = await ada.http.post(
        "/api/quickplay", json={"bots": 1, "options": {"stock_size": 99}}
    )
    assert bad_rules.status_code == 400 and bad_rules.json()["error"]["code"] == "bad_options"


async def test_a_guest_renamed_keeps_the_same_player_and_seat(server):
    bob = await Person(server, "Bob").register()
    created = await bob.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201)
    table = created["table"]["id"]
    response = await bob.http.patch("/api/me", json={"name": "  Robert  "})
    assert response.status_code == 200, response.text
    renamed = response.json()
    assert renamed["player"] == {"id": bob.id, "name": "Robert"}
    assert renamed["token"] != bob.token
    seats = (await bob.http.get(f"/api/tables/{table}")).json()["table"]["seats"]
    assert seats[0]["player"] == {"id": bob.id, "name": "Robert"}
    me = await bob.http.get("/api/me", headers={"Authorization": f"Bearer {renamed['token']}"})
    assert me.json()["player"]["name"] == "Robert"

    # An account's name is its sign-in name: it does not change here.
    await bob.claim("correct horse")
    refused = await bob.http.patch("/api/me", json={"name": "Bobby"})
    assert refused.status_code == 403, refused.text
    await bob.http.aclose()


def test_the_server_starts_without_importing_matplotlib() -> None:
    """matplotlib costs seconds to import; only a rating plot needs it."""
    code = (
        "import sys, cardroom.cli, cardroom.commands.serve, cardroom.server.app\n"
        "app = cardroom.server.app.create_app()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout
