"""What a person does at a Skyjo table in the web client, as Playwright steps: choose Skyjo in
the lobby, start a game against bots, read the board from the DOM and tap cards."""

from __future__ import annotations

import json
from typing import Any

from tests.web import ui

BOARD = "#board"
Action = dict[str, Any]


def choose_skyjo(page: Any) -> None:
    page.click('.game-choice[data-game="skyjo"]')
    page.wait_for_selector('.lobby[data-game="skyjo"] #quick-play')


def quick_game(page: Any, *, bots: int, length: str = "quick") -> str:
    """A game against `bots` bots from the lobby's quick play; returns the table id."""
    page.select_option("#qp-bots", str(bots))
    page.select_option("#qp-length", length)
    page.click("#quick-play")
    page.wait_for_selector(f"{BOARD}[data-game=skyjo]")
    return page.evaluate("location.hash").split("/")[-1]


def wait_my_turn_or_end(page: Any) -> bool:
    """Wait until this seat may act or a round summary shows (True), or the game's result
    shows (False)."""
    page.wait_for_function(
        """() => {
            if (document.querySelector('#match-result')) return true;
            if (document.querySelector('#round-summary')) return true;
            const b = document.querySelector('#board');
            return b && b.dataset.myTurn === 'true' && JSON.parse(b.dataset.legal).length > 0;
        }""",
        timeout=ui.PATIENCE,
    )
    return page.locator("#match-result").count() == 0


def board(page: Any) -> dict[str, Any]:
    """The board's state, read at one moment: attribute by attribute, a bot's move could fall
    between two reads (its holding, then our turn)."""
    page.wait_for_selector(BOARD)
    data = page.evaluate(
        """(selector) => {
            const d = document.querySelector(selector).dataset;
            return {legal: d.legal, phase: d.phase, holding: d.holding, seq: d.seq, mine: d.myTurn};
        }""",
        BOARD,
    )
    return {
        "legal": json.loads(data["legal"] or "[]"),
        "phase": data["phase"],
        "holding": data["holding"] == "true",
        "seq": data["seq"],
        "my_turn": data["mine"] == "true",
    }


def cell(action: Action) -> str:
    return f'.sk-seat.mine [data-col="{action["column"]}"][data-row="{action["row"]}"]'


def press(page: Any, selector: str, touch: bool) -> None:
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def play_turn_step(page: Any, step: int, *, touch: bool = False) -> None:
    """One action by tapping, varied by `step` so every kind is used: reveal, draw then
    exchange, draw then discard-and-turn, take the discard's top."""
    now = board(page)
    legal = now["legal"]
    kinds = {a["type"] for a in legal}
    if now["phase"] == "reveal":
        press(page, cell(next(a for a in legal if a["type"] == "reveal")), touch)
    elif not now["holding"]:
        if "take" in kinds and step % 3 == 0:
            press(page, "#sk-discard", touch)
            page.wait_for_selector("#sk-discard.selected")
            takes = [a for a in legal if a["type"] == "take"]
            press(page, cell(takes[step % len(takes)]), touch)
        else:
            press(page, "#sk-draw", touch)
    else:
        tosses = [a for a in legal if a["type"] == "discard"]
        if tosses and step % 2 == 0:
            press(page, '[data-sk-action="toss"]', touch)
            page.wait_for_selector('[data-sk-action="cancel"]')
            press(page, cell(tosses[0]), touch)
        else:
            swaps = [a for a in legal if a["type"] == "exchange"]
            press(page, cell(swaps[step % len(swaps)]), touch)
    page.wait_for_function(
        f"() => document.querySelector('#match-result') || "
        f"document.querySelector('#board')?.dataset.seq !== '{now['seq']}'",
        timeout=ui.PATIENCE,
    )


def play_to_the_end(page: Any, *, touch: bool = False, limit: int = 600) -> int:
    """Play every turn of this seat until the result shows; returns the actions made."""
    steps = 0
    while wait_my_turn_or_end(page):
        if page.locator("#round-summary").count():
            page.wait_for_selector("#round-summary", state="detached", timeout=ui.PATIENCE)
            continue
        play_turn_step(page, steps, touch=touch)
        steps += 1
        assert steps < limit, "a game to 10 points ends long before this"
    return steps


def final_scores(page: Any) -> list[int]:
    """The result's totals, in the order shown (lowest first)."""
    texts = page.locator("#match-result .final-scores li b").all_inner_texts()
    return [int(t.split()[0]) for t in texts]


def no_overflow(page: Any) -> None:
    """Nothing sticks out sideways, and no two grids overlap."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"
    boxes = [
        page.locator(".sk-seat").nth(i).bounding_box()
        for i in range(page.locator(".sk-seat").count())
    ]
    for i, a in enumerate(boxes):
        assert a["x"] >= 0 and a["x"] + a["width"] <= page.viewport_size["width"] + 0.5
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + 0.5
                or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5
                or b["y"] + b["height"] <= a["y"] + 0.5
            )
            assert apart, f"two grids overlap: {a} and {b}"


GRID_KEYS = ["qwer", "asdf", "zxcv"]


def key_of(action: Action) -> str:
    return GRID_KEYS[action["row"] - 1][action["column"] - 1]


def play_turn_step_by_keys(page: Any, step: int) -> None:
    """One action with the keyboard only (the help dialog's keys)."""
    now = board(page)
    legal = now["legal"]
    kinds = {a["type"] for a in legal}
    if now["phase"] == "reveal":
        page.keyboard.press(key_of(next(a for a in legal if a["type"] == "reveal")))
    elif not now["holding"]:
        if "take" in kinds and step % 2 == 0:
            page.keyboard.press("b")
            page.wait_for_selector("#sk-discard.selected")
            page.keyboard.press(key_of(next(a for a in legal if a["type"] == "take")))
        else:
            page.keyboard.press("n")
    else:
        tosses = [a for a in legal if a["type"] == "discard"]
        if tosses and step % 3 == 0:
            page.keyboard.press("b")
            page.wait_for_selector('[data-sk-action="cancel"]')
            page.keyboard.press(key_of(tosses[0]))
        else:
            page.keyboard.press(key_of(next(a for a in legal if a["type"] == "exchange")))
    page.wait_for_function(
        f"() => document.querySelector('#match-result') || document.querySelector('#round-summary')"
        f" || document.querySelector('#board')?.dataset.seq !== '{now['seq']}'",
        timeout=ui.PATIENCE,
    )
