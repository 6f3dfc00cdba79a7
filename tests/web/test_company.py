"""A room with company: the title calls you back to a background tab when it is your turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser

SET_VISIBILITY = """(state) => {
    for (const [name, value] of [['visibilityState', state], ['hidden', state === 'hidden']])
        Object.defineProperty(document, name, {configurable: true, get: () => value});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_the_title_flashes_your_turn_in_a_hidden_tab_until_it_is_seen(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Ada")
    quiet = page.title()
    page.evaluate(SET_VISIBILITY, "hidden")
    ui.bot_table(page, bots=1)
    ui.wait_my_turn_or_end(page)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert page.evaluate("document.documentElement.dataset.attention") == "Your turn"
    page.wait_for_function(f"() => document.title === {quiet!r}")  # it flashes: back and forth
    page.wait_for_function("() => document.title === '● Your turn — Cardroom'")
    page.evaluate(SET_VISIBILITY, "visible")
    assert page.title() == quiet
    assert page.evaluate("document.documentElement.dataset.attention") is None


def test_the_title_stays_quiet_when_your_turn_comes_in_a_visible_tab(quick_page: Any) -> None:
    page = quick_page
    ui.sign_in(page, "Ada")
    quiet = page.title()
    ui.bot_table(page, bots=1)
    ui.wait_my_turn_or_end(page)
    assert page.title() == quiet
    assert page.evaluate("document.documentElement.dataset.attention") is None
