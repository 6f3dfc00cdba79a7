"""The score keeper's HTTP API and live view against a real server, on SQLite and PostgreSQL:
kept games owned by a player, every field judged by the keeper (refused naming the field,
nothing stored), entries applied once however often they are sent, stale corrections refused,
and a shared game pushed to its viewers as it changes (docs/keeper.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from conftest import TIMEOUT, Person

from cardroom.keeper import from_json
from cardroom.server.keeper_routes import share_qr

SKYJO = {"game": "skyjo", "players": ["Ann", "Bob", "Cy", "Dee"]}
SKIP_TEAMS = {
    "game": "skip",
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "options": {"match_target": 200, "stock_size": 10, "teams": [["Ann", "Cy"], ["Bob", "Dee"]]},
}


class Keeper:
    """A player's client for the keeper API; entry ids are made up as a device would."""

    def __init__(self, person: Person) -> None:
        self.person = person
        self.http = person.http
        self.entries = 0

    def entry(self) -> str:
        self.entries += 1
        return f"{self.person.name}-e{self.entries}"

    async def create(self, body: dict[str, Any], expect: int = 201) -> dict[str, Any]:
        answer = await self.http.post("/api/keeper/games", json=body)
        assert answer.status_code == expect, answer.text
        return answer.json()["kept"]

    async def skyjo(self, game: dict[str, Any], sums: list[int], closer: str) -> dict[str, Any]:
        names = game["sheet"]["players"]
        body = {"sums": dict(zip(names, sums, strict=True)), "closer": closer}
        return await self.round(game, body)

    async def round(
        self, game: dict[str, Any], body: dict[str, Any], expect: int = 200
    ) -> dict[str, Any]:
        answer = await self.http.post(
            f"/api/keeper/games/{game['id']}/rounds", json={"entry": self.entry(), "round": body}
        )
        assert answer.status_code == expect, answer.text
        return answer.json()["kept"] if expect == 200 else answer.json()["error"]

    async def get(self, game: dict[str, Any]) -> dict[str, Any]:
        answer = await self.http.get(f"/api/keeper/games/{game['id']}")
        assert answer.status_code == 200, answer.text
        return answer.json()["kept"]


async def keeper(server: Any, name: str = "Ada") -> Keeper:
    return Keeper(await Person(server, name).register())


def results(game: dict[str, Any]) -> dict[str, Any]:
    return game["sheet"]["results"]


