"""Moderation against a real server: roles, reports that quote the table's own chat, sanctions
(a mute refuses the next chat line, a ban closes every socket and refuses sign-in, saying why
and until when), the audit log, and the console API's refusals: a player gets 403 and changes
nothing, an unknown player or match is 404, a moderator cannot sanction an admin or themself,
only admins grant roles, actions are rate-limited, nothing edits the audit log."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from conftest import CARDROOM, TIMEOUT, Person, Server

PASSWORD = "correct horse battery"
QUICK = {"stock_size": 3, "match_target": None, "turn_timer": 3600}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One SQLite server for the module (each test makes people of its own)."""
    workdir = tmp_path_factory.mktemp("moderation")
    server = Server(f"sqlite:///{workdir / 'cardroom.db'}", workdir)
    server.start()
    yield server
    server.stop()


def admin_command(server: Server, *args: str, expect: int = 0) -> subprocess.CompletedProcess:
    """``cardroom admin ...`` on the server's database, as its operator would run it."""
    done = subprocess.run(
        [str(CARDROOM), "admin", *args, "--db", server.db_url],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=server.workdir,
    )
    assert done.returncode == expect, done.stderr + done.stdout
    return done


def unique(name: str) -> str:
    return f"{name}{secrets.token_hex(3)}"


async def account(server: Server, name: str, role: str | None = None) -> Person:
    """A claimed account, given ``role`` on the command line (``cardroom admin grant``)."""
    person = await Person(server, unique(name)).register()
    await person.claim(PASSWORD)
    if role is not None:
        admin_command(server, "grant", person.name, role, "--reason", "staff for the test")
    return person


def refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    return error


async def at_one_table(ada: Person, bob: Person) -> str:
    """Ada and Bob seated at a waiting public table, both connected."""
    made = await ada.post("/api/tables", {"seats": 2, "options": QUICK}, expect=201)
    table = made["table"]["id"]
    await bob.post(f"/api/tables/{table}/join")
    await ada.connect(table)
    await bob.connect(table)
    return table


async def say(person: Person, text: str) -> None:
    await person.send({"type": "chat", "text": text})


async def audit(moderator: Person, target: str) -> list[dict[str, Any]]:
    response = await moderator.http.get("/api/admin/audit", params={"target": target})
    assert response.status_code == 200, response.text
    return response.json()["entries"]


# -- roles and the console's refusals ------------------------------------------------------------


ADMIN_READS = [
    "/api/admin/me",
    "/api/admin/live",
    "/api/admin/players?q=a",
    "/api/admin/reports",
    "/api/admin/audit",
    "/api/admin/staff",
]


async def test_every_admin_route_refuses_a_player_with_403_and_changes_nothing(room):
    mod = await account(room, "Mod", "moderator")
    eve, bob = await account(room, "Eve"), await Person(room, unique("Bob")).register()
    for path in [*ADMIN_READS, f"/api/admin/players/{bob.id}"]:
        refused(await eve.http.get(path), 403, "forbidden")
        refused(await bob.http.get(path), 403, "forbidden")  # a guest too
    table = await at_one_table(eve, bob)
    writes = [
        ("/api/admin/sanctions", {"player": bob.id, "kind": "ban", "reason": "no reason at all"}),
        ("/api/admin/sanctions/1/lift", {"reason": "lifting"}),
        ("/api/admin/reports/1", {"status": "dismissed", "outcome": "nothing"}),
        (f"/api/admin/tables/{table}/close", {"reason": "closing it"}),
        ("/api/admin/roles", {"player": eve.id, "role": "admin", "reason": "myself"}),
        ("/api/admin/matches/m_any/void", {"reason": "i lost it"}),
        ("/api/admin/matches/m_any/unvoid", {"reason": "i won it"}),
        (f"/api/admin/players/{bob.id}/cheat", {"reason": "he beat me"}),
        (f"/api/admin/players/{bob.id}/cheat/clear", {"reason": "he is fine"}),
    ]
    for path, body in writes:
        refused(await eve.http.post(path, json=body), 403, "forbidden")
    async with httpx.AsyncClient(base_url=room.url) as anonymous:
        refused(await anonymous.get("/api/admin/reports"), 401, "unauthorized")
    assert await audit(mod, bob.id) == [] and await audit(mod, table) == []
    assert await audit(mod, eve.id) == []
    await say(bob, "still here")  # no ban, no mute: the table goes on
    assert (await eve.expect(lambda m: m["type"] == "chat"))["text"] == "still here"
    assert (await eve.http.get(f"/api/tables/{table}")).json()["table"]["status"] == "waiting"
    await eve.close()
    await bob.close()


