"""The post-game review page: reached from the match result, the costliest turns listed first
with the expert's line and reason, then the round move by move in the player's own views."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser


def test_the_review_page_lists_the_costliest_turns_and_replays_the_round(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Learner")
    assert play_discarding_the_last_card(page) == 2
    link = page.wait_for_selector("#review-link").get_attribute("href")
    assert link and link.startswith("/league/review.html?")
    page.goto(link)
    page.wait_for_selector("#costliest")
    heading = page.inner_text("h2")
    assert heading == "Game review: Learner"
    turns = page.locator(".costly-turn")
    assert turns.count() > 0, "throwing away the best card every turn costs something"
    assert "the expert:" in turns.first.inner_text() and "Why:" in turns.first.inner_text()
    first = page.inner_text("#replay-step")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-step") != first
    turns.first.locator("button[data-step]").click()
    page.wait_for_selector("#replay-note:not([hidden])")
    page.wait_for_selector(".r-hand .card")  # the reviewed player's own hand, as it was
    assert "The expert:" in page.inner_text("#replay-note")
    # Only the reviewed seat's hand is ever shown: the opponent's is a count.
    assert page.locator(".r-seat:not(.mine) .r-hand").count() == 0
    assert "in hand" in page.inner_text(".r-others")
    page.screenshot(path=artifacts / "review-desktop.jpg", full_page=True)


def play_discarding_the_last_card(page: Any) -> int:
    """A one-round match against Medium on a set deal, ending every turn on the last discard
    listed; how many turns the learner ended so.

    The learner's stock is a 1, so every discard instead of it costs the game. Medium (the
    greedy bot, no slips) is dealt 1 2 3 4 12 over a stock of 12: it builds to 4 and must
    discard its 12, so it cannot win before the learner's second turn; then it draws 5 6 7 8 9
    and 10 11 and plays its 12 (the learner, first, draws the 11th card of the pile, a 5)."""
    deal = {
        "first": 0,
        "stocks": [[1], [12]],
        "draw": [9, 9, 10, 10, 11, 1, 2, 3, 4, 12, 5, 5, 6, 7, 8, 9, 10, 11, 6, 6, 6],
    }
    ui.bot_table(
        page, bots=1, level="medium", options={"stock_size": 1, "match_target": None, "deal": deal}
    )
    discarded = 0
    while ui.wait_my_turn_or_end(page):
        moves = ui.legal(page)
        discards = [a for a in moves if a["type"] == "discard"]
        ui.click_move(page, discards[-1] if discards else moves[0], check_assist=False)
        discarded += bool(discards)
    return discarded
