"""``cardroom play`` driven by Textual's pilot, as a person at the keyboard: whole rounds of
Skip and Skyjo played by the keys written on the cards, the screen checked against the
person's view after every move, at 80x24 and at 160x50; the hint, the rules, refused picks
that change nothing, and moves made with the mouse."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import RichLog, Static
from typer.testing import CliRunner

from cardroom.cli import app as cli_app
from cardroom.games import GAMES, get_game, register
from cardroom.sim.session import PlaySession
from cardroom.terminal.app import PlayApp, RulesScreen, Summary
from cardroom.terminal.board import Spot
from cardroom.terminal.moves import MOVE_KEYS, MovesBoard
from tests.thirdgame.game import HIGH_CARD

SMALL, LARGE = (80, 24), (160, 50)
SIZES = pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
MAX_STEPS = 600


def skip_session(deal: dict[str, Any] | None = None) -> PlaySession:
    """Skip against one bot, one short round: stocks of three, you play first (a set deal)."""
    options = get_game("skip").options_from_json(
        {"players": 2, "stock_size": 3, "match_target": None, "deal": deal or {"first": 0}}
    )
    return PlaySession("skip", options, 7, ["greedy"])


def skyjo_session() -> PlaySession:
    """Skyjo against two bots, to the lowest end score (S5.1): a round or two."""
    options = get_game("skyjo").options_from_json({"players": 3, "end_score": 10})
    return PlaySession("skyjo", options, 7, ["greedy", "greedy"])


def shown(widget: Widget) -> str:
    """A widget's text as the terminal shows it: its lines inside its frame, joined."""
    size = widget.outer_size
    lines = widget.render_lines(Region(0, 0, size.width, size.height))
    return " ".join(" ".join(line.text.split()) for line in lines).strip()


def text(app: PlayApp, place: str) -> str:
    """The card a spot shows on screen: the line inside its frame."""
    spot = app.board.spot(place)
    lines = spot.render_lines(Region(0, 0, spot.outer_size.width, spot.outer_size.height))
    return " ".join(lines[1].text.strip("│┃║ ").split())


def status(app: PlayApp) -> str:
    return shown(app.query_one("#status", Static))


def log_lines(app: PlayApp) -> int:
    return len(app.query_one(RichLog).lines)