async def test_unknown_players_matches_sanctions_and_reports_are_404(room):
    mod = await account(room, "Mod", "moderator")
    ada = await Person(room, unique("Ada")).register()
    refused(await mod.http.get("/api/admin/players/p_nobody"), 404, "not_found")
    body = {"player": "p_nobody", "kind": "warn", "reason": "who is this"}
    refused(await mod.http.post("/api/admin/sanctions", json=body), 404, "not_found")
    lift = {"reason": "lifting nothing"}
    refused(await mod.http.post("/api/admin/sanctions/999999/lift", json=lift), 404, "not_found")
    decide = {"status": "handled", "outcome": "nothing here"}
    refused(await mod.http.post("/api/admin/reports/999999", json=decide), 404, "not_found")
    close = {"reason": "no such table"}
    refused(await mod.http.post("/api/admin/tables/t_none/close", json=close), 404, "not_found")
    why = {"reason": "no such thing"}
    refused(await mod.http.post("/api/admin/matches/m_none/void", json=why), 404, "not_found")
    refused(await mod.http.post("/api/admin/matches/m_none/unvoid", json=why), 404, "not_found")
    refused(await mod.http.post("/api/admin/players/p_nobody/cheat", json=why), 404, "not_found")
    report = {"player": "p_nobody", "reason": "name"}
    refused(await ada.http.post("/api/reports", json=report), 404, "not_found")
    report = {"player": mod.id, "reason": "cheating", "match": "m_nothing"}
    refused(await ada.http.post("/api/reports", json=report), 404, "not_found")
    assert await audit(mod, "p_nobody") == []
    # refusals are answers, not failures: the server's log holds no traceback for them
    assert "Traceback" not in room.log.read_text()


async def test_a_moderator_cannot_sanction_an_admin_or_themself_and_only_admins_grant(room):
    boss = await account(room, "Boss", "admin")
    mod = await account(room, "Mod", "moderator")
    other = await account(room, "Other", "moderator")
    eve = await account(room, "Eve")
    for target in (boss, mod, other):
        body = {"player": target.id, "kind": "mute", "reason": "quiet please", "minutes": 5}
        refused(await mod.http.post("/api/admin/sanctions", json=body), 403, "forbidden")
    grant = {"player": eve.id, "role": "moderator", "reason": "help wanted"}
    refused(await mod.http.post("/api/admin/roles", json=grant), 403, "forbidden")
    self_grant = {"player": boss.id, "role": "player", "reason": "stepping down"}
    refused(await boss.http.post("/api/admin/roles", json=self_grant), 403, "forbidden")
    for staff in (boss, other):  # only the command line's grant that made them staff
        assert [e["actor"]["name"] for e in await audit(boss, staff.id)] == ["command line"]
    done = await boss.post("/api/admin/roles", grant)
    assert (done["before"], done["role"]) == ("player", "moderator")
    me = (await eve.http.get("/api/admin/me")).json()
    assert me["staff"]["role"] == "moderator" and me["may_grant"] is False
    # The admin may sanction a moderator; the role is read at every request.
    body = {"player": mod.id, "kind": "warn", "reason": "be gentler with newcomers"}
    assert (await boss.post("/api/admin/sanctions", body, expect=201))["sanction"]["kind"] == "warn"
    entry = (await audit(boss, eve.id))[0]
    assert entry["action"] == "grant" and entry["actor"]["id"] == boss.id
    assert entry["reason"] == "help wanted" and entry["details"]["role"] == "moderator"


