"""Accessibility as axe-core measures it (a plain JS file, vendored under tests/web/vendor/):
no serious or critical violation on the welcome page, the lobby, a Skip table in play, with
a card chosen, and the match result, a Skyjo table, and every other page (the keeper, the
league's pages, the daily deal, the rules), at a desktop's size and a phone's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SERIOUS = ("serious", "critical")


# The page at rest: no move on its way (its pulse dims the piles) and the socket open (a
# reconnecting board is dimmed on purpose).
AT_REST = """() => !document.querySelector('#board[data-pending]')
    && !document.querySelector('.table-layout:not([data-connection="open"])')"""


def violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page at rest, one line each, with what
    axe measured (for contrast: the colours and the ratio). A finding must hold on a second
    look half a second later: one caught mid-change (a pile drawn again, a pulse) is not the
    page's."""
    found = _axe(page)
    if found:
        page.wait_for_timeout(500)
        page.wait_for_function(AT_REST, timeout=ui.PATIENCE)
        found = _axe(page)
    return found


def _axe(page: Any) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')
                            + (n.any[0]?.message ? ` (${n.any[0].message})` : ''))}))"""
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for v in found
        if v["impact"] in SERIOUS
    ]


@pytest.fixture(params=["desktop", "phone"])
def axe_page(request: Any, browser: Any, server: str) -> Iterator[Any]:
    """A page where axe may be injected (the app's Content-Security-Policy allows only its own
    scripts, so this context bypasses it; nothing else changes)."""
    viewport = DESKTOP if request.param == "desktop" else PHONE
    context = browser.new_context(
        viewport=viewport, base_url=server, bypass_csp=True, reduced_motion="reduce"
    )
    page = context.new_page()
    yield page
    context.close()


def test_no_serious_violations_in_the_lobby_at_a_table_and_in_the_result(axe_page: Any) -> None:
    page = axe_page
    page.goto("/")
    page.wait_for_selector("#name-form")
    assert violations(page) == [], "welcome page"
    ui.sign_in(page, "Axel")
    assert violations(page) == [], "lobby"
    ui.create_bot_table(page, stock=2)
    assert ui.wait_my_turn_or_end(page)
    assert violations(page) == [], "table"
    page.keyboard.press("1")  # by key: a click here and one soon after would be a double click
    page.wait_for_selector('[data-src="hand"][aria-pressed="true"]')
    assert violations(page) == [], "table with a card chosen"
    page.keyboard.press("Escape")  # the card chosen is put back
    while ui.wait_my_turn_or_end(page):
        ui.click_move(page, ui.choose(ui.legal(page)))
    page.wait_for_selector("#match-result")
    assert violations(page) == [], "match result"


def test_no_serious_violations_at_a_skyjo_table(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, base_url=server, bypass_csp=True)
    page = context.new_page()
    try:
        ui.sign_in(page, "Axelle")
        sk.choose_skyjo(page)
        sk.quick_game(page, bots=2)
        sk.wait_my_turn_or_end(page)
        assert violations(page) == [], "Skyjo table"
    finally:
        context.close()


def test_no_serious_violations_on_any_other_page(axe_page: Any) -> None:
    """Every page a player reaches besides the lobby and the tables: the keeper (with a game
    and its share box), the leaderboards, the player's profile and account, the daily deal,
    the rules of both games."""
    page = axe_page
    ui.sign_in(page, "Sweep")
    me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")
    page.goto("/keeper/")
    page.wait_for_selector("#new-game")
    assert violations(page) == [], "keeper: kept games"
    page.click("#new-game")
    page.wait_for_selector("#new-form")
    assert violations(page) == [], "keeper: a new game"
    page.locator("input[name=player]").nth(0).fill("Ann")
    page.locator("input[name=player]").nth(1).fill("Bob")
    page.click("#start")
    page.wait_for_selector("#entry")
    assert violations(page) == [], "keeper: a game's sheet"
    page.click("#share")  # the box stays open and shows the code once the game is stored
    page.wait_for_selector("#share-code")
    assert violations(page) == [], "keeper: sharing"
    for path, ready, what in (
        ("/league/", "#caption", "leaderboards"),
        (f"/league/profile.html?id={me}", "#divisions", "profile"),
        ("/league/account.html", "#claim [name=password]", "account"),
        ("/daily/", "article.deal button", "daily deal"),
        ("/rules/skip", "#rules h2", "Skip's rules"),
        ("/rules/skyjo", "#rules h2", "Skyjo's rules"),
    ):
        page.goto(path)
        page.wait_for_selector(ready)
        assert violations(page) == [], what