def refusal(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    return error


# -- keeping a game --------------------------------------------------------------------------------


async def test_a_skyjo_game_is_kept_to_its_end_and_the_closer_doubled_with_the_reason(server):
    ada = await keeper(server)
    game = await ada.create(SKYJO)
    assert game["status"] == "playing" and game["revision"] == 1 and game["rounds"] == 0
    assert game["owner"]["name"] == "Ada" and len(game["code"]) == 11
    game = await ada.skyjo(game, [30, 12, 25, 20], "Ann")  # S4.3: not the lowest, doubled
    line = results(game)["rounds"][0]
    assert line["points"] == {"Ann": 60, "Bob": 12, "Cy": 25, "Dee": 20}
    assert line["doubled"] is True and line["why"] == "not_lowest"
    assert line["note"] == "Ann closed with 30, not the lowest (Bob 12): doubled to 60 (S4.3)"
    game = await ada.skyjo(game, [5, 5, 30, 40], "Bob")  # a tie for the lowest doubles
    assert results(game)["rounds"][1]["why"] == "tied"
    game = await ada.skyjo(game, [-3, 10, 20, 30], "Ann")  # negative: never doubled
    assert results(game)["rounds"][2]["why"] == "not_positive"
    assert results(game)["totals"] == {"Ann": 62, "Bob": 32, "Cy": 75, "Dee": 90}
    assert results(game)["leaders"] == ["Bob"] and game["status"] == "playing"
    game = await ada.skyjo(game, [2, 3, 30, 10], "Ann")  # Dee reaches 100: S5.1
    assert game["status"] == "over" and game["revision"] == 5
    assert results(game)["winners"] == ["Bob"] and results(game)["over"] is True
    assert results(game)["outcome"] == "Game over after round 4: Bob wins."
    # S6.2: no round after the end; nothing is stored.
    error = await ada.round(
        game, {"sums": dict.fromkeys(SKYJO["players"], 1), "closer": "Ann"}, 409
    )
    assert error["code"] == "game_over" and error["field"] == "round" and error["round"] == 5
    assert (await ada.get(game))["revision"] == 5


async def test_a_skip_team_match_scores_both_partners_and_ends_at_its_target(server):
    ada = await keeper(server)
    game = await ada.create(SKIP_TEAMS)
    game = await ada.round(game, {"went_out": "Ann", "stocks": {"Bob": 4, "Dee": 6}})
    assert results(game)["rounds"][0]["points"] == {"Ann": 75, "Bob": 0, "Cy": 75, "Dee": 0}
    game = await ada.round(game, {"went_out": None, "stocks": dict.fromkeys(SKYJO["players"], 3)})
    assert results(game)["rounds"][1]["note"] == "nobody won the round: no points (R6.4)"
    game = await ada.round(game, {"went_out": "Dee", "stocks": {"Ann": 10, "Cy": 10}})
    assert results(game)["totals"] == {"Ann": 75, "Bob": 125, "Cy": 75, "Dee": 125}
    assert game["status"] == "playing"
    game = await ada.round(game, {"went_out": "Cy", "stocks": {"Bob": 10, "Dee": 10}})
    assert game["status"] == "over" and results(game)["winners"] == ["Ann", "Cy"]
    assert results(game)["outcome"] == "Game over after round 4: Ann & Cy win."


async def test_a_correction_re_scores_and_a_stale_one_is_refused(server):
    ada = await keeper(server)
    game = await ada.create({**SKYJO, "options": {"end_score": 200}})
    for sums in ([10, 20, 30, 15], [50, 20, 30, 15], [10, 20, 30, 15]):
        game = await ada.skyjo(game, sums, "Ann")
    assert results(game)["totals"]["Ann"] == 10 + 100 + 10  # round 2: not the lowest, doubled
    url = f"/api/keeper/games/{game['id']}/rounds/2"
    round_2 = {"sums": {"Ann": 5, "Bob": 20, "Cy": 30, "Dee": 15}, "closer": "Ann"}
    stale = await ada.http.put(url, json={"entry": ada.entry(), "based_on": 3, "round": round_2})
    error = refusal(stale, 409, "stale")
    assert error["field"] == "based_on" and "revision 3" in error["message"]
    body = {"entry": ada.entry(), "based_on": game["revision"], "round": round_2}
    fixed = (await ada.http.put(url, json=body)).json()["kept"]
    assert results(fixed)["rounds"][1]["why"] == "lowest"
    assert results(fixed)["totals"]["Ann"] == 10 + 5 + 10
    assert fixed["revision"] == game["revision"] + 1
    bad = await ada.http.put(
        url, json={**body, "entry": ada.entry(), "based_on": fixed["revision"], "round": {}}
    )
    error = refusal(bad, 400, "bad_entry")
    assert (error["field"], error["round"]) == ("closer", 2)
    undo = f"/api/keeper/games/{game['id']}/undo"
    undone = await ada.http.post(undo, json={"entry": ada.entry(), "based_on": fixed["revision"]})
    assert undone.json()["kept"]["rounds"] == 2
    order = f"/api/keeper/games/{game['id']}/order"
    body = {
        "entry": ada.entry(),
        "based_on": fixed["revision"] + 1,
        "players": ["Dee", "Cy", "Bob", "Ann"],
    }
    moved = (await ada.http.post(order, json=body)).json()["kept"]
    assert moved["sheet"]["players"] == ["Dee", "Cy", "Bob", "Ann"]
    assert results(moved)["totals"]["Ann"] == 15


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            {"sums": {"Ann": 141, "Bob": 0, "Cy": 0, "Dee": 0}, "closer": "Ann"},
            "sums.Ann",
            "-17 to 140",
        ),
        ({"sums": {"Ann": -18, "Bob": 0, "Cy": 0, "Dee": 0}, "closer": "Ann"}, "sums.Ann", "S6.1"),
        ({"sums": {"Ann": 1, "Bob": 0, "Cy": 0, "Dee": 0}, "closer": "Eve"}, "closer", "'Eve'"),
        ({"sums": {"Ann": 1, "Bob": 0, "Cy": 0}, "closer": "Ann"}, "sums.Dee", "missing"),
        ({"sums": {"Ann": 1, "Bob": 0, "Cy": 0, "Dee": 0}}, "closer", "who closed"),
        ({"went_out": "Ann", "stocks": {}}, "stocks", "unknown field (known: closer, sums)"),
    ],
)
async def test_a_bad_skyjo_round_is_refused_naming_the_field_and_nothing_is_stored(
    server, body, field, words
):
    ada = await keeper(server)
    game = await ada.create(SKYJO)
    error = await ada.round(game, body, expect=400)
    assert error["code"] == "bad_entry" and error["field"] == field and error["round"] == 1
    assert words in error["message"]
    after = await ada.get(game)
    assert after["revision"] == 1 and after["rounds"] == 0


