"""Table looks (felt and card backs): chosen in the help dialog, kept across a reload, readable
on each (axe finds nothing serious); screenshots of each in test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE
from .test_a11y import violations

pytestmark = pytest.mark.browser

SIZES = {"desktop": DESKTOP, "phone": PHONE}
THEMES = ("felt", "midnight", "walnut")


def choose_theme(page: Any, theme: str) -> None:
    page.click("#help-toggle")
    page.check(f'#theme-choice input[value="{theme}"]')
    page.click("#help form[method=dialog] button")


def test_a_theme_chosen_stays_after_a_reload(page: Any) -> None:
    ui.sign_in(page, "Painter")
    assert page.evaluate("document.body.dataset.theme") is None  # felt green by default
    choose_theme(page, "midnight")
    assert page.evaluate("document.body.dataset.theme") == "midnight"
    page.reload()
    page.wait_for_selector("#quick-play")
    assert page.evaluate("document.body.dataset.theme") == "midnight"
    page.click("#help-toggle")
    assert page.is_checked('#theme-choice input[value="midnight"]')
    assert not page.is_visible("#walk-again")  # the walkthrough points at a table
    page.check('#theme-choice input[value="felt"]')
    page.reload()
    page.wait_for_selector("#quick-play")
    assert page.evaluate("document.body.dataset.theme") is None


@pytest.mark.parametrize("size", SIZES)
def test_each_theme_reads_well_at_a_skip_and_a_skyjo_table(
    browser: Any, server: str, artifacts: Path, size: str
) -> None:
    context = browser.new_context(
        viewport=SIZES[size], base_url=server, bypass_csp=True, reduced_motion="reduce"
    )
    page = context.new_page()
    try:
        ui.sign_in(page, f"Look {size}")
        ui.bot_table(page, bots=2)
        ui.wait_my_turn_or_end(page)
        for theme in THEMES:
            choose_theme(page, theme)
            page.screenshot(path=artifacts / f"theme-{theme}-skip-{size}.jpg")
            assert violations(page) == [], f"{theme} at a Skip table"
        page.click("#help-toggle")
        page.locator("#theme-choice").scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"theme-help-{size}.jpg")
        assert violations(page) == [], "the help dialog"
        page.click("#help form[method=dialog] button")
        page.goto("/")
        sk.choose_skyjo(page)
        sk.quick_game(page, bots=2)
        sk.wait_my_turn_or_end(page)
        for theme in THEMES:
            choose_theme(page, theme)
            page.screenshot(path=artifacts / f"theme-{theme}-skyjo-{size}.jpg")
            assert violations(page) == [], f"{theme} at a Skyjo table"
    finally:
        context.close()
