"""Set deals are a test servers' tool: a server without ``CARDROOM_SET_DEALS=1`` refuses them
wherever house rules are given, and changes nothing; on a test server the set first player
plays first and the deal shows in nobody's view (R7.2)."""

from __future__ import annotations

import pytest
from conftest import Person

DEAL = {"first": 0, "stocks": [[12]], "draw": [1, 2, 3, 4, 5]}


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_a_public_server_refuses_a_set_deal_everywhere_house_rules_are_given(fresh_server):
    server = fresh_server(CARDROOM_SET_DEALS="0")
    server.start()
    ada = await Person(server, "Ada").register()
    options = {"stock_size": 5, "deal": DEAL}
    for path, body in [
        ("/api/tables", {"seats": 2, "options": options}),
        ("/api/quickplay", {"bots": 1, "options": options}),
        ("/api/tables/named", {"name": "Dealt", "seats": 2, "options": options}),
    ]:
        refused = await ada.http.post(path, json=body)
        assert refused.status_code == 400, (path, refused.text)
        assert refused.json()["error"]["code"] == "bad_options"
        assert "test servers only" in refused.json()["error"]["message"]
    listed = (await ada.http.get("/api/tables")).json()
    assert listed["total"] == 0  # nothing was made
    made = await ada.post("/api/tables", {"seats": 2, "options": {"stock_size": 5}}, expect=201)
    table = made["table"]["id"]
    refused = await ada.http.patch(f"/api/tables/{table}", json={"options": {"deal": DEAL}})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_options"
    again = (await ada.http.get(f"/api/tables/{table}")).json()
    assert "deal" not in again["table"]["options"]
    await ada.http.aclose()


async def test_on_a_test_server_the_set_first_player_plays_first_and_no_view_shows_the_deal(
    server,
):
    ada = await Person(server, "Ada").register()
    body = {"bots": 1, "level": "easy", "options": {"stock_size": 5, "deal": DEAL}}
    out = await ada.post("/api/quickplay", body, expect=201)
    assert not out["table"]["ranked"]
    await ada.connect(out["table"]["id"])
    sync = await ada.expect(lambda m: m["type"] == "sync" and m.get("view"))
    view = sync["view"]
    assert view["current"] == 0  # Ada, set first: nobody moves before her
    assert view["stock_tops"][0] == 12 and sorted(view["hand"]) == [1, 2, 3, 4, 5]
    assert "deal" not in view["options"]
    await ada.close()
