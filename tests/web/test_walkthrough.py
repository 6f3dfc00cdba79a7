"""The first-game walkthrough: shown once per browser on a player's first table of each game,
skippable, never in the way, and back on demand from the help dialog; axe stays clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE
from .test_a11y import violations

pytestmark = pytest.mark.browser

WALK = "#walkthrough"


def test_first_table_shows_the_walkthrough_once_and_help_brings_it_back(
    browser: Any, server: str, artifacts: Path
) -> None:
    context = browser.new_context(
        walkthrough=True, viewport=DESKTOP, base_url=server, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        ui.sign_in(page, "Walker")
        ui.bot_table(page, bots=1)
        page.wait_for_selector(WALK)
        assert page.evaluate("document.activeElement.id") == "walk-next"
        assert page.evaluate("document.body.dataset.walk") == "skip-stock"
        assert page.locator("#walk-title").inner_text() == "Your stock"
        assert violations(page) == [], "table with the walkthrough"
        page.screenshot(path=artifacts / "walkthrough-skip-desktop.png")
        page.click("#walk-next")
        assert page.locator("#walk-title").inner_text() == "Your hand"
        page.click("#walk-back")
        assert page.locator("#walk-title").inner_text() == "Your stock"
        page.click("#walk-skip")
        assert page.locator(WALK).count() == 0
        assert page.evaluate("document.body.dataset.walk") is None

        ui.bot_table(page, bots=1)  # a second table: no walkthrough
        assert ui.wait_my_turn_or_end(page)
        assert page.locator(WALK).count() == 0

        page.click("#help-toggle")
        page.click("#walk-again")
        page.wait_for_selector(WALK)
        for title in ("Your hand", "The building piles", "Your discard piles"):
            page.click("#walk-next")
            assert page.locator("#walk-title").inner_text() == title
        assert page.locator("#walk-next").count() == 0  # the last step closes
        page.keyboard.press("Escape")
        assert page.locator(WALK).count() == 0

        page.goto("/")  # Skyjo is another game: its own first table shows its own walkthrough
        sk.choose_skyjo(page)
        sk.quick_game(page, bots=1)
        page.wait_for_selector(WALK)
        assert page.locator("#walk-title").inner_text() == "Your grid"
        assert violations(page) == [], "Skyjo table with the walkthrough"
        page.screenshot(path=artifacts / "walkthrough-skyjo-desktop.png")
        page.keyboard.press("Escape")
        assert page.locator(WALK).count() == 0
    finally:
        context.close()


def test_on_a_phone_the_walkthrough_leaves_the_hand_free(
    browser: Any, server: str, artifacts: Path
) -> None:
    context = browser.new_context(
        walkthrough=True, viewport=PHONE, base_url=server, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        ui.sign_in(page, "Thumbs")
        ui.bot_table(page, bots=3)
        page.wait_for_selector(WALK)
        page.click("#walk-next")
        page.screenshot(path=artifacts / "walkthrough-skip-phone.png")
        walk = page.locator(WALK).bounding_box()
        hand = page.locator(".hand").bounding_box()
        assert walk and hand and walk["y"] + walk["height"] < hand["y"]
        for button in page.locator(f"{WALK} button").all():
            box = button.bounding_box()
            assert box and box["height"] >= 44
    finally:
        context.close()
