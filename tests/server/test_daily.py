"""The daily deal against a real server: nothing of the deal before an attempt is registered,
one scored attempt per account and day across tabs and processes, moves stored over the count
they were played on, the board of claimed accounts, and others' attempts shown only to those
who finished theirs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from cardroom.bots.specs import make_bot_from_spec
from cardroom.daily.days import SECRET_NAME, day_seed, today
from cardroom.daily.round import DailyRound
from cardroom.games import get_game
from tests.server.conftest import Person, Server

pytestmark = pytest.mark.slow


def daily_secret(server: Server) -> str:
    """The server's key for the days' seeds, read as its operator could (tests only)."""
    engine = sa.create_engine(server.db_url)
    try:
        with engine.connect() as conn:
            value = conn.scalar(
                sa.text("SELECT value FROM server_secrets WHERE name = :name"),
                {"name": SECRET_NAME},
            )
    finally:
        engine.dispose()
    assert value
    return str(value)


def expert_actions(secret: str, game: str) -> list[dict[str, Any]]:
    """The moves an expert makes at today's deal, worked out with the server's secret."""
    day = today()
    day_round = DailyRound(game, day, day_seed(secret, game, day))
    bot = make_bot_from_spec("expert" if game == "skip" else "hard", "player", game=game)
    while not day_round.over:
        action = get_game(game).action_to_json(bot.choose(day_round.session.match.view(0)))
        assert day_round.play(action) is None
    return day_round.moves


async def person(server: Server, name: str, password: str | None = None) -> Person:
    someone = await Person(server, name).register()
    if password:
        await someone.claim(password)
    return someone


async def play_all(someone: Person, attempt_id: str, actions: list[dict[str, Any]]) -> Any:
    state: Any = None
    for seq, action in enumerate(actions):
        state = await someone.post(
            f"/api/daily/attempts/{attempt_id}/moves", {"action": action, "seq": seq}
        )
    return state


async def test_nothing_of_the_deal_leaves_before_an_attempt_is_registered(server: Server) -> None:
    ada = await person(server, "Secretive")
    secret = daily_secret(server)
    seeds = [day_seed(secret, game, today()) for game in ("skip", "skyjo")]
    day = today().isoformat()
    before = [
        await ada.http.get(path)
        for path in (
            "/api/daily",
            "/api/daily/me",
            f"/api/daily/skip/{day}/board",
            f"/api/daily/skyjo/{day}/board",
            "/api/daily/skip/archive",
            "/api/daily/skyjo/archive",
            "/api/daily/skip/2999-01-01/board",
            "/api/daily/attempts/d_nosuchattempt",
            "/api/daily/attempts/d_nosuchattempt/record",
            "/api/daily/attempts/d_nosuchattempt/card.svg",
        )
    ]
    for response in before:
        text = response.text
        assert not any(seed in text for seed in seeds)
        if response.status_code == 200:
            data = response.json()
            assert "view" not in json.dumps(data) and "hand" not in json.dumps(data)
    assert before[6].status_code == 404, before[6].text
    assert "not dealt yet" in before[6].json()["error"]["message"]
    # A day to come is not dealt to anyone, whatever they ask.
    refused = await ada.http.post("/api/daily/skip/attempts", json={"day": "2999-01-01"})
    assert refused.status_code == 404
    # Registering gives the person's own view, still without the seed.
    state = await ada.post("/api/daily/skyjo/attempts")
    assert state["made"] and state["attempt"]["scored"]
    assert not any(seed in json.dumps(state) for seed in seeds)
    assert state["view"]["seat"] == 0


async def test_one_scored_attempt_per_account_and_day_in_two_tabs(server: Server) -> None:
    await one_scored_attempt(server, server, "Twotabs")


async def test_one_scored_attempt_per_account_and_day_on_two_processes(
    fresh_server: Callable[..., Server],
) -> None:
    first, second = fresh_server(), fresh_server()
    first.start()
    second.start()
    await one_scored_attempt(first, second, "Twoprocs")


async def one_scored_attempt(first: Server, second: Server, name: str) -> None:
    """Two tabs (on one process or two) ask for today's deal at once, then both play the
    first move at once."""
    ada = await person(first, name)
    tab = Person(second, name)
    tab.use(ada.token)
    a, b = await asyncio.gather(
        ada.post("/api/daily/skip/attempts"), tab.post("/api/daily/skip/attempts")
    )
    assert a["attempt"]["id"] == b["attempt"]["id"] and a["attempt"]["scored"]
    assert sorted([a["made"], b["made"]]) == [False, True]
    attempt_id = a["attempt"]["id"]
    # Both tabs play the next move: one is stored, the other told to reload; nothing doubles.
    move = a["legal"][-1]
    answers = await asyncio.gather(
        ada.http.post(f"/api/daily/attempts/{attempt_id}/moves", json={"action": move, "seq": 0}),
        tab.http.post(f"/api/daily/attempts/{attempt_id}/moves", json={"action": move, "seq": 0}),
    )
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409]
    stale = next(r for r in answers if r.status_code == 409).json()["error"]
    assert stale["code"] == "stale"
    now = (await tab.http.get(f"/api/daily/attempts/{attempt_id}")).json()
    assert now["attempt"]["moves"] == 1
    # Until it is finished, asking again hands back the same attempt.
    again = await tab.post("/api/daily/skip/attempts")
    assert again["attempt"]["id"] == attempt_id and not again["made"]


async def test_a_refused_move_is_explained_and_stores_nothing(server: Server) -> None:
    ada = await person(server, "Refused")
    state = await ada.post("/api/daily/skip/attempts")
    attempt_id = state["attempt"]["id"]
    bad = await ada.http.post(
        f"/api/daily/attempts/{attempt_id}/moves",
        json={"action": {"type": "discard", "card": "W", "pile": 9}, "seq": 0},
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "illegal_move"
    for body in ({"action": "x", "seq": 0}, {"action": {}, "seq": "0"}, {"seq": 0}):
        malformed = await ada.http.post(f"/api/daily/attempts/{attempt_id}/moves", json=body)
        assert malformed.status_code == 400
    bob = await person(server, "Notyours")
    other = await bob.http.post(
        f"/api/daily/attempts/{attempt_id}/moves", json={"action": state["legal"][0], "seq": 0}
    )
    assert other.status_code == 404
    hint = await ada.http.get(f"/api/daily/attempts/{attempt_id}/hint")
    assert hint.status_code == 400 and hint.json()["error"]["rule"] == "R7.6"
    after = (await ada.http.get(f"/api/daily/attempts/{attempt_id}")).json()
    assert after["attempt"]["moves"] == 0 and after["view"] == state["view"]


async def test_a_finished_attempt_is_on_the_board_and_shared_without_spoilers(
    server: Server,
) -> None:
    secret = daily_secret(server)
    actions = expert_actions(secret, "skip")
    ada = await person(server, "Boardada", password="correct horse battery")
    guest = await person(server, "Guestgus")
    late = await person(server, "Latelou", password="correct horse battery")
    mine = await ada.post("/api/daily/skip/attempts")
    done = await play_all(ada, mine["attempt"]["id"], actions)
    assert done["over"] and done["attempt"]["status"] == "finished"
    turns = done["outcome"]["result"]
    assert done["share"].splitlines()[1] == f"Skip solo: {turns} turns"
    card = await ada.http.get(done["card"])
    assert card.status_code == 200 and card.headers["content-type"].startswith("image/svg")
    # The guest plays the same deal the same way, and is not on the board.
    theirs = await guest.post("/api/daily/skip/attempts")
    assert theirs["view"] == mine["view"]  # the same deal for everyone
    await play_all(guest, theirs["attempt"]["id"], actions)
    answer = await ada.http.get(f"/api/daily/skip/{today().isoformat()}/board")
    board = answer.json()["board"]
    names = [row["name"] for row in board]
    assert "Boardada" in names and "Guestgus" not in names
    row = next(r for r in board if r["name"] == "Boardada")
    assert row["result"] == turns and row["marks"] and "moves" not in row
    # Someone who has not finished theirs cannot see Ada's moves; once finished, they can.
    record = f"/api/daily/attempts/{mine['attempt']['id']}/record"
    refused = await late.http.get(record)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "finish_first"
    assert (await server_get(server, record)).status_code == 403  # nor can anyone signed out
    theirs = await late.post("/api/daily/skip/attempts")
    await play_all(late, theirs["attempt"]["id"], actions[:3])
    assert (await late.http.get(record)).status_code == 403  # started is not finished
    await play_all_from(late, theirs["attempt"]["id"], actions, 3)
    seen = (await late.http.get(record)).json()
    assert seen["moves"] == actions and seen["attempt"]["result"] == turns
    # Ada's streak, history, and a practice round after the scored one.
    history = await ada.http.get("/api/daily/me")
    skip = history.json()["games"]["skip"]
    assert skip["streak"]["current"] == 1 and skip["history"][0]["result"] == turns
    practice = await ada.post("/api/daily/skip/attempts")
    assert practice["made"] and not practice["attempt"]["scored"]
    same = ("hand", "stock_tops", "stock_counts", "draw_count")
    assert [practice["view"][k] for k in same] == [mine["view"][k] for k in same]
    advice = await ada.http.get(f"/api/daily/attempts/{practice['attempt']['id']}/hint")
    assert isinstance(advice.json()["action"], dict)
    index = (await ada.http.get("/api/daily")).json()
    entry = next(g for g in index["games"] if g["game"] == "skip")
    assert entry["mine"]["result"] == turns and entry["streak"]["current"] == 1


async def server_get(server: Server, path: str) -> Any:
    stranger = Person(server, "nobody")
    return await stranger.http.get(path)


async def play_all_from(
    someone: Person, attempt_id: str, actions: list[dict[str, Any]], start: int
) -> None:
    for seq in range(start, len(actions)):
        await someone.post(
            f"/api/daily/attempts/{attempt_id}/moves", {"action": actions[seq], "seq": seq}
        )


def test_the_days_are_utc() -> None:
    assert today(datetime(2026, 12, 5, 23, 30, tzinfo=UTC)).isoformat() == "2026-12-05"


async def test_the_terminal_plays_the_servers_daily_deal_and_counts_on_its_board(
    server: Server,
) -> None:
    from cardroom.terminal.app import Summary
    from cardroom.terminal.daily import DailyApp, RemoteDaily, sign_in
    from tests.terminal.test_play import SMALL, check_skyjo_board, choose_skyjo, shown

    ada = await person(server, "Termada", password="correct horse battery")
    token = await asyncio.to_thread(sign_in, server.url, "Termada", "correct horse battery")
    daily = await asyncio.to_thread(RemoteDaily, server.url, token, "skyjo")
    assert daily.state["attempt"]["scored"] and not daily.practice
    app = DailyApp(daily)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(300):
            if isinstance(app.screen, Summary):
                break
            view = daily.view()
            assert app.board.view == view
            check_skyjo_board(app, view)
            action = choose_skyjo(view, daily.legal())
            for place in app.board.spots_of(action):
                await pilot.press(app.board.spot(place).key)
        assert isinstance(app.screen, Summary)
        body = shown(app.screen.query_one("#summary-body"))
        assert "Skyjo round: " in body and "practice" not in body
    daily.close()
    mine = (await ada.http.get("/api/daily/me")).json()["games"]["skyjo"]["history"][0]
    assert mine["status"] == "finished" and mine["id"] == daily.attempt_id
    board = (await ada.http.get(f"/api/daily/skyjo/{today().isoformat()}/board")).json()
    assert "Termada" in [row["name"] for row in board["board"]]
