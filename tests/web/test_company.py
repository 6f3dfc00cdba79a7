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
    ada.screenshot(path=artifacts / "present-desktop.jpg")


def test_quick_play_says_whether_it_is_ranked_and_a_ranked_table_reads_ratings_once(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Ada")
    note = page.locator("#qp-ranked")
    page.wait_for_function("() => document.querySelector('#qp-ranked').dataset.ranked")
    page.select_option("#qp-length", "official")
    page.locator("#qp-assist").set_checked(True)
    page.wait_for_selector("#qp-ranked[data-ranked=false] >> text=Casual against bots")
    page.locator("#qp-assist").set_checked(False)
    page.wait_for_selector("#qp-ranked[data-ranked=true] >> text=Ranked against bots")
    assert "Games with people are ranked." in note.inner_text()
    page.screenshot(path=str(artifacts / "quickplay-ranked.jpg"))
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "/api/ratings" in r.url else None)
    page.click("#quick-play")
    page.wait_for_selector("#board")
    assert page.text_content("#ranked-badge") == "Ranked"
    page.wait_for_selector("#present [data-seat='1'] .present-rating")
    assert page.locator("#present .present-rating").count() == 2  # Ada's and the bot's
    me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")
    for _ in range(3):  # moves and table news redraw the table: no new read
        if not ui.wait_my_turn_or_end(page):
            break
        before = ui.seq(page)
        ui.click_move(page, ui.choose(ui.legal(page)), check_assist=False)
        ui.wait_seq_after(page, before)
    page.screenshot(path=str(artifacts / "table-ranked.jpg"))
    assert len(reads) == 1, reads
    assert "mode=2p" in reads[0] and f"subject={me}" in reads[0]
    assert "subject=bot%3A" in reads[0]  # the bot level, rated like a player


def test_a_casual_table_says_so_and_reads_no_ratings(quick_page: Any) -> None:
    page = quick_page
    ui.sign_in(page, "Ada")
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "/api/ratings" in r.url else None)
    ui.bot_table(page, bots=1, options={"assist": True})
    assert page.text_content("#ranked-badge") == "Casual"
    assert page.locator("#present .present-rating").count() == 0
    assert reads == []
