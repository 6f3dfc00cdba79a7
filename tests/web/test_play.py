"""Playing Skip in the browser against a bot: clicks, drag and drop, refusals, reloads."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from . import ui

pytestmark = pytest.mark.browser


def test_whole_game_against_a_bot_by_clicking(quick_page: Any, artifacts: Path) -> None:
    page = quick_page
    ui.sign_in(page, "Clicker")
    ui.create_bot_table(page, stock=2)
    moves = 0
    while ui.wait_my_turn_or_end(page):
        ui.click_move(page, ui.choose(ui.legal(page)))
        moves += 1
        assert moves < 400, "a game with stocks of 2 ends long before this"
    assert moves > 0
    result = page.locator("#match-result")
    assert re.search(r"won the match", result.inner_text())
    # The move log tells the story, up to the round's end.
    assert page.locator(".log li", has_text="won the round").count() == 1
    page.screenshot(path=artifacts / "result-desktop.jpg")
    # A rematch deals a new match at the same table.
    page.click("#rematch")
    page.wait_for_selector("#match-result", state="detached")
    page.wait_for_function("() => document.querySelector('#board')?.dataset.legal !== undefined")
    assert page.locator(".scores h2").inner_text().startswith("Round 1")


def test_a_table_opened_after_its_match_ended_shows_the_result(page: Any, artifacts: Path) -> None:
    """The page gets no `match_over` event of a match that ended before its socket opened (a
    bot that won its first turn; a reload or a link followed later): the `sync`'s Table says
    the match is over, and the result shows from that, with its way back to the lobby."""
    ui.sign_in(page, "Latecomer")
    deal = {"first": 1, "stocks": [[12], [1]]}  # the bot plays its only stock card, a 1: won
    options = {"stock_size": 1, "match_target": None, "deal": deal}
    table_id = ui.quickplay(page, bots=1, level="medium", options=options)
    page.evaluate(  # the server's own word that the match is over, before the table opens
        """async (id) => {
            const auth = {authorization: `Bearer ${localStorage.getItem('cardroom.token')}`};
            for (;;) {
                const r = await fetch(`/api/tables/${id}`, {headers: auth});
                if ((await r.json()).table.status === 'finished') return;
                await new Promise((wake) => setTimeout(wake, 50));
            }
        }""",
        table_id,
    )
    page.evaluate("(id) => { location.hash = `#/table/${id}`; }", table_id)
    result = page.wait_for_selector("#match-result")
    said = result.inner_text()
    assert "Medium won the match" in said and "Medium 30 pts" in said, said  # 25 + 5 (R6.2)
    page.screenshot(path=artifacts / "result-opened-later-desktop.jpg")
    page.get_by_role("button", name="Back to the lobby").click()
    page.wait_for_selector("#match-result", state="detached")


def test_a_round_summary_shows_the_points_then_the_next_round_is_dealt(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    ui.sign_in(page, "Rounds")
    ui.create_bot_table(page, stock=1, target="200")
    # The summary shows for the round pause only: the page keeps what it said.
    ui.remember(
        page,
        "#round-summary",
        """(s) => {
            const why = document.querySelector('#points-why');
            return {
                text: s.innerText,
                why: why?.innerText ?? null,
                link: why?.querySelector('a.rule-link')?.getAttribute('href') ?? null,
            };
        }""",
    )
    while not ui.wait_round_summary_or_my_turn(page):
        if ui.remembered(page, "#round-summary"):
            break  # shown and gone already
        ui.click_move(page, ui.choose(ui.legal(page)))
    shown = ui.remembered(page, "#round-summary")
    assert shown is not None
    summary = page.locator("#round-summary")
    text = shown["text"]
    page.screenshot(path=artifacts / "round-summary-desktop.jpg")
    assert "won round 1" in text or "stalemate" in text
    assert "+25" in text or "+30" in text or "stalemate" in text  # R6.2: 25 + 5 per card
    if "stalemate" not in text:  # the summary says where the points come from
        why = shown["why"]
        assert re.search(r"\+(25|30) = 25 for winning the round \+ 5 × [01] cards? left", why)
        assert shown["link"] == "/rules/skip#R6.2"
    assert "Next round in" in text
    summary.wait_for(state="detached")
    # Round 2 is dealt; with a stock of 1 the bot may win it at once and round 3 follow.
    page.wait_for_function(
        "() => /^Round ([2-9]|[1-9][0-9])/"
        ".test(document.querySelector('.scores h2')?.innerText ?? '')"
    )


def test_a_move_by_drag_and_drop(page: Any) -> None:
    ui.sign_in(page, "Dragger")
    ui.create_bot_table(page, stock=4)
    assert ui.wait_my_turn_or_end(page)
    actions = ui.legal(page)
    plays = [a for a in actions if a["type"] == "play"]
    action = plays[0] if plays else next(a for a in actions if a["type"] == "discard")
    if action["type"] == "discard":
        pile = page.locator(ui.target_selector(action) + " .fan")
        count = int(pile.get_attribute("data-count") or 0)
        ui.drag_move(page, action)
        assert int(pile.get_attribute("data-count") or 0) == count + 1
    else:
        hand_before = len(ui.hand(page))
        log_before = page.locator(".log li").count()
        ui.drag_move(page, action)
        page.wait_for_function(f"() => document.querySelectorAll('.log li').length > {log_before}")
        assert "played" in page.locator(".log li").last.inner_text()
        if action["from"] == "hand":
            assert len(ui.hand(page)) in (hand_before - 1, 5)  # an emptied hand refills (R4.3)
    assert page.locator("#refusal").is_hidden()


# The animations still running on the page: an endless one (a pulse, a glow) never finishes.
RUNNING = """() => document.getAnimations()
    .filter((a) => a.playState === 'running')
    .map((a) => `${a.animationName || a.constructor.name} on ${a.effect?.target?.className}`)"""


def test_with_reduced_motion_the_marked_piles_do_not_pulse(quick_page: Any) -> None:
    """A card chosen marks the piles that take it (the assist); with reduced motion the mark
    stays still: every animation runs once, at once, and nothing keeps repainting the page."""
    page = quick_page
    ui.sign_in(page, "Still")
    ui.create_bot_table(page, stock=4)
    assert ui.wait_my_turn_or_end(page)
    action = next(a for a in ui.legal(page) if a["type"] in ("play", "discard"))
    page.locator(ui.source_selector(action)).first.click()
    page.wait_for_selector("[data-legal-target]")
    with contextlib.suppress(PlaywrightTimeout):  # the assertion below says what still runs
        page.wait_for_function(f"() => ({RUNNING})().length === 0", timeout=5_000)
    assert page.evaluate(RUNNING) == []
    assert page.locator("[data-legal-target]").count() > 0  # still marked, only not moving


def test_a_refused_move_shows_the_engines_reason(page: Any, artifacts: Path) -> None:
    ui.sign_in(page, "Rulebreaker")
    ui.create_bot_table(page, stock=4, assist=False)
    assert ui.wait_my_turn_or_end(page)
    actions = ui.legal(page)
    refused = None
    for card in ui.hand(page):
        for pile in range(1, 5):
            candidate = {"type": "play", "from": "hand", "card": _card(card), "to": pile}
            if candidate not in actions:
                refused = candidate
                break
        if refused:
            break
    assert refused, "a hand of only ones and wilds: no refusable play"
    before = ui.seq(page)
    page.locator(ui.source_selector(refused)).first.click()
    page.locator(ui.target_selector(refused)).click()
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    rule = refusal.locator("b").inner_text()
    assert re.match(r"R5\.\d", rule)
    assert "pile" in refusal.inner_text()
    assert ui.seq(page) == before  # nothing changed (R7.1)
    # The chosen card stays chosen, so the player can put it somewhere else.
    assert page.locator('[data-src="hand"][aria-pressed="true"]').count() == 1
    # The rule id links to its sentence on the players' rules page (web/rules/, the id at its end).
    link = refusal.locator("a.rule-link")
    assert link.get_attribute("href") == f"/rules/skip#{rule}"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    paragraph = rules.locator(f'[id="{rule}"]')
    assert paragraph.inner_text().endswith(rule) and "pile" in paragraph.inner_text()
    assert rules.evaluate("location.hash") == f"#{rule}"
    assert rules.evaluate(f"document.getElementById('{rule}').matches(':target')")
    rules.screenshot(path=artifacts / "rules-target-desktop.jpg")
    rules.close()


def test_reload_in_the_middle_of_a_game_resumes_it(page: Any) -> None:
    ui.sign_in(page, "Reloader")
    # We move first; a stock of 10 cannot be emptied in the bot's one turn between ours.
    table_id = ui.create_bot_table(page, stock=10)
    assert ui.wait_my_turn_or_end(page)
    ui.click_move(page, ui.choose(ui.legal(page)))
    assert ui.wait_my_turn_or_end(page)
    hand = ui.hand(page)
    log_lines = page.locator(".log li").count()
    page.reload()
    page.wait_for_selector("#board")
    assert page.evaluate("location.hash") == f"#/table/{table_id}"
    assert ui.wait_my_turn_or_end(page)
    assert ui.hand(page) == hand
    assert page.locator(".log li").count() >= log_lines
    # And the game goes on from the same seat.
    ui.click_move(page, ui.choose(ui.legal(page)))


def test_keyboard_shortcuts_choose_and_place_a_card(page: Any) -> None:
    ui.sign_in(page, "Typist")
    ui.create_bot_table(page, stock=4)
    assert ui.wait_my_turn_or_end(page)
    actions = ui.legal(page)
    discard = next(a for a in actions if a["type"] == "discard")
    index = ui.hand(page).index(str(discard["card"]))
    before = ui.seq(page)
    page.keyboard.press(str(index + 1))
    page.wait_for_selector('[data-src="hand"][aria-pressed="true"]')
    assert page.locator("#end-hint").is_visible()  # a discard here ends the turn
    assert page.locator(".mine-area .ends-turn").count() == 4
    page.keyboard.press("zxcv"[discard["pile"] - 1])
    ui.wait_seq_after(page, before)


def test_a_double_click_plays_a_card_on_a_pile_that_takes_it(page: Any) -> None:
    ui.sign_in(page, "Doubler")
    # Our first hand holds a 1 (the draw pile's top five), which starts any building pile.
    ui.create_bot_table(page, stock=4, deal={"stocks": [[9]], "draw": [1, 5, 6, 7, 8]})
    assert ui.wait_my_turn_or_end(page)
    plays = [a for a in ui.legal(page) if a["type"] == "play" and a["from"] == "hand"]
    assert plays, ui.legal(page)
    before = ui.seq(page)
    page.locator(ui.source_selector(plays[0])).first.dblclick()
    ui.wait_seq_after(page, before)
    assert "played" in page.locator(".log li").last.inner_text()


def _card(text: str) -> int | str:
    return text if text == "W" else int(text)
