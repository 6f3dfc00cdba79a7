"""The web client on the server's newer calls: quick play against bots in one request, renaming
without becoming someone else, resuming a reloaded table without `resync` while moves carry
`after`, and the league's achievements shown at the end of a match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser


def test_play_against_bots_is_one_request(page: Any) -> None:
    ui.sign_in(page, "One Call")
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url.split("/api/")[-1]))
    page.select_option("#qp-bots", "2")
    page.click("#quick-play")
    page.wait_for_selector("#board")
    assert posts == ["quickplay"]
    # Three players at the table: me and two bots, the match under way.
    table_id = page.evaluate("location.hash").split("/")[-1]
    # A private table: only its people read it (with their token), strangers get a 404.
    stranger = page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.status)")
    assert stranger == 404
    table = page.evaluate(
        f"""fetch('/api/tables/{table_id}', {{headers: {{Authorization:
            'Bearer ' + localStorage.getItem('cardroom.token')}}}}).then(r => r.json())"""
    )["table"]
    assert table["status"] == "playing" and not table["public"]
    assert [bool(s["bot"]) for s in table["seats"]] == [False, True, True]


def test_change_name_keeps_the_same_player(page: Any) -> None:
    ui.sign_in(page, "Namer")
    before = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player'))")
    page.fill("#rename-form input[name=name]", "Renamed")
    page.click("#rename-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#who').textContent === 'Renamed'")
    after = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player'))")
    assert after["id"] == before["id"] and after["name"] == "Renamed"
    me = page.evaluate(
        """fetch('/api/me', {headers: {Authorization:
            'Bearer ' + localStorage.getItem('cardroom.token')}}).then(r => r.json())"""
    )
    assert me["player"] == {"id": before["id"], "name": "Renamed"}


def test_a_reloaded_table_resumes_without_resync_and_moves_carry_after(page: Any) -> None:
    ui.sign_in(page, "Resumer")
    ui.create_bot_table(page, stock=4)
    assert ui.wait_my_turn_or_end(page)
    hand = ui.hand(page)
    sent: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", watch)
    page.reload()
    page.wait_for_selector("#board")
    assert ui.wait_my_turn_or_end(page)
    assert ui.hand(page) == hand
    assert sent and sent[0]["type"] == "hello" and "since" in sent[0]
    assert not [m for m in sent if m["type"] == "resync"]
    position = ui.seq(page)
    ui.click_move(page, ui.choose(ui.legal(page)))
    actions = [m for m in sent if m["type"] == "action"]
    assert actions and actions[0]["after"] <= position
    assert page.locator("#refusal").is_hidden()


def test_a_finished_match_shows_the_achievement_earned(quick_page: Any, artifacts: Path) -> None:
    page = quick_page
    ui.sign_in(page, "Achiever")
    ui.create_bot_table(page, stock=1)
    moves = 0
    while ui.wait_my_turn_or_end(page):
        ui.click_move(page, ui.choose(ui.legal(page)))
        moves += 1
        assert moves < 200
    news = page.locator("#match-awards-box")
    news.wait_for()
    if news.get_attribute("open") is None:  # more than two items are folded into one line
        assert "achievement" in news.locator("summary").inner_text()
        news.locator("summary").click()
    awards = page.locator("#match-awards")
    awards.wait_for()
    page.screenshot(path=artifacts / "awards-result-desktop.jpg")
    # A first finished match earns "Pull up a chair" (first_match) at any table.
    assert "Pull up a chair" in awards.inner_text()
    assert "You earned" in awards.inner_text()
    # The result lists the news; no banner covers it. Screen readers hear it once.
    assert page.locator("#awards-summary").count() == 0
    page.wait_for_function(
        "() => document.querySelector('#announcer').textContent.includes('Pull up a chair')"
    )
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    # Put away, the result leaves one summary in the toolbar, beside the board, not over it.
    page.click("#result-close")
    page.locator("#match-result").wait_for(state="detached")
    summary = page.locator("#awards-summary")
    assert "achievement" in summary.inner_text()
    box, board = summary.bounding_box(), page.locator("#board").bounding_box()
    assert box and board and box["y"] + box["height"] <= board["y"]
    summary.locator(".awards-chip").click()
    assert "Pull up a chair" in page.locator("#awards-list").inner_text()
    page.screenshot(path=artifacts / "awards-summary-desktop.jpg")
    page.click(".awards-dismiss")
    summary.wait_for(state="detached")
    # The result comes back from the toolbar.
    page.click(".table-toolbar >> text=Result")
    page.locator("#match-result").wait_for()