async def test_bad_skip_rounds_and_bad_games_are_refused_naming_the_field(server):
    ada = await keeper(server)
    game = await ada.create({"game": "skip", "players": ["Ann", "Bob", "Cy"]})
    error = await ada.round(game, {"went_out": "Ann", "stocks": {"Bob": 31, "Cy": 0}}, 400)
    assert error["field"] == "stocks.Bob" and "0 to 30 cards" in error["message"]
    error = await ada.round(game, {"went_out": "Zed", "stocks": {"Bob": 1, "Cy": 0}}, 400)
    assert error["field"] == "went_out"
    assert (await ada.get(game))["rounds"] == 0
    for body, field in (
        ({"game": "skyjo", "players": ["Ann", "ann"]}, "players"),
        ({"game": "skyjo", "players": ["Ann"]}, "players"),
        ({"game": "poker", "players": ["Ann", "Bob"]}, "game"),
        ({"game": "skyjo", "players": ["Ann", "Bob"], "options": {"end_score": 5}}, "end_score"),
        ({"game": "skyjo", "players": ["Ann", "Bob"], "options": {"colour": 1}}, "colour"),
        ({"game": "skip", "players": ["A", "B", "C"], "options": {"teams": [["A", "B"]]}}, "teams"),
    ):
        error = refusal(await ada.http.post("/api/keeper/games", json=body), 400, "bad_entry")
        assert error["field"] == field, (body, error)
    for body, says in (
        ({"game": "skyjo", "players": "Ann,Bob"}, "players: Input should be a valid list"),
        ({"game": "skyjo", "players": ["A", "B"], "sneaky": 1}, "unexpected field: sneaky"),
        ({"game": "skyjo", "players": ["A", "B"], "entry": "no spaces"}, "entry: String should"),
    ):
        error = refusal(await ada.http.post("/api/keeper/games", json=body), 400, "bad_request")
        assert says in error["message"]
    round_body = {"entry": "x1", "round": {"sums": {"Ann": "12"}, "closer": "Ann"}}
    answer = await ada.http.post(f"/api/keeper/games/{game['id']}/rounds", json=round_body)
    assert (
        "round.sums.Ann: Input should be a valid integer"
        in refusal(answer, 400, "bad_request")["message"]
    )
    assert (await ada.http.get("/api/keeper/games")).json()["games"][0]["rounds"] == 0


async def test_an_unknown_game_is_not_found_and_someone_elses_is_forbidden(server):
    ada, bob = await keeper(server, "Ada"), await keeper(server, "Bob")
    game = await ada.create(SKYJO)
    round_body = {
        "entry": "b1",
        "round": {"sums": dict.fromkeys(SKYJO["players"], 1), "closer": "Ann"},
    }
    base = f"/api/keeper/games/{game['id']}"
    calls = (
        ("GET", base, None),
        ("POST", f"{base}/rounds", round_body),
        ("PUT", f"{base}/rounds/1", {**round_body, "based_on": 1}),
        ("POST", f"{base}/undo", {"entry": "b2", "based_on": 1}),
        ("POST", f"{base}/finish", None),
        ("DELETE", base, None),
        ("GET", f"{base}/export.csv", None),
    )
    for method, path, body in calls:
        error = refusal(await bob.http.request(method, path, json=body), 403, "forbidden")
        assert "someone else's" in error["message"]
        unknown = path.replace(game["id"], "k_0000000000000000")
        refusal(await bob.http.request(method, unknown, json=body), 404, "not_found")
    async with httpx.AsyncClient(base_url=server.url) as anonymous:
        refusal(await anonymous.post(f"{base}/rounds", json=round_body), 401, "unauthorized")
    assert (await ada.get(game))["revision"] == 1


