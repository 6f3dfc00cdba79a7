"""``cardroom play`` driven by Textual's pilot, as a person at the keyboard: whole rounds of
Skip and Skyjo played by keys, the screen checked against the person's view at each step, at
80x24 and at a large size; the hint, the rule book, a key with no move, and a click."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import OptionList, RichLog, Static

from cardroom.games import get_game
from cardroom.terminal.app import KEYS, PlayApp, RuleBook, Summary
from cardroom.terminal.session import PlaySession

SMALL, LARGE = (80, 24), (160, 50)
MAX_STEPS = 400


def skip_session() -> PlaySession:
    """Skip, one short round: you play first with a stock of three (a set deal)."""
    options = get_game("skip").options_from_json(
        {"players": 2, "stock_size": 3, "match_target": None, "deal": {"first": 0}}
    )
    return PlaySession("skip", options, 7, ["greedy"])


def skyjo_session() -> PlaySession:
    """Skyjo against two bots, to the lowest end score (S5.1): a round or two."""
    options = get_game("skyjo").options_from_json({"players": 3, "end_score": 10})
    return PlaySession("skyjo", options, 7, ["greedy", "greedy"])


def text_of(app: Any, selector: str) -> str:
    """A widget's text as the terminal shows it (its lines, cropped to its size)."""
    widget = app.query_one(selector, Static)
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(line.text for line in lines)


def moves_shown(app: PlayApp) -> list[str]:
    options = app.query_one("#moves", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def check_screen(app: PlayApp, session: PlaySession) -> None:
    """The screen says what the person's view says: their moves, in the engine's words."""
    expected = [f"{KEYS[i]}  {session.describe(a)}" for i, a in enumerate(session.legal())]
    assert moves_shown(app) == expected
    view = text_of(app, "#view")
    for name in session.names:
        assert name in view


async def play_out(app: PlayApp, pilot: Any, session: PlaySession, shots: Path, tag: str) -> int:
    """Play to the match's end by keys (the hint's move when there is one, else the first),
    reading each round's summary; returns how many moves the person made."""
    made = 0
    for step in range(MAX_STEPS):
        if isinstance(app.screen, Summary):
            if step < 40:
                app.save_screenshot(str(shots / f"{tag}-summary.svg"))
            if session.match.over:
                return made
            await pilot.press("enter")
            continue
        if session.match.over:
            await pilot.pause()
            continue
        assert session.my_turn, app.query_one("#status", Static).render()
        check_screen(app, session)
        before = len(session.log)
        hint = session.hint()
        key = KEYS[hint[0]] if hint is not None else KEYS[0]
        await pilot.press(key)
        made += 1
        assert len(session.log) > before  # the move and the bots' answers are in the log
        log = app.query_one("#log", RichLog)
        assert len(log.lines) >= len(session.log)
        if made == 1:
            app.save_screenshot(str(shots / f"{tag}-table.svg"))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_a_whole_skip_round_by_keys(size: tuple[int, int], tmp_path: Path) -> None:
    session = skip_session()
    app = PlayApp(session)
    async with app.run_test(size=size) as pilot:
        assert session.my_turn
        made = await play_out(app, pilot, session, tmp_path, f"skip-{size[0]}")
        assert made > 0 and session.match.over
        summary = app.screen
        assert isinstance(summary, Summary) and summary.last
        body = text_of(summary, "#summary-body")
        assert "Scores" in body
    assert (tmp_path / f"skip-{size[0]}-table.svg").exists()


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_a_whole_skyjo_round_by_keys(size: tuple[int, int], tmp_path: Path) -> None:
    session = skyjo_session()
    app = PlayApp(session)
    async with app.run_test(size=size) as pilot:
        made = await play_out(app, pilot, session, tmp_path, f"skyjo-{size[0]}")
        assert made >= 2 and session.match.over  # two reveals at least (S1.2)
        assert isinstance(app.screen, Summary)


async def test_the_hint_marks_a_legal_move_and_says_why() -> None:
    session = skip_session()
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("h")
        hint = session.hint()
        assert hint is not None
        status = " ".join(text_of(app, "#status").split())  # its lines, as one
        assert status.startswith(f"Hint: {KEYS[hint[0]]} ") and hint[1] in status
        assert app.query_one("#moves", OptionList).highlighted == hint[0]
        wanted = session.describe(session.legal()[hint[0]])
        before = len(session.log)
        await pilot.press("enter")  # Enter plays the highlighted (hinted) move
        assert session.log[before].seat == 0 and session.log[before].words == wanted


async def test_a_key_with_no_move_is_refused_and_changes_nothing() -> None:
    session = skip_session()
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        count = len(session.legal())
        assert count < len(KEYS)
        before = (len(session.log), session.view.to_json())
        await pilot.press(KEYS[count])  # one past the last move
        assert (len(session.log), session.view.to_json()) == before
        assert f"There is no move {KEYS[count]}" in " ".join(text_of(app, "#status").split())


async def test_a_click_plays_a_move() -> None:
    session = skip_session()
    app = PlayApp(session)
    async with app.run_test(size=LARGE) as pilot:
        wanted = session.describe(session.legal()[0])
        before = len(session.log)
        await pilot.click("#moves", offset=(4, 1))  # the first move's line
        await pilot.pause()
        assert session.log[before].seat == 0 and session.log[before].words == wanted


async def test_the_rule_book_opens_on_a_key_and_closes() -> None:
    app = PlayApp(skyjo_session())
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, RuleBook)
        assert "S1.1" in app.screen.text
        await pilot.press("escape")
        assert not isinstance(app.screen, RuleBook)
