"""Private means private (issue "Fair and hard to break"): a private table is reached through
its name or an invitation its people hand out; its id alone opens nothing, and no public page
gives the id of a private table away."""

from __future__ import annotations

import asyncio

import pytest
import websockets
from conftest import TIMEOUT, Person, play_until_over

pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)

QUICK = {"stock_size": 2, "match_target": None}


async def refused_socket(person: Person, path: str) -> int:
    """The close code a socket gets for a hello at ``path``."""
    async with websockets.connect(f"{person.server.ws_url}{path}", open_timeout=TIMEOUT) as ws:
        await ws.send(f'{{"type": "hello", "token": "{person.token}"}}')
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
    return closed.value.rcvd.code


def without_request_id(body: dict) -> dict:
    """An error body without its request id (every answer has its own)."""
    body["error"].pop("request_id", None)
    return body


async def test_a_private_table_is_not_found_by_its_id_alone(server):
    ada = await Person(server, "Ada").register()
    eve = await Person(server, "Eve").register()
    made = await ada.post("/api/tables/named", {"name": "Secret Garden", "options": QUICK}, 201)
    table = made["table"]
    assert table["name"] == "Secret Garden" and len(table["invite"]) == 16
    unknown = without_request_id((await eve.http.get("/api/tables/t_00000000")).json())
    as_unknown = str(unknown).replace("t_00000000", table["id"])
    for path in (f"/api/tables/{table['id']}", f"/api/tables/{table['id']}?invite=guess"):
        found = await eve.http.get(path)
        shown = str(without_request_id(found.json()))
        assert found.status_code == 404 and shown == as_unknown  # indistinguishable
    for op in ("join", "bots", "start", "leave", "skip"):
        answer = await eve.http.post(f"/api/tables/{table['id']}/{op}", json={})
        assert answer.status_code == 404, (op, answer.text)
    assert await refused_socket(eve, f"/ws/tables/{table['id']}") == 4404
    # Nothing changed: Ada is still alone at her table, and nobody watches.
    mine = (await ada.http.get(f"/api/tables/{table['id']}")).json()["table"]
    assert [s["player"] for s in mine["seats"] if s["player"]] == [{"id": ada.id, "name": "Ada"}]
    assert mine["spectators"] == 0
    await ada.close()


async def test_an_invitation_opens_a_private_table_but_not_its_name(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    made = await ada.post("/api/quickplay", {"bots": 1, "options": QUICK}, 201)
    table_id, invite = made["table"]["id"], made["table"]["invite"]
    seen = (await bob.http.get(f"/api/tables/{table_id}?invite={invite}")).json()["table"]
    assert seen["id"] == table_id and seen["name"] is None and "invite" not in seen
    # With the invitation Bob may watch (a spectator's view: no hidden card, R7.2).
    await bob.connect(f"{table_id}?invite={invite}")
    assert bob.spectator
    await bob.close()
    # An invitation of one table opens no other.
    other = await ada.post("/api/quickplay", {"bots": 1, "options": QUICK}, 201)
    wrong = await bob.http.get(f"/api/tables/{other['table']['id']}?invite={invite}")
    assert wrong.status_code == 404


async def test_coming_through_the_name_gives_the_invitation_even_without_a_seat(server):
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    cyd = await Person(server, "Cyd").register()
    first = await ada.post("/api/tables/named", {"name": "Full House", "options": QUICK}, 201)
    await bob.post("/api/tables/named", {"name": "full house", "options": QUICK})
    third = await cyd.post("/api/tables/named", {"name": "FULL HOUSE", "options": QUICK})
    assert third["seat"] is None  # two seats, both taken
    assert third["table"]["invite"] == first["table"]["invite"]
    assert third["table"]["name"] == "Full House"


async def test_no_public_page_gives_a_private_tables_id_away(server):
    ada = await Person(server, "Ada").register()
    eve = await Person(server, "Eve").register()
    made = await ada.post("/api/quickplay", {"bots": 1, "options": QUICK}, 201)
    table_id = made["table"]["id"]
    await ada.connect(table_id)
    over = await play_until_over(ada, 5)
    match_id = next(e for e in over["events"] if e["kind"] == "match_over")["detail"]["match"]
    await ada.close()
    # The match's page and record are readable, without the private table's id.
    match = (await eve.http.get(f"/api/matches/{match_id}")).json()["match"]
    assert match["table_id"] is None
    # The league's pages: the profile's recent matches (once the league has the result) and
    # the boards' table filter.
    for _ in range(100):
        profile = (await eve.http.get(f"/api/players/{ada.id}/profile")).json()
        if profile["recent"]:
            break
        await asyncio.sleep(0.05)  # polling the league worker, not a timing assertion
    assert profile["recent"] and all(m["table"] is None for m in profile["recent"])
    assert table_id not in str(profile)
    board = await eve.http.get("/api/leaderboards/winners", params={"table": table_id})
    assert board.status_code == 404
    # A public table's id is public: its results may be filtered by it.
    public = await ada.post("/api/tables", {"options": QUICK, "public": True}, 201)
    board = await eve.http.get("/api/leaderboards/winners", params={"table": public["table"]["id"]})
    assert board.status_code == 200