def choose_skip(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain player: the stock first, then any card that builds, else a discard."""
    for wanted in ("stock", "hand", "discard"):
        for action in legal:
            if action["type"] == "play" and action["from"] == wanted:
                return action
    return legal[0]


def choose_skyjo(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain player: draw, then turn a face-down card (so the round closes), else swap."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for kind in ("reveal", "draw", "discard", "exchange"):
        if kind in by_type:
            return by_type[kind][0]
    return legal[0]


def check_skip_board(app: PlayApp, view: dict[str, Any]) -> None:
    hand = view["hand"]
    for i in range(5):
        assert text(app, f"hand-{i + 1}") == (str(hand[i]) if i < len(hand) else "")
    if view["stock_counts"][0]:
        assert text(app, "stock") == str(view["stock_tops"][0])
    for i, pile in enumerate(view["discards"][0], start=1):
        shown = text(app, f"discard-{i}")
        assert shown.endswith(str(pile[-1])) if pile else shown == "·"
    for i, pile in enumerate(view["building"], start=1):
        shown = text(app, f"build-{i}")
        assert shown.endswith(str(pile["value"])) if pile["cards"] else shown == "·"


def check_skyjo_board(app: PlayApp, view: dict[str, Any]) -> None:
    for column, cells in enumerate(view["grids"][0], start=1):
        for row, card in enumerate(cells, start=1):
            assert text(app, f"cell-{column}-{row}") == ("×" if card is None else str(card))
    if view["discard_top"] is not None:
        assert text(app, "discard") == str(view["discard_top"])


def check_fits(app: PlayApp, size: tuple[int, int]) -> None:
    """Every place one can pick is whole on the screen: nothing cut at 80x24."""
    width, height = size
    for spot in app.board.query(Spot):
        if not spot.display:
            continue
        region = spot.region
        assert region.width > 0 and region.height == 3, spot.place
        assert region.right <= width and region.bottom <= height - 3, (spot.place, region)


async def play_out(
    app: PlayApp, pilot: Any, session: PlaySession, size: tuple[int, int], shots: Path
) -> int:
    """Play to the match's end by keys, checking the screen against the view after each
    move and reading each round's summary; returns how many moves the person made."""
    choose = choose_skip if session.game_name == "skip" else None
    made = 0
    for _ in range(MAX_STEPS):
        if isinstance(app.screen, Summary):
            assert "Scores" in shown(app.screen.query_one("#summary-body"))
            app.save_screenshot(str(shots / f"{session.game_name}-{size[0]}-summary.svg"))
            if session.match.over:
                assert app.screen.last
                return made
            await pilot.press("enter")
            continue
        assert session.my_turn, status(app)
        view = session.view()
        assert app.board.view == view  # the board shows the person's view, nothing else
        assert f"round {session.match.round_number}" in shown(app.query_one("#headline"))
        if session.game_name == "skip":
            check_skip_board(app, view)
        else:
            check_skyjo_board(app, view)
        check_fits(app, size)
        legal = session.legal()
        action = choose(legal) if choose else choose_skyjo(view, legal)
        before_log, before_moves = log_lines(app), session.moves
        for place in app.board.spots_of(action):
            await pilot.press(app.board.spot(place).key)
        made += 1
        assert session.moves > before_moves, status(app)  # the move was played
        assert log_lines(app) > before_log  # and told in the log
        if made == 3:
            app.save_screenshot(str(shots / f"{session.game_name}-{size[0]}-table.svg"))
    raise AssertionError("the match did not end")


@SIZES
async def test_a_whole_skip_round_by_keys(size: tuple[int, int], tmp_path: Path) -> None:
    session = skip_session()
    app = PlayApp(session)
    async with app.run_test(size=size) as pilot:
        made = await play_out(app, pilot, session, size, tmp_path)
        assert made > 0 and session.match.over
        body = shown(app.screen.query_one("#summary-body"))
        assert "won the round" in body and "won by" in body.lower()
        await pilot.press("enter")  # back to the table, which says the match is over
        assert "The match is over" in status(app)
        await pilot.press("1")
        assert "round is over" in status(app)
    assert (tmp_path / f"skip-{size[0]}-table.svg").exists()


@SIZES
async def test_a_whole_skyjo_match_by_keys(size: tuple[int, int], tmp_path: Path) -> None:
    session = skyjo_session()
    app = PlayApp(session)
    async with app.run_test(size=size) as pilot:
        made = await play_out(app, pilot, session, size, tmp_path)
        assert made >= 2 and session.match.over  # two reveals at least (S1.2)
        body = shown(app.screen.query_one("#summary-body"))
        assert "closed the round" in body and "won by" in body.lower()
    svg = (tmp_path / f"skyjo-{size[0]}-table.svg").read_text(encoding="utf-8")
    assert "greedy&#160;1" in svg and "draw" in svg  # the other grids and the piles are drawn


async def test_the_hint_marks_its_cards_and_their_keys_play_it() -> None:
    session = skyjo_session()
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("h")
        assert app.hint is not None
        places = app.board.spots_of(app.hint["action"])
        keys = app.board.keys_of(places)
        assert status(app).startswith(f"Hint ({keys}): ")
        assert app.hint["reason"] in status(app)
        assert all(app.board.spot(p).has_class("hinted") for p in places)
        before = session.moves
        for place in places:
            await pilot.press(app.board.spot(place).key)
        assert session.moves > before
        assert session.told[-1].event["seat"] != 0 or session.my_turn  # the bots answered


async def test_the_skip_hint_names_its_keys_and_they_play_it() -> None:
    session = skip_session({"first": 0, "stocks": [[1]], "draw": [7, 7, 7, 7, 7]})
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("h")
        assert app.hint is not None
        assert app.hint["action"] in session.legal()  # advice from the engine's own moves
        places = app.board.spots_of(app.hint["action"])
        assert status(app).startswith(f"Hint ({app.board.keys_of(places)}): ")
        for place in places:
            await pilot.press(app.board.spot(place).key)
        mine = [t.event for t in session.told if t.event.get("seat") == 0]
        assert mine[-1]["kind"] in ("played", "discarded")


async def test_a_game_without_a_board_of_its_own_is_played_from_its_list_of_moves() -> None:
    register(HIGH_CARD)
    try:
        options = HIGH_CARD.options_from_json({"players": 2})
        session = PlaySession("highcard", options, 3, ["high"])
        app = PlayApp(session)
        async with app.run_test(size=SMALL) as pilot:
            assert isinstance(app.board, MovesBoard)
            for _ in range(MAX_STEPS):
                if isinstance(app.screen, Summary):
                    if session.match.over:
                        break
                    await pilot.press("enter")
                    continue
                legal = session.legal()
                assert [app.board.spot(f"move-{i}").key for i in range(len(legal))] == list(
                    MOVE_KEYS[: len(legal)]
                )
                before = session.moves
                await pilot.press(MOVE_KEYS[0])
                assert session.moves > before
            assert session.match.over
    finally:
        GAMES.pop(HIGH_CARD.name, None)


async def test_the_rules_key_lists_the_rules_by_id_and_closes() -> None:
    app = PlayApp(skip_session())
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, RulesScreen)
        lines = shown(app.screen.query_one("#rules-lines"))
        assert "R5.2" in lines and "R4.4" in lines
        assert "building piles a-d" in shown(app.screen.query_one("#rules-keys"))
        await pilot.press("1")  # keys do not reach the table under the rules
        assert app.board.selected is None
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)


