"""The daily deal in a browser: a name, today's Skyjo round played by clicks to its end, the
result to share and its image card, the day's board; a Skip move refused with its rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PHONE

pytestmark = pytest.mark.browser


def moves(page: Any) -> int:
    return int(page.get_attribute("#play", "data-moves") or 0)


def click_and_wait(page: Any, selector: str) -> None:
    """Click, then wait until the server has stored the move (the count goes up) or the round
    is over."""
    before = moves(page)
    page.click(selector)
    page.wait_for_function(
        f"() => Number(document.querySelector('#play').dataset.moves) > {before}"
        " || document.querySelector('#play').dataset.over === 'true'"
    )


def sign_in_claimed(page: Any, server: str, name: str) -> None:
    page.goto(f"{server}/daily/")
    page.fill("#name-form input[name=name]", name)
    page.click("#name-form button")
    page.wait_for_selector("article.deal[data-game=skyjo] button")
    page.evaluate(
        """async () => {
          const answer = await fetch('/api/account/claim', {method: 'POST',
            headers: {'Content-Type': 'application/json',
                      Authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
            body: JSON.stringify({password: 'correct horse battery'})});
          const data = await answer.json();
          localStorage.setItem('cardroom.token', data.token);
        }"""
    )
    page.reload()


def test_a_skyjo_daily_round_played_by_clicks_to_its_result(
    page: Any, server: str, artifacts: Path
) -> None:
    sign_in_claimed(page, server, "Dailydee")
    page.click("article.deal[data-game=skyjo] button")
    page.wait_for_selector("#play:not([hidden])")
    assert "Turn up two cards" in page.inner_text("#status")
    mine = "#board .grid:not(.small) button.sk-card.live"
    for _ in range(200):
        if page.get_attribute("#play", "data-over") == "true":
            break
        if page.is_enabled("button[data-label^='draw pile']"):
            click_and_wait(page, "button[data-label^='draw pile']")
            assert "You hold a" in page.inner_text("#status")
        click_and_wait(page, mine)
    page.wait_for_selector("#done:not([hidden])")
    share = page.inner_text("#share").splitlines()
    assert share[0].startswith("Cardroom daily #") and share[1].startswith("Skyjo round: ")
    page.wait_for_function("() => document.querySelector('#card').naturalWidth > 0")
    assert page.evaluate("() => document.querySelector('#card').complete")  # loaded, not broken
    page.select_option("#board-game", "skyjo")
    page.wait_for_selector("#rows tr:has-text('Dailydee')")
    page.screenshot(path=str(artifacts / "daily-skyjo-done.jpg"), full_page=True)
    # The deal is played once: back on the list, the deal offers practice only.
    page.click("#leave")
    page.wait_for_selector("article.deal[data-game=skyjo] >> text=Practice again")
    assert "Your result:" in page.inner_text("article.deal[data-game=skyjo]")


def test_a_refused_skip_move_names_its_rule_and_changes_nothing(
    browser: Any, server: str, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{server}/daily/")
        page.fill("#name-form input[name=name]", "Phoneskip")
        page.click("#name-form button")
        page.click("article.deal[data-game=skip] button")
        page.wait_for_selector("#play:not([hidden])")
        page.screenshot(path=str(artifacts / "daily-skip-phone.jpg"), full_page=True)
        hand = page.locator("button[data-label^='hand card']")
        labels = [hand.nth(i).get_attribute("data-label") for i in range(hand.count())]
        # A card that is neither a 1 nor a wild cannot start a building pile (R5.1).
        index = next(i for i, label in enumerate(labels) if not label.endswith((": 1", ": wild")))
        hand.nth(index).click()
        page.click("button[data-label^='building pile 1']")
        page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
        assert page.inner_text("#error").startswith("R5.")
        assert moves(page) == 0
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
        assert not overflow
    finally:
        context.close()


def test_no_serious_accessibility_violations_on_the_daily_page(browser: Any, server: str) -> None:
    from tests.web.test_a11y import violations

    context = browser.new_context(viewport=PHONE, base_url=server, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto("/daily/")
        page.wait_for_selector("#name-form")
        assert violations(page) == [], "daily page, signed out"
        page.fill("#name-form input[name=name]", "Axeldaily")
        page.click("#name-form button")
        page.wait_for_selector("article.deal[data-game=skip] button")
        assert violations(page) == [], "the day's deals"
        page.click("article.deal[data-game=skip] button")
        page.wait_for_selector("#play:not([hidden])")
        page.click("button[data-label^='hand card 1']")
        assert violations(page) == [], "Skip solo, a card chosen"
        page.click("#leave")
        page.click("article.deal[data-game=skyjo] button")
        page.wait_for_selector("#play:not([hidden])")
        assert violations(page) == [], "Skyjo round"
    finally:
        context.close()
