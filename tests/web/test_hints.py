"""Hints in the browser (R7.6): the Hint button and the H key show the expert's next step on
the cards and piles, with its reason in words; the match result counts the hints used; a
ranked table offers none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui, ui

pytestmark = pytest.mark.browser

# The player moves first (a set deal, `first=0` below): each test needs that turn.
CASUAL = {"stock_size": 6, "match_target": None}


def test_R7_6_the_hint_shows_the_next_step_on_the_table_and_is_counted(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Hinted")
    ui.bot_table(page, bots=1, level="easy", options=CASUAL, first=0)
    assert ui.wait_my_turn_or_end(page)
    page.keyboard.press("h")
    line = page.wait_for_selector("#hint:not(.refused)")
    reason = line.inner_text()
    assert reason.startswith("Hint:") and len(reason) > 20
    page.wait_for_selector('[data-hint="from"]')
    page.wait_for_selector('[data-hint="to"]')
    page.screenshot(path=artifacts / "hint-desktop.jpg")
    hinted = [
        a
        for a in ui.legal(page)
        if page.locator(f'{ui.target_selector(a)}[data-hint="to"]').count()
        and page.locator(f'{ui.source_selector(a)}[data-hint="from"]').count()
    ]
    assert hinted, "the hint marks a legal move's card and pile"
    ui.click_move(page, hinted[0], check_assist=False)
    assert page.locator("[data-hint]").count() == 0  # the game moved on: the hint is gone
    if ui.wait_my_turn_or_end(page):
        page.click("#hint-button")  # the button asks as the key does
        page.wait_for_selector("#hint:not(.refused)")
    while ui.wait_my_turn_or_end(page):
        ui.click_move(page, ui.choose(ui.legal(page)), check_assist=False)
    used = page.wait_for_selector("#hints-used").inner_text()
    assert used.startswith("Hints used:") and ("You 2" in used or "You 1" in used)
    page.screenshot(path=artifacts / "hint-result-desktop.jpg")


def test_R7_6_the_house_rules_turn_hints_off(page: Any) -> None:
    ui.sign_in(page, "Purist")
    ui.create_bot_table(page, stock=6, hints=False)
    assert ui.wait_my_turn_or_end(page)
    assert page.locator("#hint-button").count() == 0
    assert json.loads(page.get_attribute(ui.BOARD, "data-legal") or "[]")  # it is my turn
    page.keyboard.press("h")
    assert page.locator("#hint").count() == 0


def test_R7_6_a_ranked_table_offers_no_hint_and_the_server_says_why(page: Any) -> None:
    ui.sign_in(page, "Unaided")
    ui.bot_table(page, bots=1, level="easy", options={})
    page.wait_for_selector("#ranked-badge.ranked")
    assert page.locator("#hint-button").count() == 0
    page.keyboard.press("h")
    assert page.locator("#hint").count() == 0
    refusal = page.evaluate(
        """() => new Promise((resolve) => {
            const table = location.hash.split('/').pop();
            const ws = new WebSocket(`ws://${location.host}/ws/tables/${table}`);
            ws.onopen = () => ws.send(JSON.stringify({type: 'hello',
                token: localStorage.getItem('cardroom.token')}));
            ws.onmessage = (event) => {
                const msg = JSON.parse(event.data);
                if (msg.type === 'welcome') ws.send(JSON.stringify({type: 'hint'}));
                if (msg.about === 'hint') { ws.close(); resolve(msg); }
            };
        })"""
    )
    assert refusal["code"] == "ranked", json.dumps(refusal)


def test_R7_6_a_skyjo_hint_marks_the_place_and_says_why(quick_page: Any, artifacts: Path) -> None:
    page = quick_page
    ui.sign_in(page, "Gridder")
    skyjo_ui.choose_skyjo(page)
    skyjo_ui.quick_game(page, bots=1, length="quick")
    if page.locator("#ranked-badge.ranked").count():
        pytest.skip("the quick Skyjo game is ranked here: no hints (tested for Skip)")
    assert skyjo_ui.wait_my_turn_or_end(page)
    page.keyboard.press("h")
    line = page.wait_for_selector("#hint:not(.refused)").inner_text()
    assert line.startswith("Hint:")
    page.wait_for_selector("[data-hint]")
    page.screenshot(path=artifacts / "hint-skyjo-desktop.jpg")


def test_R7_6_the_hint_fits_a_phone(phone_page: Any, artifacts: Path) -> None:
    page = phone_page
    ui.sign_in(page, "Pocket")
    ui.bot_table(page, bots=1, level="easy", options=CASUAL, first=0)
    assert ui.wait_my_turn_or_end(page)
    page.locator("#hint-button").tap()
    line = page.wait_for_selector("#hint:not(.refused)").bounding_box()
    assert line and line["x"] >= 0 and line["x"] + line["width"] <= 390 + 1
    page.wait_for_selector('[data-hint="from"]')
    page.screenshot(path=artifacts / "hint-phone.jpg")