async def test_an_illegal_pick_is_refused_with_its_rule_and_changes_nothing() -> None:
    session = skip_session({"first": 0, "stocks": [[12]], "draw": [7, 7, 7, 7, 7]})
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        before = (session.view(), session.moves, log_lines(app))
        await pilot.press("a")  # a building pile with nothing picked
        assert status(app).startswith("Pick a card first")
        await pilot.press("1")  # a 7 ...
        assert app.board.selected == "hand-1" and app.board.spot("hand-1").has_class("selected")
        await pilot.press("a")  # ... on an empty building pile (R5.1)
        assert status(app).startswith("Refused: ") and "(R5.1)" in status(app)
        assert app.board.selected is None
        await pilot.press("s")  # the stock's 12 on an empty place: refused too
        await pilot.press("b")
        assert "Refused" in status(app)
        assert (session.view(), session.moves, log_lines(app)) == before
        assert text(app, "hand-1") == "7" and text(app, "stock") == "12"


async def test_a_pick_out_of_order_in_skyjo_says_what_comes_first() -> None:
    session = skyjo_session()
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("m")  # the discard pile while cards are still to be turned
        assert "turn two cards" in status(app)
        for key in ("1", "2"):
            await pilot.press(key)  # the two reveals (S1.2); the bots turn theirs
        assert session.my_turn or session.match.between_rounds
        before = (session.view(), session.moves)
        await pilot.press("v")  # a card of the grid before taking or drawing one
        assert status(app).startswith("First take the discard pile's")
        assert (session.view(), session.moves) == before


async def until(pilot: Any, holds: Callable[[], bool], pauses: int = 200) -> bool:
    """Whether ``holds()`` comes true while the app works through its messages (a pause each
    time). A click reaches its spot, whose ``Picked`` message then bubbles up to the app a hop
    at a time; the pilot's own pause after a click waits for the click, and on a busy machine
    (one run in eight, with the other core busy) returned before the app had played the move."""
    for _ in range(pauses):
        if holds():
            return True
        await pilot.pause()
    return holds()


async def test_moves_by_mouse() -> None:
    """Each click lands on the spot it aims at (``click`` says whether it did), and its move
    is played."""
    session = skip_session({"first": 0, "stocks": [[12]], "draw": [7, 7, 7, 7, 5]})
    app = PlayApp(session)
    async with app.run_test(size=LARGE) as pilot:
        assert await pilot.click("#spot-hand-1")  # the 5 (a hand is shown in order)
        assert await until(pilot, lambda: app.board.selected == "hand-1")
        assert await pilot.click("#spot-discard-2")
        assert await until(pilot, lambda: session.view()["discards"][0][1] == [5])
        assert text(app, "discard-2") == "5"
        assert any(t.event["kind"] == "discarded" and t.event["seat"] == 0 for t in session.told)

    session = skyjo_session()
    app = PlayApp(session)
    async with app.run_test(size=SMALL) as pilot:
        assert await pilot.click("#spot-cell-3-2")
        # turned by a click (S1.2)
        assert await until(pilot, lambda: session.view()["grids"][0][2][1] != "?")
        assert text(app, "cell-3-2") == str(session.view()["grids"][0][2][1])


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    def played() -> list[Any]:
        session = skyjo_session()
        for _ in range(MAX_STEPS):
            if session.match.over:
                break
            if session.match.between_rounds:
                session.next_round()
                continue
            assert session.play(choose_skyjo(session.view(), session.legal())) is None
        return [t.event for t in session.told]

    assert played() == played()


def test_the_command_refuses_bad_options_in_one_line() -> None:
    result = CliRunner().invoke(cli_app, ["play", "--game", "skyjo", "-o", "end_score=5"])
    assert result.exit_code == 2
    assert result.output.startswith("refused: ") or result.stderr.startswith("refused: ")
