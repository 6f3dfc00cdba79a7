"""The connection watched: the browser going offline, a ping left unanswered, a tab coming back
to the front; "Reconnecting…", the board disabled (a click says why instead of doing nothing),
a move on its way shown as pending, then sent again with its id (played once) or refused with
the reason. A WebSocket route between page and server stands for the network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser


class Network:
    """Between the page's table socket and the server: passes everything, unless told to hold
    the page's actions or its pings (as a network that lost them would)."""

    def __init__(self) -> None:
        self.hold_actions = False
        self.hold_pings = False
        self.held: list[dict[str, Any]] = []
        self.other_tab: list[dict[str, Any]] = []  # actions to play instead, as another tab

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] == "action" and self.hold_actions:
                self.held.append(message)
                if self.other_tab:
                    server.send(json.dumps(self.other_tab.pop()))
                return
            if message["type"] == "ping" and self.hold_pings:
                return
            server.send(text)

        ws.on_message(from_page)
        server.on_message(lambda text: ws.send(text))


def status(page: Any) -> str:
    return page.inner_text("#turn-status")


def a_move(page: Any) -> ui.Action:
    """A move that ends nothing: a play from the stock or the hand if any, else a discard."""
    actions = ui.legal(page)
    plays = [a for a in actions if a["type"] == "play" and a["from"] in ("stock", "hand")]
    return plays[0] if plays else next(a for a in actions if a["type"] == "discard")


def click(page: Any, action: ui.Action) -> None:
    page.locator(ui.source_selector(action)).first.click()
    page.locator(ui.target_selector(action)).click()


def test_offline_reconnecting_a_pending_move_resent_once_or_refused_with_the_reason(
    quick_page: Any, artifacts: Path
) -> None:
    page = quick_page
    network = Network()
    page.route_web_socket("**/ws/tables/*", network.route)
    ui.sign_in(page, "Wanderer")
    ui.bot_table(page, bots=1, options={"stock_size": 20, "match_target": None})
    assert ui.wait_my_turn_or_end(page)

    # 1. A move leaves, the network loses it: it shows as pending, not as played.
    network.hold_actions = True
    before = ui.seq(page)
    move = a_move(page)
    click(page, move)
    page.wait_for_selector("#board[data-pending]")
    page.wait_for_selector('#move-status[data-state="pending"]')
    assert network.held and network.held[0]["action"] == move

    # 2. The browser goes offline: "Reconnecting…", the board disabled and saying so.
    page.context.set_offline(True)
    page.wait_for_function(
        "() => document.querySelector('.table-layout')?.dataset.connection !== 'open'"
    )
    assert "reconnecting" in status(page).lower()
    assert "when the connection is back" in page.inner_text("#move-status")
    page.screenshot(path=artifacts / "offline-pending-desktop.jpg")
    page.locator('[data-src="hand"]').first.click()  # not silently dropped: it says why
    assert "Not connected" in page.inner_text("#move-status")
    assert "waiting" in page.inner_text("#move-status")  # and the move is still pending

    # 3. Back online: the same move is sent again with its id and played once.
    network.hold_actions = False
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('.table-layout')?.dataset.connection === 'open'"
    )
    page.wait_for_selector("#board:not([data-pending])")
    resent = network.held[0]["id"]
    assert ui.seq(page) > before
    assert page.locator("#refusal").is_hidden()
    assert len([line for line in ui_log(page) if "played" in line or "discarded" in line]) >= 1
    assert resent  # the move went out twice with one id; the server applied it once (R7.1)

    # 4. A move lost while the same player moved from another tab: on its way back it is
    #    stale, and refused with the reason, changing nothing.
    assert ui.wait_my_turn_or_end(page)
    actions = ui.legal(page)
    first = a_move(page)
    other = next((a for a in actions if a != first and a["type"] == "discard"), None)
    if other is None:
        pytest.skip("no second move to play from another tab")
    network.hold_actions = True
    network.other_tab.append({"type": "action", "id": "another-tab", "action": other})
    click(page, first)
    page.wait_for_selector("#board[data-pending]")
    page.context.set_offline(True)
    page.wait_for_function(
        "() => document.querySelector('.table-layout')?.dataset.connection !== 'open'"
    )
    network.hold_actions = False
    page.context.set_offline(False)
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert "stale" in refusal.inner_text() and "moved on" in refusal.inner_text()
    page.wait_for_selector("#board:not([data-pending])")
    page.screenshot(path=artifacts / "stale-after-reconnect-desktop.jpg")


def test_an_unanswered_ping_when_the_tab_comes_back_means_reconnecting(quick_page: Any) -> None:
    page = quick_page
    network = Network()
    page.route_web_socket("**/ws/tables/*", network.route)
    ui.sign_in(page, "Sleeper")
    ui.bot_table(page, bots=1)
    assert ui.wait_my_turn_or_end(page)
    network.hold_pings = True
    # The tab comes back to the front: the page checks its connection at once.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function(
        "() => document.querySelector('.table-layout')?.dataset.connection !== 'open'",
        timeout=ui.PATIENCE,
    )
    network.hold_pings = False
    page.wait_for_function(
        "() => document.querySelector('.table-layout')?.dataset.connection === 'open'"
    )
    assert ui.wait_my_turn_or_end(page)
    ui.click_move(page, ui.choose(ui.legal(page)), check_assist=False)


def ui_log(page: Any) -> list[str]:
    return page.locator(".log li").all_inner_texts()