async def test_bad_sanctions_are_refused_before_anything_is_written(room):
    mod = await account(room, "Mod", "moderator")
    bob = await Person(room, unique("Bob")).register()
    bad = [
        {"player": bob.id, "kind": "exile", "reason": "not a kind"},
        {"player": bob.id, "kind": "mute", "reason": "a mute needs minutes"},
        {"player": bob.id, "kind": "ban", "reason": "x"},  # a reason says something
        {"player": bob.id, "kind": "warn", "reason": "a warning lasts", "minutes": 10},
        {"player": bob.id, "kind": "rename", "reason": "no new name given"},
        {"player": bob.id, "kind": "rename", "reason": "a reserved name", "name": "Master"},
        {"player": bob.id, "kind": "ban", "reason": "negative time", "minutes": -5},
    ]
    for body in bad:
        response = await mod.http.post("/api/admin/sanctions", json=body)
        assert response.status_code in (400, 409), (body, response.text)
    extra = {"player": bob.id, "kind": "warn", "reason": "extra field", "chat": "forged"}
    refused(await mod.http.post("/api/admin/sanctions", json=extra), 400, "bad_request")
    assert await audit(mod, bob.id) == []
    assert (await mod.http.get(f"/api/admin/players/{bob.id}")).json()["sanctions"] == []


async def test_nothing_edits_or_deletes_the_audit_log(room):
    boss = await account(room, "Boss", "admin")
    bob = await Person(room, unique("Bob")).register()
    body = {"player": bob.id, "kind": "warn", "reason": "mind your words"}
    await boss.post("/api/admin/sanctions", body, expect=201)
    [entry] = await audit(boss, bob.id)
    for method in ("PUT", "PATCH", "DELETE"):
        for path in ("/api/admin/audit", f"/api/admin/audit/{entry['id']}"):
            response = await boss.http.request(method, path, json={"reason": "rewritten"})
            assert response.status_code in (404, 405), (method, path, response.text)
    database = room.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(database) as conn:  # the database itself refuses, whoever asks
        for statement in (
            "UPDATE moderation_audit SET reason = 'x'",
            "DELETE FROM moderation_audit",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement)
    assert await audit(boss, bob.id) == [entry]


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_staff_actions_and_reports_are_rate_limited(fresh_server):
    server = fresh_server(
        CARDROOM_MODERATION_BURST="2",
        CARDROOM_MODERATION_RATE="0.001",
        CARDROOM_REPORT_BURST="2",
        CARDROOM_REPORT_RATE="0.001",
    )
    server.start()
    mod = await account(server, "Mod", "moderator")
    people = [await Person(server, unique("P")).register() for _ in range(3)]
    for person in people[:2]:
        body = {"player": person.id, "kind": "warn", "reason": "a fair warning"}
        await mod.post("/api/admin/sanctions", body, expect=201)
    body = {"player": people[2].id, "kind": "warn", "reason": "one too many"}
    refused(await mod.http.post("/api/admin/sanctions", json=body), 429, "rate_limited")
    assert await audit(mod, people[2].id) == []
    reporter = people[0]
    for target in (people[1], people[2]):
        await reporter.post("/api/reports", {"player": target.id, "reason": "name"}, expect=201)
    third = {"player": mod.id, "reason": "name"}
    refused(await reporter.http.post("/api/reports", json=third), 429, "rate_limited")


# -- reports ---------------------------------------------------------------------------------------


async def test_a_report_quotes_the_chat_the_table_kept_not_what_the_client_says(room):
    mod = await account(room, "Mod", "moderator")
    ada, bob = [await Person(room, unique(n)).register() for n in ("Ada", "Bob")]
    table = await at_one_table(ada, bob)
    await say(bob, "you play like a potato")
    await ada.expect(lambda m: m["type"] == "chat" and m["from"]["id"] == bob.id)
    forged = {"player": bob.id, "reason": "chat", "table": table, "chat": [{"text": "forged"}]}
    refused(await ada.http.post("/api/reports", json=forged), 400, "bad_request")
    body = {"player": bob.id, "reason": "chat", "table": table, "note": "rude"}
    report = (await ada.post("/api/reports", body, expect=201))["report"]
    assert report["status"] == "open" and report["table"] == table
    [line] = report["context"]["chat"]
    assert (line["from"]["id"], line["text"]) == (bob.id, "you play like a potato")
    refused(await ada.http.post("/api/reports", json=body), 409, "conflict")  # once is enough
    refused(
        await ada.http.post("/api/reports", json={**body, "player": ada.id}), 400, "bad_request"
    )
    stranger = await Person(room, unique("Cy")).register()  # never at the table
    refused(await stranger.http.post("/api/reports", json=body), 403, "forbidden")
    queue = (await mod.http.get("/api/admin/reports")).json()
    assert report["id"] in [r["id"] for r in queue["reports"]]
    decided = await mod.post(
        f"/api/admin/reports/{report['id']}", {"status": "dismissed", "outcome": "banter"}
    )
    assert decided["report"]["status"] == "dismissed"
    again = {"status": "handled", "outcome": "changed my mind"}
    refused(await mod.http.post(f"/api/admin/reports/{report['id']}", json=again), 409, "conflict")
    [entry] = await audit(mod, f"report:{report['id']}")
    assert entry["details"]["status"] == "dismissed" and entry["reason"] == "banter"
    await ada.close()
    await bob.close()


