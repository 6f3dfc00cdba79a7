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
    for _ in range(8):
        if play_discarding_the_last_card(page) >= 2:
            break
        # The bot (it plays its stock card whenever it fits) emptied its stock of 4 before the
        # learner had ended two turns: too little to review; another table.
        page.goto("/")
        page.wait_for_selector("#quick-play")
    else:
        raise AssertionError("the bot won before the learner's second turn at eight tables")
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
    """A one-round match against Easy, ending every turn on the last discard listed (rarely
    the best); how many turns the learner ended so."""
    quick = {"stock_size": 4, "match_target": None}
    ui.bot_table(page, bots=1, level="easy", options=quick, first=0)
    discarded = 0
    while ui.wait_my_turn_or_end(page):
        moves = ui.legal(page)
        discards = [a for a in moves if a["type"] == "discard"]
        ui.click_move(page, discards[-1] if discards else moves[0], check_assist=False)
        discarded += bool(discards)
    return discarded
