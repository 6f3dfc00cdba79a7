"""Two people at one table: the turn of someone who closed their tab is skipped by the other
(only then), and a rematch is a proposal the other accepts or declines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser


def meet(
    ada: Any, bob: Any, name: str, *, stock: int | None = None, deal: dict[str, Any] | None = None
) -> None:
    """Ada opens a private table by name (with a stock of `stock` and a set `deal`), Bob joins
    it, Ada starts."""
    ui.sign_in(ada, "Ada")
    ui.open_house_rules(ada)
    form = ada.locator("#create-form")
    form.locator("select[name=visibility]").select_option("private")
    ada.fill("#create-form input[name=table-name]", name)
    if stock is not None:
        form.locator("select[name=stock]").select_option("custom")
        form.locator("input[name=stock_custom]").fill(str(stock))
        form.locator("select[name=match_target]").select_option("null")
    ada.click("#create-table")
    ada.wait_for_selector("#waiting-title")
    if deal is not None:
        ui.set_deal(ada, ada.evaluate("location.hash").split("/")[-1], deal)
    ui.sign_in(bob, "Bob")
    bob.fill("#join-form input[name=join-name]", name)
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector(".seat-row >> text=Bob (you)")
    ada.wait_for_selector(".seat-row >> text=Bob")
    ada.click("#start")
    bob.wait_for_selector("#board")
    ada.wait_for_selector("#board")


def test_the_turn_of_someone_who_closed_their_tab_can_be_skipped_by_the_other(
    page: Any, second_page: Any, artifacts: Path
) -> None:
    ada, bob = page, second_page
    meet(ada, bob, "ghost-town")
    if ada.get_attribute("#board", "data-my-turn") == "true":  # let it be Bob's turn
        discard = next(a for a in ui.legal(ada) if a["type"] == "discard")
        ui.click_move(ada, discard, check_assist=False)
    ada.wait_for_selector("#turn-status >> text=Bob's turn")
    # Bob is here: nobody may skip his turn (the owner's old button is gone too).
    assert ada.locator("#skip-turn").count() == 0
    bob.close()  # his tab is closed on his turn
    ada.wait_for_selector(".seat-panel .badge.warn >> text=Offline")
    skip = ada.locator("#skip-turn")
    skip.wait_for()  # after the grace period (1 s here)
    assert skip.inner_text() == "End Bob's turn"  # not "Skip": the game's own name
    ada.screenshot(path=artifacts / "skip-offline-desktop.jpg")
    skip.click()
    ada.wait_for_function("() => document.querySelector('#board')?.dataset.myTurn === 'true'")
    assert "You skipped Bob's turn" in ada.locator(".log").inner_text()
    assert ada.locator("#skip-turn").count() == 0


def play_to_the_end(*pages: Any) -> None:
    """Whoever may act plays a sensible move, until the match result shows on every page."""
    for _ in range(600):
        if all(p.locator("#match-result").count() for p in pages):
            return
        for p in pages:
            if p.locator("#match-result").count():
                continue
            board = p.locator("#board")
            if board.get_attribute("data-my-turn") == "true" and ui.legal(p):
                ui.click_move(p, ui.choose(ui.legal(p)), check_assist=False)
        pages[0].wait_for_timeout(50)  # polling two pages in turn
    raise AssertionError("the match did not end")


def test_a_rematch_is_proposed_then_declined_then_accepted(
    page: Any, second_page: Any, artifacts: Path
) -> None:
    ada, bob = page, second_page
    # Ada plays first and her stock is one wild card: each match ends on her first move.
    meet(ada, bob, "rematch-club", stock=1, deal={"first": 0, "stocks": [["W"], ["W"]]})
    play_to_the_end(ada, bob)
    first = ada.get_attribute("#board", "data-seq")
    ada.click("#rematch")  # "Propose a rematch": nobody is thrown into a new match
    ada.wait_for_selector("#rematch-panel >> text=waiting for Bob")
    panel = bob.locator("#rematch-panel")
    panel.wait_for()
    assert "Ada proposes a rematch" in panel.inner_text()
    bob.screenshot(path=artifacts / "rematch-proposed-phone.jpg")
    bob.click("#rematch-decline")
    ada.wait_for_selector("#rematch >> text=Propose a rematch")
    assert "Bob declined the rematch" in ada.locator(".log").inner_text()
    assert ada.locator("#match-result").count() == 1  # still the finished match
    ada.click("#rematch")
    bob.locator("#rematch >> text=Accept the rematch").click()
    for p in (ada, bob):
        p.locator("#match-result").wait_for(state="detached")
    assert ada.get_attribute("#board", "data-seq") != first


def test_table_chat_is_text_with_limits_and_a_player_can_be_muted(
    page: Any, second_page: Any, artifacts: Path
) -> None:
    ada, bob = page, second_page
    meet(ada, bob, "chatters")
    bob.fill("#chat input", "<b>hello</b> & good luck")
    bob.press("#chat input", "Enter")
    line = ada.locator("#chat .chat-line", has_text="good luck")
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == "<b>hello</b> & good luck"  # text
    assert line.locator("b.chat-who").inner_text() == "Bob"
    assert bob.locator("#chat .chat-line.mine .chat-who").inner_text() == "You"
    bob.fill("#chat input", "x" * 300)
    assert len(bob.input_value("#chat input")) == 200  # the field keeps to the limit
    for n in range(6):  # five at once, then one every few seconds
        bob.fill("#chat input", f"line {n}")
        bob.press("#chat input", "Enter")
    bob.wait_for_selector("#chat-note >> text=slow down")
    ada.wait_for_selector("#chat .chat-line >> text=line 3")
    ada.screenshot(path=artifacts / "chat-desktop.jpg")
    ada.locator("#chat .chat-line", has_text="line 0").get_by_role(
        "button", name="Mute Bob"
    ).click()
    ada.wait_for_selector("#chat-note >> text=muted players hidden")
    assert ada.locator("#chat .chat-line", has_text="line").count() == 0
    ada.click("#chat-unmute")
    ada.wait_for_selector("#chat .chat-line >> text=line 0")
