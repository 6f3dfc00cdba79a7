"""A hostile client against a real server: each abuse limit holds (with small limits set by
``CARDROOM_*``), and bad input is refused with a 4xx, never a 500."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from conftest import TIMEOUT, Person

QUICK = {"stock_size": 3, "match_target": None}


def refused(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    return error


def rate_limited(response: httpx.Response) -> None:
    refused(response, 429, "rate_limited")
    assert int(response.headers["retry-after"]) >= 1


# -- tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_tables_per_player_and_creations_per_player_and_address_are_bounded(fresh_server):
    server = fresh_server(
        CARDROOM_PLAYERS_ADDRESS_BURST="3",
        CARDROOM_PLAYERS_ADDRESS_RATE="0.001",
        CARDROOM_MAX_TABLES_PER_PLAYER="2",
        CARDROOM_CREATE_BURST="3",
        CARDROOM_CREATE_RATE="0.001",
        CARDROOM_CREATE_ADDRESS_BURST="6",
        CARDROOM_CREATE_ADDRESS_RATE="0.001",
        CARDROOM_GUEST_MAX_ABANDON_AFTER="600",
    )
    server.start()
    ada, bob, cal = [await Person(server, name).register() for name in ("Ada", "Bob", "Cal")]
    async with httpx.AsyncClient(base_url=server.url) as http:  # guests come at a bounded rate
        rate_limited(await http.post("/api/players", json={"name": "Dan"}))
    # A guest's empty table lives an hour at most (here 600 s); refused before any bucket.
    body = {"options": QUICK, "abandon_after": 601}
    refused(await ada.http.post("/api/tables", json=body), 400, "bad_request")
    body = {"options": QUICK, "abandon_after": 604800}
    refused(await ada.http.post("/api/tables", json=body), 400, "bad_request")
    first = await ada.post("/api/tables", {"options": QUICK, "abandon_after": 600}, expect=201)
    table = first["table"]["id"]
    patch = await ada.http.patch(f"/api/tables/{table}", json={"abandon_after": 3600})
    refused(patch, 400, "bad_request")
    # Two open tables per player; the third is refused (and still counts as an attempt).
    await ada.post("/api/quickplay", {"bots": 1, "options": QUICK}, expect=201)
    refused(await ada.http.post("/api/tables", json={"options": QUICK}), 429, "too_many_tables")
    rate_limited(await ada.http.post("/api/tables", json={"options": QUICK}))  # 3 attempts a burst
    # The address's bucket (6) is shared by everyone behind it.
    await bob.post("/api/tables", {"options": QUICK}, expect=201)
    await bob.post("/api/tables", {"options": QUICK}, expect=201)
    await cal.post("/api/tables", {"options": QUICK}, expect=201)
    rate_limited(await cal.http.post("/api/tables", json={"options": QUICK}))
    rate_limited(await cal.http.post("/api/quickplay", json={"bots": 1}))
    # A signed-up player may keep an empty table longer than a guest.
    await ada.claim("correct horse battery")
    patch = await ada.http.patch(f"/api/tables/{table}", json={"abandon_after": 86400})
    assert patch.status_code == 200 and patch.json()["table"]["abandon_after"] == 86400


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_the_lobby_list_comes_in_pages_with_open_seats_first(fresh_server):
    server = fresh_server(CARDROOM_LOBBY_PAGE_SIZE="2", CARDROOM_LOBBY_MAX_PAGE_SIZE="3")
    server.start()
    people = [await Person(server, f"P{n}").register() for n in range(5)]
    full = await people[0].post("/api/tables", {"seats": 2, "options": QUICK}, expect=201)
    await people[1].post(f"/api/tables/{full['table']['id']}/join")
    await people[0].connect(full["table"]["id"])  # listed while one of its players is there
    for person in people[2:]:
        made = await person.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201)
        await person.connect(made["table"]["id"])
    async with httpx.AsyncClient(base_url=server.url) as http:
        first = (await http.get("/api/tables")).json()
        assert (first["total"], first["page"], first["per_page"]) == (4, 1, 2)
        assert [t["free_seats"] for t in first["tables"]] == [1, 1]
        every = (await http.get("/api/tables?per_page=3&page=2")).json()["tables"]
        assert [t["id"] for t in every] == [full["table"]["id"]]  # the full one comes last
        assert (await http.get("/api/tables?page=9")).json()["tables"] == []
        for query in ("per_page=4", "per_page=0x", "page=0", "page=99999999999999999999"):
            response = await http.get(f"/api/tables?{query}")
            assert response.status_code in (400, 422), (query, response.text)
            assert response.json()["error"]["code"] == "bad_request"
    for person in people:
        await person.close()


# -- sign-in ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_password_guesses_are_bounded_per_name_and_per_address(fresh_server):
    server = fresh_server(
        CARDROOM_SIGNIN_BURST="3",
        CARDROOM_SIGNIN_RATE="0.001",
        CARDROOM_SIGNIN_ADDRESS_BURST="7",
        CARDROOM_SIGNIN_ADDRESS_RATE="0.001",
    )
    server.start()
    ada = await Person(server, "Ada").register()
    await ada.post("/api/account/claim", {"password": "correct horse battery"}, expect=201)
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:

        async def sign_in(name: str, password: str = "wrong password") -> httpx.Response:
            return await http.post("/api/account/signin", json={"name": name, "password": password})

        for _ in range(3):
            refused(await sign_in("ada"), 401, "unauthorized")
        rate_limited(await sign_in(" ADA "))  # the same name, however it is typed
        rate_limited(await sign_in("Ada", "correct horse battery"))  # even the right password
        for _ in range(3):
            refused(await sign_in("Nobody"), 401, "unauthorized")
        rate_limited(await sign_in("Someone else"))  # the address has had its 7
        bob = await Person(server, "Bob").register()
        rate_limited(await bob.http.post("/api/account/claim", json={"password": "long enough"}))


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_password_hashing_runs_a_few_at_a_time_and_refuses_the_excess(fresh_server):
    server = fresh_server(CARDROOM_HASH_WORKERS="1", CARDROOM_HASH_WAIT="0.01")
    server.start()
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
        body = {"name": "Nobody", "password": "not the password"}
        answers = await asyncio.gather(
            *(http.post("/api/account/signin", json=body) for _ in range(8))
        )
    statuses = sorted(a.status_code for a in answers)
    assert 401 in statuses and 429 in statuses and set(statuses) == {401, 429}, statuses
    assert all("retry-after" in a.headers for a in answers if a.status_code == 429)


# -- named tables ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_named_table_guessing_is_bounded_per_player_and_per_address(fresh_server):
    server = fresh_server(
        CARDROOM_NAMED_BURST="3",
        CARDROOM_NAMED_RATE="0.001",
        CARDROOM_NAMED_ADDRESS_BURST="5",
        CARDROOM_NAMED_ADDRESS_RATE="0.001",
    )
    server.start()
    ada, bob = await Person(server, "Ada").register(), await Person(server, "Bob").register()
    for n in range(2):
        await ada.post("/api/tables/named", {"name": f"guess {n}"}, expect=201)
    await ada.post("/api/tables", {"name": "guess 2", "public": False}, expect=201)
    rate_limited(await ada.http.post("/api/tables/named", json={"name": "guess 3"}))
    await bob.post("/api/tables/named", {"name": "guess 0"})  # found: Bob sits down
    await bob.post("/api/tables/named", {"name": "guess 4"}, expect=201)
    rate_limited(await bob.http.post("/api/tables/named", json={"name": "guess 5"}))


# -- sockets ---------------------------------------------------------------------------------------


async def refused_socket(server, table_id: str, token: str) -> tuple[dict, int]:
    """A socket the table refuses: its error message and its close code."""
    async with websockets.connect(f"{server.ws_url}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), TIMEOUT)
        return error, ws.close_code


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_sockets_per_table_and_per_player_are_capped_and_watchers_are_not_broadcast(
    fresh_server,
):
    server = fresh_server(CARDROOM_MAX_SOCKETS_PER_TABLE="4", CARDROOM_MAX_SOCKETS_PER_PLAYER="2")
    server.start()
    ada, ada2 = await Person(server, "Ada").register(), Person(server, "Ada")
    table = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]
    ada2.token, ada2.id = ada.token, ada.id
    await ada.connect(table["id"])
    await ada2.connect(table["id"])
    error, code = await refused_socket(server, table["id"], ada.token)
    assert (error["type"], error["code"], code) == ("error", "too_many_sockets", 4429)
    watchers = [await Person(server, f"W{n}").register() for n in range(3)]
    for watcher in watchers[:2]:
        welcome = await watcher.connect(table["id"])
        assert welcome["spectator"] is True
    error, code = await refused_socket(server, table["id"], watchers[2].token)
    assert (error["code"], code) == ("too_many_sockets", 4429)
    # Watchers came and went: the seated player was told nothing of it.
    await watchers[0].close()
    pong = await ada.http.get(f"/api/tables/{table['id']}")
    assert pong.json()["table"]["spectators"] == 1
    await ada.send({"type": "ping", "id": "p"})
    await ada.expect(lambda m: m["type"] == "pong")
    assert [m["type"] for m in ada.messages].count("table") == 1  # Ada's own arrival
    await watchers[2].connect(table["id"])  # a place came free
    for person in (ada, ada2, watchers[1], watchers[2]):
        await person.close()


async def test_a_flood_gets_its_replies_then_the_documented_close_code(server):
    ada = await Person(server, "Ada").register()
    table = (await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201))["table"]
    async with websockets.connect(f"{server.ws_url}/ws/tables/{table['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": ada.token}))
        for n in range(300):  # far over the rate limit and the refusal budget
            await ws.send(json.dumps({"type": "nonsense", "n": n}))
        replies = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))
    assert closed.value.rcvd is not None, "closed without a close frame (1006)"
    assert closed.value.rcvd.code == 4408
    errors = [m for m in replies if m["type"] == "error"]
    assert len(errors) > 100  # every refusal before the close was delivered, not dropped
    assert {m["code"] for m in errors} <= {"bad_message", "rate_limited"}


# -- bad input -------------------------------------------------------------------------------------


async def test_bad_input_is_refused_never_a_server_error(server):
    ada = await Person(server, "Ada").register()
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
        for path in (
            "/api/leaderboards/scores?page=99999999999999999999",
            "/api/leaderboards/scores?page=-1",
            "/api/leaderboards/scores?size=99999999999999999999",
            "/api/leaderboards/scores?table=%00",
            "/api/leaderboards/scores?season=2026-10%00",
            "/api/tables?page=99999999999999999999",
        ):
            refused(await http.get(path), 400, "bad_request")
        for path in (
            "/api/players/%00/profile",
            "/api/players/p_%00x/ratings.png",
            "/api/matches/%00",
            "/api/matches/m_%00/record",
            "/api/tables/%00",
        ):
            refused(await http.get(path), 404, "not_found")

        def escaped(body: dict) -> bytes:
            """JSON as a client may send it: ``\\udc80`` escapes for lone surrogates."""
            return json.dumps(body).encode()

        for name in ("a\udc80b", "\ud83d", "nul\x00"):  # not even storable
            body = escaped({"name": name, "password": "whatever it is"})
            refused(await http.post("/api/account/signin", content=body), 400, "bad_request")
        for name in ("a\udc80b", "\ud83d", "evil\u202egnp.exe", "zero\u200bwidth", "nul\x00"):
            body = escaped({"name": name})
            refused(await http.post("/api/players", content=body), 400, "bad_request")
            named = await ada.http.post("/api/tables/named", content=body)
            refused(named, 400, "bad_request")
            public = escaped({"name": name, "public": True})
            refused(await ada.http.post("/api/tables", content=public), 400, "bad_request")
            refused(await ada.http.patch("/api/me", content=body), 400, "bad_request")
        async with websockets.connect(f"{server.ws_url}/ws/tables/t_%00") as ws:
            await ws.send(json.dumps({"type": "hello", "token": ada.token}))
            assert json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["code"] == "not_found"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            assert ws.close_code == 4404
        # An escaped NUL or lone surrogate anywhere in a body is refused as well.
        raw = b'{"options": {"starter": "x\\u0000"}}'
        response = await ada.http.post("/api/tables", content=raw)
        refused(response, 400, "bad_request")
        raw = b'{"name": "ok", "\\ud800": 1}'
        refused(await http.post("/api/players", content=raw), 400, "bad_request")


async def test_pages_carry_security_headers_and_a_content_security_policy(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        for path in ("/", "/api/tables", "/healthz", "/api/nothing"):
            headers = (await http.get(path)).headers
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"
            policy = headers["content-security-policy"]
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        docs = await http.get("/api/docs")
        assert docs.status_code == 200 and "content-security-policy" not in docs.headers


def test_the_abuse_bench_runs_short_and_everything_holds(capfd: pytest.CaptureFixture) -> None:
    """``cardroom bench abuse`` (long by default) in a short version: its own server, floods,
    fuzz, watchers, hidden cards and a private table; every probe must hold. Its server listens
    on the port given (``--port``), which is free again afterwards. README.md's command is
    checked here (tests/engine/test_documented_commands.py, ``RUN_ELSEWHERE``)."""
    from cardroom.benchmarks import abuse
    from cardroom.benchmarks.processes import free_port

    port = free_port()
    assert abuse.main(messages=600, sockets=40, requests=200, port=port)
    assert f"--port {port}" in capfd.readouterr().out
    assert abuse.port_is_free(port)


def test_the_abuse_bench_takes_a_port_and_refuses_a_busy_one() -> None:
    import socket

    from typer.testing import CliRunner

    from cardroom.cli import app

    runner = CliRunner()
    shown = runner.invoke(app, ["bench", "abuse", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "--port" in shown.output
    assert "Default: a free port" in shown.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        refused = runner.invoke(app, ["bench", "abuse", "--port", str(port)])
    assert refused.exit_code == 2 and "in use" in refused.output  # nothing was started
    assert runner.invoke(app, ["bench", "abuse", "--port", "0"]).exit_code == 2


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_a_request_head_sent_too_slowly_is_cut_off(fresh_server):
    server = fresh_server(CARDROOM_HEADER_TIMEOUT="1")
    server.start()
    port = int(server.url.rsplit(":", 1)[1])
    started = asyncio.get_running_loop().time()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and then nothing more
    await writer.drain()
    assert await asyncio.wait_for(reader.read(), TIMEOUT) == b""  # closed by the server
    assert asyncio.get_running_loop().time() - started < TIMEOUT
    writer.close()
    # A complete request on a fresh connection is answered as ever.
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/healthz")).status_code == 200
