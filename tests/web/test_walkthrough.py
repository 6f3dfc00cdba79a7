"""The first-game walkthrough: a callout next to the part of the table it explains, moving on
when the player does what a step teaches, never over the others, the top bar, the toolbar's
buttons, a round summary or the result, and gone by itself when the first round ends; shown
once per browser, back from the help dialog, usable by keyboard; axe stays clean. At a
desktop's size and a phone's (touch), for Skip and for Skyjo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE
from .test_a11y import violations

pytestmark = pytest.mark.browser

WALK = "#walkthrough"
SUMMARY_OR_RESULT = "#round-summary, #match-result"

# What the walkthrough never covers, by what the player would miss.
KEEP_CLEAR = {
    "the top bar": ".topbar",
    "a toolbar button": ".table-toolbar button",
    "the others": ".others .seat-panel, .sk-others .sk-seat",
    "the round summary": "#round-summary",
    "the result": "#match-result, #match-title, .final-scores",
}

# What the player plays with: a step that needs no turn of theirs keeps out of it on their turn.
BOARD_PARTS = (
    ".centre, .mine-area .stock-wrap, .my-discards, .hand,"
    " .sk-centre, #sk-prompt, .sk-seat.mine .sk-grid, #last-turns"
)

# From the moment it runs, at every change of the page (and whenever a test calls
# `__walkLook()`): whether the walkthrough (its box and its arrow's) meets any of KEEP_CLEAR,
# or the board on the player's turn when its step needs no turn; shows a step that needs the
# player's turn out of turn, or shows at all with a round summary or the result; and the
# titles it showed, in order.
WATCH = """([clear, parts]) => {
    const log = (window.__walk = {titles: [], faults: []});
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const look = () => {
        const walk = document.querySelector('#walkthrough');
        if (!walk || walk.hidden || getComputedStyle(walk).visibility === 'hidden') return;
        const title = walk.querySelector('#walk-title').textContent;
        if (log.titles.at(-1) !== title) log.titles.push(title);
        const arrow = walk.querySelector('.walk-arrow');
        const boxes = [walk, arrow].map((e) => e.getBoundingClientRect());
        for (const [what, selector] of Object.entries(clear)) {
            for (const el of document.querySelectorAll(selector)) {
                const r = el.getBoundingClientRect();
                if (r.width && r.height && boxes.some((b) => meets(b, r))) {
                    const at = (b) => [b.left, b.top, b.width, b.height].map(Math.round);
                    log.faults.push(`"${title}" at ${at(boxes[0])} over ${what} at ${at(r)}`);
                }
            }
        }
        const board = document.querySelector('#board');
        const mine = board?.dataset.myTurn === 'true';
        if (walk.dataset.needsTurn === 'true' && !mine) {
            log.faults.push(`"${title}" out of the player's turn`);
        }
        if (walk.dataset.needsTurn === 'false' && mine) {
            for (const el of document.querySelectorAll(parts)) {
                const r = el.getBoundingClientRect();
                if (r.width && r.height && boxes.some((b) => meets(b, r))) {
                    log.faults.push(`"${title}" in the way of the player's turn`);
                }
            }
        }
        if (document.querySelector('#round-summary, #match-result')) {
            log.faults.push(`"${title}" with a round summary or the result`);
        }
    };
    new MutationObserver(look).observe(document.body,
        {subtree: true, childList: true, attributes: true, characterData: true});
    window.__walkLook = look;
    look();
}"""


def watch(page: Any) -> None:
    page.evaluate(WATCH, [KEEP_CLEAR, BOARD_PARTS])


def watched(page: Any) -> dict[str, list[str]]:
    return page.evaluate("window.__walk")


@pytest.fixture(params=["desktop", "phone"])
def walk_page(request: Any, browser: Any, server: str) -> Iterator[tuple[Any, str]]:
    """A browser that has not seen the walkthrough, at a desktop's size or a phone's (touch);
    axe may be injected (the Content-Security-Policy is bypassed, nothing else changes); any
    JavaScript error fails the test."""
    size = request.param
    device = (
        {"viewport": PHONE, "has_touch": True, "is_mobile": True}
        if size == "phone"
        else {"viewport": DESKTOP}
    )
    context = browser.new_context(
        walkthrough=True, base_url=server, bypass_csp=True, reduced_motion="reduce", **device
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, size
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def press(page: Any, size: str, selector: str) -> None:
    if size == "phone":
        page.tap(selector)
    else:
        page.click(selector)


def move(page: Any, size: str, source: str, target: str) -> None:
    """Choose a card, then where it goes; wait until the table has moved on."""
    before = ui.seq(page)
    press(page, size, source)
    press(page, size, target)
    ui.wait_seq_after(page, before)


def expect_step(page: Any, n: int, title: str, ring: str, *, anchored: bool = True) -> None:
    """The walkthrough shows step ``n`` (titled ``title``), ringing what it explains as
    ``ring``; ``anchored``: next to it, not docked at an edge of the window."""
    page.wait_for_function(
        """(n) => {
            const walk = document.querySelector('#walkthrough');
            return walk && !walk.hidden && walk.dataset.step === String(n);
        }""",
        arg=n,
    )
    assert page.locator("#walk-title").inner_text() == title
    assert page.evaluate("document.body.dataset.walk") == ring
    if anchored:
        assert page.get_attribute(WALK, "data-side") in ("below", "above", "left", "right")


def expect_gone(page: Any) -> None:
    page.wait_for_selector(WALK, state="detached")
    assert page.evaluate("document.body.dataset.walk") is None


# Skip, one round: your stock is a 1 and a wild, your first hand 1 9 9 10 11; the bot's stock
# is two 12s and its first hand 9 9 10 10 11, so it cannot play until you have won.
SKIP_DEAL = {
    "first": 0,
    "stocks": [[1, "W"], [12, 12]],
    "draw": [1, 9, 9, 10, 11, 9, 9, 10, 10, 11],
}
SKIP_TITLES = [
    "Play from your stock",
    "Build with your hand",
    "End your turn with a discard",
    "Watch the others' stocks",
]


def test_skip_walkthrough_follows_the_first_round_and_ends_with_it(
    walk_page: tuple[Any, str], artifacts: Path
) -> None:
    page, size = walk_page
    ui.sign_in(page, "Walker")
    options = {"stock_size": 2, "match_target": None, "deal": SKIP_DEAL}
    ui.bot_table(page, bots=1, options=options)
    watch(page)
    ui.wait_my_turn_or(page, "#match-result")
    expect_step(page, 1, SKIP_TITLES[0], "skip-stock")
    assert violations(page) == [], "a Skip table with the walkthrough"
    page.screenshot(path=artifacts / f"walkthrough-skip-{size}-1-stock.jpg")
    if size == "phone":
        for button in page.locator(f"{WALK} button").all():
            box = button.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44

    move(page, size, '.mine-area [data-src="stock"]', '[data-dst="build"][data-pile="1"]')
    expect_step(page, 2, SKIP_TITLES[1], "skip-hand")
    page.wait_for_function(
        "() => document.querySelector('#announcer').textContent.includes('step 2 of 4')"
    )
    page.screenshot(path=artifacts / f"walkthrough-skip-{size}-2-hand.jpg")

    move(page, size, '[data-src="hand"][data-card="1"]', '[data-dst="build"][data-pile="2"]')
    expect_step(page, 3, SKIP_TITLES[2], "skip-discards")
    page.screenshot(path=artifacts / f"walkthrough-skip-{size}-3-discards.jpg")

    # The turn ends: the last step needs no turn of yours and stays clear of the bot's seat; on
    # your turn it keeps out of your board too (on a phone, docked at the window's foot).
    discard = '.mine-area [data-dst="discard"][data-pile="1"]'
    move(page, size, '[data-src="hand"][data-card="9"]', discard)
    expect_step(page, 4, SKIP_TITLES[3], "skip-others", anchored=size == "desktop")
    ui.wait_my_turn_or(page, "#match-result")
    expect_step(page, 4, SKIP_TITLES[3], "skip-others", anchored=size == "desktop")
    assert page.locator("#walk-next").count() == 0  # the last step: Close, no Next
    page.screenshot(path=artifacts / f"walkthrough-skip-{size}-4-others.jpg")

    # The wild from your stock empties it: the round, and this one-round match, are over.
    move(page, size, '.mine-area [data-src="stock"]', '[data-dst="build"][data-pile="3"]')
    page.wait_for_selector("#match-result")
    expect_gone(page)
    page.screenshot(path=artifacts / f"walkthrough-skip-{size}-5-result.jpg")
    assert violations(page) == [], "the result after the walkthrough"
    seen = page.evaluate("JSON.parse(localStorage.getItem('cardroom.walkthrough'))")
    assert seen == {"skip": True}

    # Asked for again over the result, it waits for a round in play and says so.
    press(page, size, "#help-toggle")
    press(page, size, "#walk-again")
    page.wait_for_selector(".toast.info >> text=The walkthrough starts with the next round.")
    assert page.locator(f"{WALK}:not([hidden])").count() == 0
    log = watched(page)
    assert log["faults"] == []
    assert log["titles"] == SKIP_TITLES


SKYJO_TITLES = [
    "Turn two of your cards",
    "Draw, or take the discard",
    "Put it on your grid",
    "Columns and the last turns",
]


def test_skyjo_walkthrough_follows_the_first_round_and_ends_with_it(
    walk_page: tuple[Any, str], artifacts: Path
) -> None:
    page, size = walk_page
    touch = size == "phone"
    ui.sign_in(page, "Gridder")
    ui.bot_table(page, bots=1, game="skyjo", options={"deal": {"first": 0}})
    watch(page)
    assert sk.wait_my_turn_or_end(page)
    expect_step(page, 1, SKYJO_TITLES[0], "skyjo-grid")
    assert violations(page) == [], "a Skyjo table with the walkthrough"
    page.screenshot(path=artifacts / f"walkthrough-skyjo-{size}-1-reveal.jpg")

    sk.play_turn_step(page, 0, touch=touch)  # one card turned: one more to go
    sk.wait_my_turn_or_end(page)
    expect_step(page, 1, SKYJO_TITLES[0], "skyjo-grid")
    sk.play_turn_step(page, 0, touch=touch)

    # Both turned: "turn two" never shows again; drawing waits for your turn.
    sk.wait_my_turn_or_end(page)
    expect_step(page, 2, SKYJO_TITLES[1], "skyjo-piles")
    page.screenshot(path=artifacts / f"walkthrough-skyjo-{size}-2-draw.jpg")

    # Drawing (on a desktop) or choosing the discard's top (on a phone) moves on to putting the
    # card on the grid, which the step's callout leaves free.
    kind = "exchange" if size == "desktop" else "take"
    press(page, size, "#sk-draw" if kind == "exchange" else "#sk-discard")
    expect_step(page, 3, SKYJO_TITLES[2], "skyjo-grid")
    page.screenshot(path=artifacts / f"walkthrough-skyjo-{size}-3-put.jpg")

    put = next(a for a in sk.board(page)["legal"] if a["type"] == kind)
    before = ui.seq(page)
    press(page, size, sk.cell(put))
    ui.wait_seq_after(page, before)
    expect_step(page, 4, SKYJO_TITLES[3], "skyjo-grid")
    page.screenshot(path=artifacts / f"walkthrough-skyjo-{size}-4-last.jpg")

    # On to the end of the round (whoever turns their last card first): the walkthrough goes
    # with it, and the next round does not bring it back.
    steps = 1
    while sk.wait_my_turn_or_end(page) and not page.locator(SUMMARY_OR_RESULT).count():
        sk.play_turn_step(page, steps, touch=touch)
        steps += 1
        assert steps < 200, "a round ends long before this"
    page.wait_for_selector(SUMMARY_OR_RESULT)
    expect_gone(page)
    page.screenshot(path=artifacts / f"walkthrough-skyjo-{size}-5-summary.jpg")
    log = watched(page)
    assert log["faults"] == []
    assert log["titles"] == SKYJO_TITLES
    assert violations(page) == [], "the round summary after the walkthrough"
    if page.locator("#round-summary").count():
        page.wait_for_selector("#round-summary", state="detached", timeout=ui.PATIENCE)
        sk.wait_my_turn_or_end(page)
        assert page.locator(WALK).count() == 0


def test_shown_once_per_game_by_keyboard_and_again_from_help(browser: Any, server: str) -> None:
    context = browser.new_context(walkthrough=True, viewport=DESKTOP, base_url=server)
    page = context.new_page()
    try:
        ui.sign_in(page, "Keys")
        ui.bot_table(page, bots=1, first=0)
        ui.wait_my_turn_or(page, "#match-result")
        expect_step(page, 1, SKIP_TITLES[0], "skip-stock")
        assert page.evaluate("document.activeElement.id") == "walk-next"
        page.keyboard.press("Enter")  # Next: the focus stays in the walkthrough
        expect_step(page, 2, SKIP_TITLES[1], "skip-hand")
        assert page.evaluate("document.activeElement.id") == "walk-next"
        page.click("#walk-back")
        expect_step(page, 1, SKIP_TITLES[0], "skip-stock")

        # The window becomes a phone's: the walkthrough finds a new place, clear of everything.
        watch(page)
        page.set_viewport_size(PHONE)
        # A window's resize event is handled before the next frame's callbacks.
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
        page.evaluate("window.__walkLook()")
        assert watched(page)["faults"] == []
        page.set_viewport_size(DESKTOP)
        page.keyboard.press("Escape")
        expect_gone(page)
        assert page.evaluate("document.activeElement !== document.body")

        ui.bot_table(page, bots=1, first=0)  # a second table: no walkthrough
        ui.wait_my_turn_or(page, "#match-result")
        assert page.locator(WALK).count() == 0

        page.click("#help-toggle")
        page.click("#walk-again")
        expect_step(page, 1, SKIP_TITLES[0], "skip-stock")
        for n, title in enumerate(SKIP_TITLES[1:], start=2):
            page.click("#walk-next")
            expect_step(page, n, title, f"skip-{['hand', 'discards', 'others'][n - 2]}")
        assert page.locator("#walk-next").count() == 0
        assert page.locator("#walk-skip").inner_text() == "Close"
        page.keyboard.press("Escape")
        expect_gone(page)

        page.goto("/")  # Skyjo is another game: its first table shows its own walkthrough
        sk.choose_skyjo(page)
        sk.quick_game(page, bots=1)
        page.wait_for_selector(f"{WALK}:not([hidden])")
        assert page.locator("#walk-title").inner_text() in SKYJO_TITLES
    finally:
        context.close()
