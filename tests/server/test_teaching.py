"""The expert teaching through the real server: a hint over the table socket (R7.6), counted
in the result, and the review of a finished match over HTTP, in the reviewed seat's views."""

from __future__ import annotations

import pytest
from conftest import Person, Server, over_in, play_until_over

QUICK = {"stock_size": 3, "match_target": None, "deal": {"first": 0}}


async def bot_match(server: Server, name: str, **options: object) -> tuple[Person, str, str]:
    """``name`` against an easy bot, started; (the person, the table id, the match id). The
    person (seat 0) plays first (a set deal), so the bot cannot win before their first turn."""
    person = await Person(server, name).register()
    created = await person.post(
        "/api/tables",
        {"seats": 2, "options": {**QUICK, **options}, "abandon_after": 3600},
        expect=201,
    )
    table = created["table"]["id"]
    await person.post(f"/api/tables/{table}/bots", {"level": "easy"})
    await person.connect(table)
    started = await person.post(f"/api/tables/{table}/start")
    return person, table, started["table"]["match"]["id"]


async def my_turn(person: Person) -> dict:
    return await person.expect(lambda m: m.get("view") is not None and bool(m.get("legal")))


async def test_R7_6_a_hint_over_the_socket_is_a_legal_step_from_ones_own_view(server):
    ada, _table, _match = await bot_match(server, "Ada", stock_size=8)
    position = await my_turn(ada)
    await ada.send({"type": "hint"})
    hint = await ada.expect(lambda m: m["type"] == "hint")
    assert hint["action"] in position["legal"] and hint["reason"] and hint["hints_used"] == 1
    over = over_in(ada) or await play_until_over(ada, 1, ada.latest_view())
    ended = next(e for e in over["events"] if e["kind"] == "match_over")
    assert ended["detail"]["hints"][ada.seat] == 1
    await ada.close()


async def test_R7_6_a_ranked_table_refuses_hints(server):
    # The standard rules (a set deal is never ranked); the bot cannot empty a stock of 30 first.
    bea, _table, _match = await bot_match(
        server, "Bea", stock_size=None, match_target=500, deal=None
    )
    await my_turn(bea)
    await bea.send({"type": "hint"})
    refused = await bea.expect(lambda m: m["type"] == "error")
    assert refused["code"] == "ranked" and refused["about"] == "hint"
    await bea.close()


@pytest.mark.slow
async def test_a_finished_match_is_reviewed_in_the_reviewed_seats_views(server):
    # A stock of 8: the bot cannot win in its first turn, before the early request.
    cal, _table, match = await bot_match(server, "Cal", stock_size=8)
    position = await my_turn(cal)
    early = await cal.http.get(f"/api/matches/{match}/review", params={"seat": 0})
    assert early.status_code == 409
    await play_until_over(cal, 2, position)
    response = await cal.http.get(f"/api/matches/{match}/review", params={"player": cal.id})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["seat"] == cal.seat and data["names"][cal.seat] == "Cal"
    assert data["frames"][0]["kind"] == "deal"
    for frame in data["frames"]:
        shown = frame["view"]
        assert shown["seat"] == cal.seat  # never another seat's view
        assert len(shown["hand"]) == shown["hand_counts"][cal.seat]
    for turn in data["costliest"]:
        assert turn["cost"] > 0 and turn["expert"] and turn["reason"]
    other = await cal.http.get(f"/api/matches/{match}/review", params={"seat": 1 - cal.seat})
    assert other.json()["frames"][-1]["view"]["seat"] == 1 - cal.seat
    bad = await cal.http.get(f"/api/matches/{match}/review", params={"seat": 5})
    assert bad.status_code == 400
    await cal.close()


@pytest.mark.slow
@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_reviews_are_limited_per_address_and_one_already_made_is_served_again(fresh_server):
    """A review is seconds of the expert's CPU: a client address gets a few (here one), and
    asking again for one already made costs nothing and is not counted."""
    server = fresh_server(
        CARDROOM_REVIEW_ADDRESS_BURST="1",
        CARDROOM_REVIEW_ADDRESS_RATE="0.001",
        CARDROOM_PLAYERS_ADDRESS_BURST="100",
    )
    server.start()
    dan, _table, match = await bot_match(server, "Dan")
    await play_until_over(dan, 3)
    url = f"/api/matches/{match}/review"
    first = await dan.http.get(url, params={"seat": 0})
    assert first.status_code == 200, first.text
    again = await dan.http.get(url, params={"seat": 0})
    assert again.status_code == 200 and again.json() == first.json()
    refused = await dan.http.get(url, params={"seat": 1})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) > 0
    await dan.close()
