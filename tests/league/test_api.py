"""The league over HTTP and WebSocket, in the real app: accounts across devices, boards,
profiles with their rating plot, and an achievement announced at the table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from cardroom.games.skip import Options
from cardroom.league import on_match_finished
from cardroom.league.ratings import Skill, starting_skill
from cardroom.server.app import create_app
from cardroom.server.settings import Settings

from .conftest import NOW, add_player, add_table, played, store_match, winner_first


@pytest.fixture
def client(engine: Engine, tmp_path: Path) -> Iterator[TestClient]:
    url = engine.url.render_as_string(hide_password=False)
    settings = Settings(db_url=url, bot_delay=0.0, bot_executor="inline", round_pause=0.1)
    with TestClient(create_app(settings)) as test_client:
        test_client.app.state.league_clock = lambda: NOW
        yield test_client


def guest(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201
    return answer.json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_claimed_name_signs_in_on_another_device_as_the_same_player(client) -> None:
    ada = guest(client, "Ada")
    claimed = client.post(
        "/api/account/claim", json={"password": "correct horse"}, headers=auth(ada["token"])
    )
    assert claimed.status_code == 201, claimed.text
    account_token = claimed.json()["token"]
    again = client.post(
        "/api/account/claim", json={"password": "correct horse"}, headers=auth(account_token)
    )
    assert again.status_code == 409

    device2 = client.post(
        "/api/account/signin", json={"name": "  ADA ", "password": "correct horse"}
    )
    assert device2.status_code == 200, device2.text
    assert device2.json()["player"]["id"] == ada["player"]["id"]
    me = client.get("/api/account", headers=auth(device2.json()["token"]))
    assert me.json()["player"] == {"id": ada["player"]["id"], "name": "Ada", "claimed": True}

    wrong = client.post("/api/account/signin", json={"name": "Ada", "password": "wrong horse"})
    assert wrong.status_code == 401
    nobody = client.post("/api/account/signin", json={"name": "Zed", "password": "whatever1"})
    assert nobody.status_code == 401


def test_names_are_unique_ignoring_case(client) -> None:
    ada = guest(client, "Ada")
    other = guest(client, "aDA")  # a guest may share a name until someone claims it
    client.post("/api/account/claim", json={"password": "pass word 1"}, headers=auth(ada["token"]))
    assert client.post("/api/players", json={"name": "ada"}).status_code == 409
    taken = client.post(
        "/api/account/claim", json={"password": "pass word 2"}, headers=auth(other["token"])
    )
    assert taken.status_code == 409
    renamed = client.post(
        "/api/account/claim",
        json={"password": "pass word 2", "name": "Ada Two"},
        headers=auth(other["token"]),
    )
    assert renamed.status_code == 201
    assert renamed.json()["player"]["name"] == "Ada Two"
    short = guest(client, "Cy")
    refused = client.post(
        "/api/account/claim", json={"password": "x"}, headers=auth(short["token"])
    )
    assert refused.status_code == 400


@pytest.mark.parametrize(
    "name", ["Zedekiah", "zedekiah", "ZEDEKIAH", "Zedek1ah", "Zedekiaћ", "Zedekla h", "Zedeklah"]
)
def test_a_claimed_names_look_alikes_are_refused_to_guests_renames_and_claims(client, name):
    zed = guest(client, "Zedekiah")
    claimed = client.post(
        "/api/account/claim", json={"password": "pass word 1"}, headers=auth(zed["token"])
    )
    assert claimed.status_code == 201
    if name == "Zedekla h":  # a space is no look-alike
        assert client.post("/api/players", json={"name": name}).status_code == 201
        return
    refused = client.post("/api/players", json={"name": name})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_claimed"
    other = guest(client, "Zeb")
    renamed = client.patch("/api/me", json={"name": name}, headers=auth(other["token"]))
    assert renamed.status_code == 409 and renamed.json()["error"]["code"] == "name_claimed"
    claim = client.post(
        "/api/account/claim",
        json={"password": "pass word 2", "name": name},
        headers=auth(other["token"]),
    )
    assert claim.status_code == 409 and "looks like" in claim.json()["error"]["message"]


@pytest.mark.parametrize(
    "name", ["Easy", "easy", "MASTER", "Medium", "Beginner", "Hard", "Admin", "moderator",
             "Adm1n", "Ea5y", "Ｍａｓｔｅｒ", "Mastеr"],  # the last with a Cyrillic е
)  # fmt: skip
def test_reserved_names_are_nobodys_in_any_case_or_look(client, name) -> None:
    refused = client.post("/api/players", json={"name": name})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "name_reserved"
    ada = guest(client, "Ada")
    renamed = client.patch("/api/me", json={"name": name}, headers=auth(ada["token"]))
    assert renamed.status_code == 409 and renamed.json()["error"]["code"] == "name_reserved"
    claim = client.post(
        "/api/account/claim",
        json={"password": "pass word 1", "name": name},
        headers=auth(ada["token"]),
    )
    assert claim.status_code == 409 and "reserved" in claim.json()["error"]["message"]


def test_names_that_only_contain_a_reserved_word_are_fine(client) -> None:
    for name in ("Easy Eddie", "Mastermind", "Hardy", "Admiral", "Med"):
        assert client.post("/api/players", json={"name": name}).status_code == 201, name


def test_boards_profiles_and_the_rating_plot(client, conn) -> None:
    options = Options(players=2)
    add_table(conn, "t_r", add_player(conn, "p_ada", "Ada"), options)
    match = played(options, "api-ranked")
    store_match(conn, match, "m_r", "t_r", winner_first(match, "p_ada", ["easy"]), NOW)
    on_match_finished(conn, "m_r")
    conn.commit()

    ranked = client.get("/api/leaderboards/ranked?period=week&mode=2p&page=1").json()
    # Easy starts at its calibrated rating (cardroom calibrate): one win does not pass it.
    assert [(e["player"], e["bot"]) for e in ranked["entries"]] == [(None, "easy"), ("p_ada", None)]
    winners = client.get("/api/leaderboards/winners?period=today&table=t_r").json()
    assert winners["entries"][0]["name"] == "Ada" and winners["total"] == 1
    assert client.get("/api/leaderboards/winners?period=century").status_code == 400
    assert client.get("/api/leaderboards/fastest").status_code == 400

    profile = client.get("/api/players/p_ada/profile").json()
    assert profile["career"]["matches"] == 1 and profile["career"]["wins"] == 1
    assert profile["career"]["win_rate"] == 1.0
    assert profile["career"]["stock_per_turn"] > 0 and profile["career"]["best_round"] > 0
    assert profile["ratings"][0]["mode"] == "2p"
    earned = {a["id"] for a in profile["achievements"] if a["earned"]}
    assert {"first_match", "first_win", "ranked_debut"} <= earned
    assert client.get("/api/players/p_nobody/profile").status_code == 404

    png = client.get("/api/players/p_ada/ratings.png?mode=2p")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    # Drawn once per history: asking again costs no matplotlib.
    drawn = client.app.state.plots.rendered
    assert client.get("/api/players/p_ada/ratings.png?mode=2p").content == png.content
    assert client.app.state.plots.rendered == drawn
    bots = client.get("/api/league/bots").json()["levels"]
    assert any(level["id"] == "easy" and level["ratings"] for level in bots)
    assert client.get("/api/seasons").json()["seasons"][0]["id"] == "2026-11"
    assert len(client.get("/api/achievements").json()["achievements"]) >= 15


def _choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for action in legal:
        if action["type"] == "play" and action["from"] == "stock":
            return action
    plays = [a for a in legal if a["type"] == "play"]
    return plays[0] if plays else legal[0]


def test_a_finished_match_at_the_table_announces_achievements(client) -> None:
    ada = guest(client, "Ada")
    headers = auth(ada["token"])
    options = {"stock_size": 2, "match_target": None}
    table = client.post("/api/tables", json={"seats": 2, "options": options}, headers=headers)
    assert table.status_code == 201, table.text
    table_id = table.json()["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/bots", json={"level": "easy"}, headers=headers)
    announced: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        socket.send_json({"type": "hello", "token": ada["token"]})
        assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
        sent = 0
        for _ in range(5000):
            message = socket.receive_json()
            events = message.get("events") or []
            announced += [e for e in events if e["kind"] == "achievement"]
            if any(e["kind"] == "match_over" for e in events):
                # The league counts the match once its final move is stored and announces
                # the achievements in the next event message.
                news = socket.receive_json()
                announced += [e for e in news.get("events") or [] if e["kind"] == "achievement"]
                break
            legal = message.get("legal") or []
            if legal and message.get("view", {}).get("current") == message["view"]["seat"]:
                sent += 1
                socket.send_json({"type": "action", "id": f"a{sent}", "action": _choose(legal)})
            if message["type"] == "error":  # e.g. the table moved on first: look again
                socket.send_json({"type": "resync"})
        else:
            pytest.fail("the match did not finish")
    ids = {e["detail"]["achievement"]["id"] for e in announced}
    assert "first_match" in ids
    assert all(e["detail"]["player"]["id"] == ada["player"]["id"] for e in announced)
    profile = client.get(f"/api/players/{ada['player']['id']}/profile").json()
    assert profile["career"]["matches"] == 1
    assert ids <= {a["id"] for a in profile["achievements"] if a["earned"]}


def test_a_tables_ratings_are_read_in_one_call_and_unrated_subjects_left_out(client, conn) -> None:
    options = Options(players=2)
    add_table(conn, "t_q", add_player(conn, "p_ada", "Ada"), options)
    match = played(options, "api-table-ratings")
    store_match(conn, match, "m_q", "t_q", winner_first(match, "p_ada", ["easy"]), NOW)
    on_match_finished(conn, "m_q")
    conn.commit()
    query = "/api/ratings?mode=2p&subject=p_ada&subject=bot:easy&subject=p_new"
    answer = client.get(query).json()
    assert answer["game"] == "skip" and answer["mode"] == "2p"
    assert set(answer["ratings"]) == {"p_ada", "bot:easy"}  # p_new was never rated
    assert answer["ratings"]["p_ada"] > Skill.default().ordinal  # Ada won: up from a newcomer's
    calibrated = starting_skill("bot:easy", "skip", "2p").ordinal
    assert answer["ratings"]["bot:easy"] < round(calibrated, 1)  # Easy lost: down from its own
    assert client.get("/api/ratings?mode=3p%2B&subject=p_ada").json()["ratings"] == {}
    too_many = "&".join(f"subject=p_{n}" for n in range(9))
    assert client.get(f"/api/ratings?mode=2p&{too_many}").status_code == 400
    assert client.get("/api/ratings?mode=duel&subject=p_ada").status_code == 400


def test_quick_play_and_the_table_say_whether_a_match_is_ranked(client) -> None:
    ada = guest(client, "Ada")

    def ranked(body: dict[str, Any]) -> dict[str, Any]:
        query = {"game": body.get("game", "skip"), "options": json.dumps(body["options"])}
        answer = client.get("/api/ranked", params=query)
        assert answer.status_code == 200, answer.text
        return answer.json()

    assert ranked({"options": {"players": 2}}) == {"ranked": True, "mode": "2p"}
    assert ranked({"options": {"players": 4, "teams": True}}) == {"ranked": True, "mode": "teams"}
    assert ranked({"options": {"players": 2, "assist": True}}) == {"ranked": False, "mode": None}
    assert ranked({"options": {"players": 2, "stock_size": 10}})["ranked"] is False
    assert ranked({"options": {"players": 1}})["ranked"] is False
    assert ranked({"game": "skyjo", "options": {"players": 3}}) == {"ranked": True, "mode": "3p+"}
    bad_rules = json.dumps({"players": 2, "stock_size": "x"})
    assert client.get("/api/ranked", params={"options": bad_rules}).status_code == 400
    assert client.get("/api/ranked", params={"options": "{not json"}).status_code == 400
    assert client.get("/api/ranked", params={"options": "[2]"}).status_code == 400
    # asked with a token: whether the ladder would rate this guest (it would not), and why
    mine = client.get(
        "/api/ranked", params={"options": json.dumps({"players": 2})}, headers=auth(ada["token"])
    ).json()
    assert mine["ranked"] is True and mine["rated"] is False
    assert "claim your name" in mine["why"]

    body = {"bots": 1, "level": "easy", "options": {"players": 2}}
    table = client.post("/api/quickplay", json=body, headers=auth(ada["token"])).json()["table"]
    assert table["ranked"] is True and table["rating_mode"] == "2p"
    body["options"]["assist"] = True
    table = client.post("/api/quickplay", json=body, headers=auth(ada["token"])).json()["table"]
    assert table["ranked"] is False and table["rating_mode"] is None
