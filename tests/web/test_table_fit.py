"""The table fits its window as a newcomer meets it: at 1440×900 a Skyjo round's end and the
result never make the page scroll (the side column scrolls inside itself); on a phone, a Skip
table with one other player has no empty band above them, one with seven keeps the hand in
view; eight players' Skyjo grids, small on a phone, grow one at a time on a tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE, _open_page
from .test_a11y import violations

pytestmark = pytest.mark.browser

TOUCH = {"viewport": PHONE, "has_touch": True, "is_mobile": True}


SETTLED_FIT = "() => document.documentElement.scrollHeight <= innerHeight"


def page_scrolls(page: Any) -> int:
    """How far the page itself scrolls down (0: it fits the window)."""
    return int(page.evaluate("document.documentElement.scrollHeight - innerHeight"))


def test_a_skyjo_result_at_1440_by_900_fits_the_window(
    browser: Any, server: str, artifacts: Path
) -> None:
    for page in _open_page(browser, server, viewport=DESKTOP, reduced_motion="reduce"):
        ui.sign_in(page, "Desk")
        sk.choose_skyjo(page)
        ui.bot_table(page, bots=1, game="skyjo", options={"end_score": 10})  # one round
        steps = 0
        while sk.wait_my_turn_or_end(page) and not page.locator("#round-summary").count():
            page.wait_for_function(SETTLED_FIT, timeout=ui.PATIENCE)
            sk.play_turn_step(page, steps)
            steps += 1
            assert steps < 300
        page.wait_for_selector("#match-result")
        page.wait_for_selector("#side-sheet")
        # Once the round's last cards have flown and flipped (a moment's 3 px while they do).
        page.wait_for_function(SETTLED_FIT, timeout=ui.PATIENCE)
        column = page.locator(".side-col")
        box = column.bounding_box()
        assert box["y"] + box["height"] <= DESKTOP["height"], "the side column is cut"
        # The long column (round, sheet, log, people) scrolls inside itself instead.
        assert column.evaluate("(el) => el.scrollHeight > el.clientHeight")
        page.screenshot(path=artifacts / "fit-skyjo-result-1440x900.jpg")


def test_a_phone_skip_table_has_no_empty_band_and_keeps_the_hand_in_view(
    browser: Any, server: str, artifacts: Path
) -> None:
    for page in _open_page(browser, server, **TOUCH):
        ui.sign_in(page, "Phone")
        ui.bot_table(page, bots=1)
        toolbar = page.locator(".table-toolbar").bounding_box()
        other = page.locator(".seat-panel").first.bounding_box()
        band = other["y"] - (toolbar["y"] + toolbar["height"])
        assert band < 24, f"{band:.0f} px of nothing above the other player"
        hand = page.locator(".hand-row").bounding_box()
        assert hand["y"] + hand["height"] <= PHONE["height"]
        page.screenshot(path=artifacts / "fit-skip-phone-2p.jpg")

        page.goto("/")
        ui.bot_table(page, bots=7)
        hand = page.locator(".hand-row").bounding_box()
        assert hand["y"] + hand["height"] <= PHONE["height"], "eight players push the hand out"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=artifacts / "fit-skip-phone-8p.jpg")


def test_eight_players_skyjo_grids_grow_one_at_a_time_on_a_tap(
    browser: Any, server: str, artifacts: Path
) -> None:
    for page in _open_page(browser, server, bypass_csp=True, **TOUCH):
        ui.sign_in(page, "Tapper")
        sk.choose_skyjo(page)
        ui.bot_table(page, bots=7, game="skyjo")
        small = page.locator(".sk-others .sk-card").first.bounding_box()["width"]
        assert small < 24  # seven grids side by side on 390 px
        others = page.locator(".sk-others .sk-seat")
        others.nth(2).tap()
        page.wait_for_selector(".sk-others .sk-seat.zoomed")
        zoomed = page.locator(".sk-seat.zoomed")
        assert zoomed.get_attribute("data-seat") == others.nth(2).get_attribute("data-seat")
        assert zoomed.locator(".sk-card").first.bounding_box()["width"] >= 40
        assert zoomed.locator(".sk-zoom").get_attribute("aria-pressed") == "true"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        sk.no_overflow(page)
        assert violations(page) == [], "a grown grid"
        page.screenshot(path=artifacts / "fit-skyjo-phone-8p-zoomed.jpg")
        others.nth(5).tap()  # another one: the first goes back
        page.wait_for_function(
            "(seat) => document.querySelector('.sk-seat.zoomed')?.dataset.seat === seat",
            arg=others.nth(5).get_attribute("data-seat"),
        )
        assert page.locator(".sk-seat.zoomed").count() == 1
        page.locator(".sk-seat.zoomed").tap()  # a tap on the grown one shrinks it
        page.wait_for_selector(".sk-seat.zoomed", state="detached")
        # By keyboard: the name is the button.
        page.locator(".sk-others .sk-zoom").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".sk-others .sk-seat.zoomed")
        assert page.evaluate("document.activeElement.classList.contains('sk-zoom')")
