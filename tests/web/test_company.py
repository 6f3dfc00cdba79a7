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


def public_bot_table(page: Any) -> str:
    """A started public table of Ada's against one bot (a private one cannot be watched)."""
    table_id = page.evaluate(
        """async () => {
            const call = async (path, body) => {
                const r = await fetch(path, {method: 'POST', headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
                    body: JSON.stringify(body)});
                if (!r.ok) throw new Error(await r.text());
                return r.json();
            };
            const {table} = await call('/api/tables', {seats: 2, public: true});
            await call(`/api/tables/${table.id}/bots`, {level: 'easy'});
            await call(`/api/tables/${table.id}/start`, {});
            return table.id;
        }"""
    )
    page.evaluate("(id) => { location.hash = `#/table/${id}`; }", table_id)
    page.wait_for_selector(ui.BOARD)
    return table_id


def test_who_is_at_the_table_lists_the_players_bots_and_watchers_by_name(
    page: Any, second_page: Any, artifacts: Path
) -> None:
    ada, cy = page, second_page
    ui.sign_in(ada, "Ada")
    table_id = public_bot_table(ada)
    present = ada.locator("#present")
    assert present.locator("[data-state=online]").inner_text().startswith("Ada (you)")
    assert present.locator("[data-state=bot]").count() == 1
    assert ada.locator("#present-watchers").count() == 0
    ui.sign_in(cy, "Cy")
    cy.evaluate("(id) => { location.hash = `#/table/${id}`; }", table_id)
    cy.wait_for_selector("#present-watchers >> text=Watching: Cy (you)")
    assert cy.locator("#present [data-state=online]").inner_text().startswith("Ada")
    # A watcher's arrival is not news for everyone: Ada's list shows Cy with the next table
    # message, here the one her own reconnection brings.
    ada.reload()
    ada.wait_for_selector("#present-watchers >> text=Watching: Cy")
    ada.screenshot(path=artifacts / "present-desktop.png")