# -- sanctions -------------------------------------------------------------------------------------


async def test_a_muted_player_is_told_and_their_next_chat_line_is_refused_until_lifted(room):
    mod = await account(room, "Mod", "moderator")
    ada, bob = [await Person(room, unique(n)).register() for n in ("Ada", "Bob")]
    table = await at_one_table(ada, bob)
    await say(bob, "spam spam spam")
    await ada.expect(lambda m: m["type"] == "chat" and m["text"] == "spam spam spam")
    report = (
        await ada.post("/api/reports", {"player": bob.id, "reason": "chat", "table": table}, 201)
    )["report"]
    body = {
        "player": bob.id,
        "kind": "mute",
        "reason": "spam",
        "minutes": 30,
        "report": report["id"],
    }
    made = (await mod.post("/api/admin/sanctions", body, expect=201))["sanction"]
    told = await bob.expect(lambda m: m["type"] == "sanction")
    assert told["sanction"]["kind"] == "mute" and told["sanction"]["reason"] == "spam"
    assert told["sanction"]["until"] == made["until"]
    await say(bob, "can you hear me")
    error = await bob.expect(lambda m: m["type"] == "error")
    assert (error["code"], error["about"], error["until"]) == ("muted", "chat", made["until"])
    assert "spam" in error["message"] and "until" in error["message"]
    handled = (await mod.http.get(f"/api/admin/players/{bob.id}")).json()
    assert handled["standing"]["muted"]["id"] == made["id"]
    assert handled["reports_about"][0]["status"] == "handled"
    mine = (await bob.http.get("/api/me/sanctions")).json()["sanctions"]
    assert mine[0]["kind"] == "mute" and mine[0]["in_force"] is True
    await mod.post(f"/api/admin/sanctions/{made['id']}/lift", {"reason": "apologised"})
    await bob.expect(lambda m: m["type"] == "sanction" and m["sanction"].get("lifted"))
    await say(bob, "sorry everyone")
    heard = await ada.expect(lambda m: m["type"] == "chat" and m["from"]["id"] == bob.id)
    assert heard["text"] == "sorry everyone"  # the muted line was never said
    assert [e["action"] for e in await audit(mod, bob.id)] == ["lift", "sanction"]
    await ada.close()
    await bob.close()