# -- exactly once ----------------------------------------------------------------------------------


async def test_an_entry_sent_again_is_applied_once(server):
    ada = await keeper(server)
    first = await ada.create({**SKYJO, "entry": "device-game-1"})
    again = await ada.create({**SKYJO, "entry": "device-game-1"}, expect=200)
    assert again["id"] == first["id"]
    body = {
        "entry": "round-1",
        "round": {"sums": {"Ann": 3, "Bob": 4, "Cy": 5, "Dee": 6}, "closer": "Ann"},
    }
    url = f"/api/keeper/games/{first['id']}/rounds"
    answers = await asyncio.gather(*(ada.http.post(url, json=body) for _ in range(4)))
    assert all(a.status_code == 200 for a in answers)
    assert sorted(a.json()["duplicate"] for a in answers) == [False, True, True, True]
    resent = await ada.http.post(url, json=body)
    assert resent.json()["duplicate"] is True
    game = await ada.get(first)
    assert game["rounds"] == 1 and game["revision"] == 2
    games = (await ada.http.get("/api/keeper/games")).json()["games"]
    assert [g["id"] for g in games] == [first["id"]]


# -- sharing ---------------------------------------------------------------------------------------


async def test_a_shared_game_is_read_by_code_and_pushed_to_its_viewers(server):
    ada = await keeper(server)
    game = await ada.create(SKYJO)
    async with httpx.AsyncClient(base_url=server.url) as anyone:
        shared = (await anyone.get(f"/api/keeper/shared/{game['code'].lower()}")).json()["kept"]
        assert shared["sheet"] == game["sheet"] and "id" not in shared
        assert "id" not in shared["owner"]
        refusal(await anyone.get("/api/keeper/shared/ZZZZZ-ZZZZZ"), 404, "not_found")
        refusal(await anyone.get("/api/keeper/shared/nope"), 404, "not_found")
        # The link as a QR code, to scan from the scorer's phone: this server's own link.
        qr = await anyone.get(f"/api/keeper/shared/{game['code'].lower()}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
        link = f"{server.url}/keeper/#/shared/{game['code']}"
        assert qr.content == share_qr(link) and qr.content.startswith(b"<svg")
        refusal(await anyone.get("/api/keeper/shared/ZZZZZ-ZZZZZ/qr.svg"), 404, "not_found")
    url = f"{server.ws_url}/ws/keeper/{game['code']}"
    async with websockets.connect(url, open_timeout=TIMEOUT) as one, websockets.connect(url) as two:
        for viewer in (one, two):
            first = json.loads(await asyncio.wait_for(viewer.recv(), TIMEOUT))
            assert first["type"] == "kept" and first["kept"]["revision"] == 1
        await ada.skyjo(game, [30, 12, 25, 20], "Ann")
        for viewer in (one, two):
            pushed = json.loads(await asyncio.wait_for(viewer.recv(), TIMEOUT))
            assert pushed["kept"]["revision"] == 2
            assert pushed["kept"]["sheet"]["results"]["rounds"][0]["doubled"] is True
        await one.send(json.dumps({"type": "ping", "id": 7}))
        assert json.loads(await asyncio.wait_for(one.recv(), TIMEOUT)) == {"type": "pong", "id": 7}
        finished = (await ada.http.post(f"/api/keeper/games/{game['id']}/finish")).json()["kept"]
        assert finished["status"] == "closed"
        for viewer in (one, two):
            pushed = json.loads(await asyncio.wait_for(viewer.recv(), TIMEOUT))
            assert pushed["kept"]["status"] == "closed"
        ones = dict.fromkeys(SKYJO["players"], 1)
        body = {"entry": ada.entry(), "round": {"sums": ones, "closer": "Ann"}}
        closed = await ada.http.post(f"/api/keeper/games/{game['id']}/rounds", json=body)
        assert "finished" in refusal(closed, 409, "closed")["message"]
        deleted = await ada.http.delete(f"/api/keeper/games/{game['id']}")
        assert deleted.json() == {"deleted": game["id"]}
        gone = json.loads(await asyncio.wait_for(one.recv(), TIMEOUT))
        assert gone == {"type": "gone"}
        with pytest.raises(websockets.ConnectionClosed) as closed_socket:
            await asyncio.wait_for(one.recv(), TIMEOUT)
        assert closed_socket.value.rcvd.code == 4404
    refusal(await ada.http.get(f"/api/keeper/games/{game['id']}"), 404, "not_found")


async def test_exports_give_the_sheet_as_csv_and_json(server):
    ada = await keeper(server)
    game = await ada.create(SKYJO)
    game = await ada.skyjo(game, [30, 12, 25, 20], "Ann")
    csv = await ada.http.get(f"/api/keeper/games/{game['id']}/export.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert f'filename="skyjo-{game["code"]}.csv"' in csv.headers["content-disposition"]
    lines = csv.text.splitlines()
    assert lines[0] == "round,Ann,Bob,Cy,Dee,closer,doubled,note"
    assert lines[1].startswith("1,60,12,25,20,Ann,yes,")
    data = (await ada.http.get(f"/api/keeper/games/{game['id']}/export.json")).json()
    assert from_json(data).sheet.totals == (60, 12, 25, 20)
    async with httpx.AsyncClient(base_url=server.url) as anyone:
        shared = await anyone.get(f"/api/keeper/shared/{game['code']}/export.csv")
        assert shared.text == csv.text


async def test_my_kept_games_are_listed_and_shown_in_my_own_profile_only(server):
    ada, bob = await keeper(server, "Ada"), await keeper(server, "Bob")
    older = await ada.create(SKYJO)
    newer = await ada.create(SKIP_TEAMS)
    await ada.skyjo(older, [1, 2, 3, 4], "Ann")  # changed last: listed first
    games = (await ada.http.get("/api/keeper/games")).json()["games"]
    assert [g["id"] for g in games] == [older["id"], newer["id"]]
    assert games[0]["leaders"] == ["Ann"] and games[0]["rounds"] == 1
    assert (await bob.http.get("/api/keeper/games")).json()["games"] == []
    profile = f"/api/players/{ada.person.id}/profile"
    mine = (await ada.http.get(profile)).json()
    assert [g["id"] for g in mine["kept_games"]] == [older["id"], newer["id"]]
    assert "kept_games" not in (await bob.http.get(profile)).json()


async def test_the_api_page_documents_the_keeper_bodies(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        paths = (await http.get("/openapi.json")).json()["paths"]
    for path, method, field in (
        ("/api/keeper/games", "post", "players"),
        ("/api/keeper/games/{game_id}/rounds", "post", "round"),
        ("/api/keeper/games/{game_id}/rounds/{number}", "put", "based_on"),
        ("/api/keeper/games/{game_id}/undo", "post", "entry"),
        ("/api/keeper/games/{game_id}/order", "post", "players"),
    ):
        schema = paths[path][method]["requestBody"]["content"]["application/json"]["schema"]
        assert field in schema["properties"], path


# -- limits ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_kept_games_per_owner_rounds_per_game_and_writes_are_bounded(fresh_server):
    server = fresh_server(
        CARDROOM_KEEPER_MAX_GAMES="2",
        CARDROOM_KEEPER_MAX_ROUNDS="2",
        CARDROOM_KEEPER_BURST="8",
        CARDROOM_KEEPER_RATE="0.001",
    )
    server.start()
    ada = await keeper(server)
    game = await ada.create(SKYJO)
    await ada.create(SKYJO)
    refusal(await ada.http.post("/api/keeper/games", json=SKYJO), 429, "too_many_games")
    for _ in range(2):
        game = await ada.skyjo(game, [1, 2, 3, 4], "Ann")
    error = await ada.round(
        game, {"sums": dict.fromkeys(SKYJO["players"], 1), "closer": "Ann"}, 400
    )
    assert error["field"] == "round" and "at most 2 rounds" in error["message"]
    for _ in range(2):
        await ada.round(game, {"sums": {}, "closer": "Ann"}, 400)
    answer = await ada.http.post(
        f"/api/keeper/games/{game['id']}/undo", json={"entry": "u", "based_on": 3}
    )
    refusal(answer, 429, "rate_limited")
    assert int(answer.headers["retry-after"]) >= 1
    assert (await ada.get(game))["rounds"] == 2
