"""Reach: on a phone every control is a tap target of at least 44 x 44 px, on the table and in
the lobby; the match result takes the focus; the assist's ring shows on a playable stock card
and cannot be taken for the green of the 5-8 cards."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser

SMALL_TARGETS = """() => {
    const controls = 'button, a[href], select, input:not([type=checkbox]):not([type=hidden]),'
        + ' summary, label.check';
    return [...document.querySelectorAll(controls)].filter((el) => {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) return false;
        if (el.closest('.sr-only, dialog:not([open]), [hidden]')) return false;
        if (r.bottom < 0 || r.right < 0 || r.left > innerWidth) return false;  // off screen
        return r.width < 44 || r.height < 44;
    }).map((el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}`
        + `.${[...el.classList].join('.')} "${(el.innerText || el.getAttribute('aria-label') || '')
            .trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().width)}x`
        + `${Math.round(el.getBoundingClientRect().height)}`);
}"""


def test_phone_tap_targets_are_at_least_44_px(phone_page: Any, artifacts: Path) -> None:
    page = phone_page
    page.goto("/")
    page.wait_for_selector("#name-form")
    assert page.evaluate(SMALL_TARGETS) == []
    ui.sign_in(page, "Thumbs")
    ui.open_house_rules(page)  # the house rules open too
    assert page.evaluate(SMALL_TARGETS) == []
    page.screenshot(path=artifacts / "reach-lobby-phone.jpg", full_page=True)
    ui.bot_table(page, bots=3, options={"assist": True})
    assert ui.wait_my_turn_or_end(page)
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator('[data-src="hand"]').first.tap()
    page.wait_for_selector('[data-src="hand"][aria-pressed="true"]')
    assert page.evaluate(SMALL_TARGETS) == []
    page.screenshot(path=artifacts / "reach-table-phone.jpg")


def test_the_match_result_takes_the_focus(quick_page: Any) -> None:
    page = quick_page
    ui.sign_in(page, "Focus")
    ui.create_bot_table(page, stock=1)
    while ui.wait_my_turn_or_end(page):
        ui.click_move(page, ui.choose(ui.legal(page)))
    page.wait_for_function(
        "() => document.activeElement?.closest('#match-result') !== null"
        " && document.activeElement !== document.body"
    )
    assert page.evaluate("document.activeElement.id") in ("match-result", "rematch")
    page.keyboard.press("Tab")  # the keyboard goes on inside the result
    assert page.evaluate("!!document.activeElement.closest('#match-result')")


def test_the_assist_ring_shows_on_a_playable_stock_card_and_is_not_green(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Ringer")
    # A set deal: this seat first, a green 5 on its stock and 1 2 3 4 in its hand, so the stock
    # fits after four plays of its first turn, before the bot has moved at all.
    ui.create_bot_table(page, stock=20, deal={"stocks": [[5]], "draw": [1, 2, 3, 4, 9]})
    for _ in range(4):  # 1, 2, 3 and 4 from the hand, building a pile up to the stock's 5
        assert ui.wait_my_turn_or_end(page)
        ui.click_move(page, ui.choose(ui.legal(page)))
    assert ui.wait_my_turn_or_end(page)
    assert any(a["type"] == "play" and a["from"] == "stock" for a in ui.legal(page))
    card = page.locator('.mine-area [data-src="stock"] > .card:not(.stock-under)')
    page.wait_for_selector('.mine-area [data-src="stock"][data-state~="can-move"]')
    with contextlib.suppress(Exception):  # the shadow eases into the ring: read it once there
        page.wait_for_function(
            """() => getComputedStyle(document.querySelector(
                '.mine-area [data-src="stock"] > .card:not(.stock-under)')).boxShadow
                .includes('rgb(255, 255, 255)')""",
            timeout=5_000,
        )
    ring = card.evaluate("el => getComputedStyle(el).boxShadow")
    assert "rgb(255, 255, 255)" in ring, ring  # a white ring, with a dark edge
    assert "123, 224, 168" not in ring and "23, 138, 74" not in ring  # no green: 5-8 are green
    page.screenshot(path=artifacts / "assist-stock-ring-desktop.jpg")