async def test_a_ban_closes_every_socket_and_refuses_sign_in_saying_why_and_until_when(room):
    mod = await account(room, "Mod", "moderator")
    ada = await Person(room, unique("Ada")).register()
    bob = await account(room, "Bob")
    table = await at_one_table(ada, bob)
    second = websockets.connect(f"{room.ws_url}/ws/tables/{table}", open_timeout=TIMEOUT)
    async with second as other_tab:
        await other_tab.send(f'{{"type": "hello", "token": "{bob.token}"}}')
        await other_tab.recv()  # welcome
        body = {"player": bob.id, "kind": "ban", "reason": "cheating", "minutes": 60 * 24}
        made = (await mod.post("/api/admin/sanctions", body, expect=201))["sanction"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(other_tab.recv(), TIMEOUT)
        assert closed.value.rcvd.code == 4403 and "cheating" in closed.value.rcvd.reason
    await bob.expect(lambda m: m["type"] == "sanction" and m["sanction"]["kind"] == "ban")
    await asyncio.wait_for(bob._reader, TIMEOUT)  # the first tab is closed too
    assert bob.ws.close_code == 4403
    error = refused(await bob.http.get("/api/me"), 403, "banned")
    assert error["sanction"]["until"] == made["until"] and "cheating" in error["message"]
    async with httpx.AsyncClient(base_url=room.url) as fresh:
        signin = await fresh.post(
            "/api/account/signin", json={"name": bob.name, "password": PASSWORD}
        )
        error = refused(signin, 403, "banned")
        assert "until" in error["message"] and error["sanction"]["reason"] == "cheating"
    await ada.close()


async def test_a_forced_rename_shows_at_the_table_and_a_closed_table_tells_everyone(room):
    mod = await account(room, "Mod", "moderator")
    ada, bob = [await Person(room, unique(n)).register() for n in ("Ada", "Bob")]
    table = await at_one_table(ada, bob)
    new_name = unique("Player")
    body = {"player": bob.id, "kind": "rename", "reason": "an offensive name", "name": new_name}
    await mod.post("/api/admin/sanctions", body, expect=201)
    await ada.expect(
        lambda m: (
            m["type"] == "table"
            and any((s["player"] or {}).get("name") == new_name for s in m["table"]["seats"])
        )
    )
    assert (await bob.http.get("/api/me")).json()["player"]["name"] == new_name
    await mod.post(f"/api/admin/tables/{table}/close", {"reason": "a fight broke out"})
    notice = await ada.expect(lambda m: m["type"] == "notice")
    assert (notice["code"], notice["message"]) == ("table_closed", "a fight broke out")
    refused(await ada.http.get(f"/api/tables/{table}"), 404, "not_found")
    live = (await mod.http.get("/api/admin/live")).json()["processes"]
    assert table not in [t["id"] for p in live for t in p["tables"]]
    assert [e["action"] for e in await audit(mod, table)] == ["close_table"]


async def test_the_command_line_sanctions_and_reads_the_log_and_the_server_carries_it_out(room):
    ada, bob = [await Person(room, unique(n)).register() for n in ("Ada", "Bob")]
    table = await at_one_table(ada, bob)
    admin_command(room, "sanction", bob.id, "mute", "--reason", "flooding", "--minutes", "5")
    await bob.expect(lambda m: m["type"] == "sanction", timeout=15)  # the server's poll
    await say(bob, "hello?")
    assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "muted"
    listing = admin_command(room, "audit", "--target", bob.id).stdout
    assert "command line: sanction" in listing and "flooding" in listing
    refused_run = admin_command(room, "sanction", "p_nobody", "warn", "--reason", "who", expect=2)
    assert refused_run.stderr.startswith("refused:")
    admin_command(room, "grant", bob.id, "admin", expect=2)  # a guest holds no role
    await ada.close()
    await bob.close()
    del table


# -- two processes ---------------------------------------------------------------------------------


@pytest.mark.postgres
async def test_a_mute_made_on_one_process_refuses_the_chat_line_on_the_other(tmp_path: Path):
    from conftest import PostgresDatabase
    from test_cluster import REDIS_URL, _drop_keys

    db = PostgresDatabase()
    prefix = f"cardroom-test-{secrets.token_hex(4)}:"
    env = {"CARDROOM_REDIS_URL": REDIS_URL, "CARDROOM_REDIS_PREFIX": prefix}
    one, two = Server(db.url, tmp_path, **env), Server(db.url, tmp_path, **env)
    try:
        one.start()
        two.start()
        mod = await account(one, "Mod", "moderator")
        ada = await Person(one, unique("Ada")).register()
        bob = await Person(two, unique("Bob")).register()  # Bob's socket is on the other one
        table = await at_one_table(ada, bob)
        body = {"player": bob.id, "kind": "mute", "reason": "insults", "minutes": 10}
        await mod.post("/api/admin/sanctions", body, expect=201)
        await bob.expect(lambda m: m["type"] == "sanction")  # told on process two, at once
        await say(bob, "one more insult")
        error = await bob.expect(lambda m: m["type"] == "error")
        assert error["code"] == "muted" and "insults" in error["message"]
        for _ in range(100):  # the other process's census is as of its last heartbeat
            live = (await mod.http.get("/api/admin/live")).json()["processes"]
            if sum(p["sockets"] for p in live) >= 2:
                break
            await asyncio.sleep(0.2)
        assert len(live) == 2 and [p["sockets"] for p in live] == [1, 1]
        assert table in [t["id"] for p in live for t in p["tables"]]
        await ada.close()
        await bob.close()
    finally:
        one.stop()
        two.stop()
        db.drop()
        await _drop_keys(prefix)
