"""``cardroom daily`` in the terminal, with Textual's pilot: a day's Skyjo and Skip rounds
played by keys to the end, the board checked against the person's view at each step, and the
result to share at the end; a day to come is refused."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from typer.testing import CliRunner

from cardroom.cli import app as cli_app
from cardroom.daily.days import day_seed
from cardroom.daily.round import DailyRound
from cardroom.terminal.app import Summary
from cardroom.terminal.daily import DailyApp, LocalDaily
from tests.terminal.test_play import (
    LARGE,
    SIZES,
    SMALL,
    check_fits,
    check_skip_board,
    check_skyjo_board,
    choose_skip,
    choose_skyjo,
    shown,
    status,
)

DAY = date(2026, 12, 5)


def local(game: str) -> LocalDaily:
    return LocalDaily(DailyRound(game, DAY, day_seed("terminal-test", game, DAY), practice=True))


async def play_by_keys(app: DailyApp, pilot: Any, size: tuple[int, int]) -> int:
    """Play the daily round to its end by keys, the screen checked after each move."""
    daily = app.daily
    for made in range(2000):
        if isinstance(app.screen, Summary):
            return made
        assert daily.my_turn, status(app)
        view = daily.view()
        assert app.board.view == view
        if daily.game_name == "skip":
            check_skip_board(app, view)
        else:
            check_skyjo_board(app, view)
        check_fits(app, size)
        legal = daily.legal()
        action = choose_skip(legal) if daily.game_name == "skip" else choose_skyjo(view, legal)
        before = len(daily.told)
        for place in app.board.spots_of(action):
            await pilot.press(app.board.spot(place).key)
        assert len(daily.told) > before, status(app)  # played, and told
    raise AssertionError("the daily round did not end")


@SIZES
async def test_a_daily_skyjo_round_by_keys(size: tuple[int, int]) -> None:
    daily = local("skyjo")
    app = DailyApp(daily)
    async with app.run_test(size=size) as pilot:
        assert "One round against two Hard bots" in shown(app.query_one("#log"))
        made = await play_by_keys(app, pilot, size)
        assert made >= 2 and daily.over
        body = shown(app.screen.query_one("#summary-body"))
        outcome = daily.outcome()
        assert outcome is not None and outcome["words"] in body
        assert "Cardroom daily #5 · 2026-12-05 · practice" in body
        assert app.screen.last
        await pilot.press("enter")
        assert "daily round is over" in status(app)
    share = daily.share()
    assert share is not None and share.splitlines()[1].startswith("Skyjo round: ")


async def test_a_daily_skip_solo_round_by_keys() -> None:
    daily = local("skip")
    app = DailyApp(daily)
    async with app.run_test(size=SMALL) as pilot:
        # The first moves straight to the round (a 20-card stock takes a hundred or more),
        # the last ones by keys, with the screen checked after each.
        while not daily.over and daily.view()["stock_counts"][0] > 3:
            assert daily.play(choose_skip(daily.legal())) is None
        app.refresh_table()
        await pilot.pause()
        await play_by_keys(app, pilot, SMALL)
        body = shown(app.screen.query_one("#summary-body"))
        assert "Skip solo: " in body
    outcome = daily.outcome()
    assert outcome is not None
    assert outcome["result"] is None or outcome["result"] == daily.view()["turn"]


async def test_the_hint_works_in_a_practice_round() -> None:
    daily = local("skip")
    app = DailyApp(daily)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("h")
        assert status(app).startswith("Hint (")


def test_the_command_refuses_a_day_to_come(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path}/c.db"
    result = CliRunner().invoke(
        cli_app, ["daily", "--game", "skyjo", "--day", "2999-01-01", "--db", db]
    )
    assert result.exit_code == 2
    assert "not dealt yet" in result.output


def test_the_command_refuses_a_game_without_a_daily_deal() -> None:
    result = CliRunner().invoke(cli_app, ["daily", "--game", "chess"])
    assert result.exit_code == 2


@pytest.mark.parametrize("missing", [["--server", "http://127.0.0.1:9"]])
def test_playing_at_a_server_needs_an_account(missing: list[str], monkeypatch: Any) -> None:
    monkeypatch.delenv("CARDROOM_TOKEN", raising=False)
    result = CliRunner().invoke(cli_app, ["daily", *missing])
    assert result.exit_code == 2 and "needs --name" in result.output
