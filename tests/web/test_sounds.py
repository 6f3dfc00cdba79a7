"""Sounds players expect, opt-in: a shuffle when a round is dealt, a card's thud, a win
fanfare (synthesized: WebAudio sources are started), and a win celebration that respects
reduced motion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser

# Counts the WebAudio sources started, the sounds named, and whether a celebration was shown.
WATCH = """
    window.__heard = []; window.__sources = 0; window.__celebrated = false;
    for (const node of [OscillatorNode, AudioBufferSourceNode]) {  // tones and noise
        const start = node.prototype.start;
        node.prototype.start = function (...args) {
            window.__sources += 1;
            return start.apply(this, args);
        };
    }
    window.addEventListener('cardroom:sound', (e) => window.__heard.push(e.detail));
    new MutationObserver(() => {
        if (document.querySelector('.celebration')) window.__celebrated = true;
    }).observe(document, {childList: true, subtree: true});
"""


def win_a_solo_round(page: Any) -> None:
    """A one-seat table with a one-card stock, started from its waiting room, played to the
    end (the only seat wins)."""
    table_id = page.evaluate(
        """async () => {
            const r = await fetch('/api/tables', {method: 'POST', headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
                body: JSON.stringify({seats: 1, public: false,
                    options: {stock_size: 1, match_target: null, assist: true}})});
            if (!r.ok) throw new Error(await r.text());
            return (await r.json()).table.id;
        }"""
    )
    page.evaluate("(id) => { location.hash = `#/table/${id}`; }", table_id)
    page.click("#start")
    page.wait_for_selector(ui.BOARD)
    while ui.wait_my_turn_or_end(page):
        before = ui.seq(page)
        ui.click_move(page, ui.choose(ui.legal(page)), check_assist=False)
        ui.wait_seq_after(page, before)
    page.wait_for_selector("#match-result")


def test_sounds_on_a_round_is_shuffled_cards_thud_and_a_win_has_a_fanfare_and_confetti(
    page: Any, artifacts: Path
) -> None:
    page.add_init_script(WATCH)
    ui.sign_in(page, "Ada")
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    win_a_solo_round(page)
    page.wait_for_function("() => window.__heard.includes('win')")
    heard = page.evaluate("window.__heard")
    assert heard[0] == "shuffle", heard
    assert "play" in heard, heard
    assert page.evaluate("window.__sources") > 20  # synthesized: oscillators and noise
    page.wait_for_function("() => window.__celebrated")
    page.wait_for_function(  # falling: some confetti is well inside the window
        "() => [...document.querySelectorAll('.confetti')]"
        ".some((c) => c.getBoundingClientRect().top > innerHeight / 3)"
    )
    page.screenshot(path=str(artifacts / "win-celebration.jpg"))
    page.wait_for_selector(".celebration", state="detached", timeout=ui.PATIENCE)


def test_sounds_off_are_silent_and_reduced_motion_has_no_confetti(quick_page: Any) -> None:
    page = quick_page
    page.add_init_script(WATCH)
    ui.sign_in(page, "Ada")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    win_a_solo_round(page)
    assert page.evaluate("window.__heard") == []
    assert page.evaluate("window.__sources") == 0
    assert page.evaluate("window.__celebrated") is False


# Holds the socket's hello back for a moment, so the deal reaches the page as the reply to it.
SLOW_HELLO = """
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
        if (typeof data === 'string' && data.includes('"hello"')) {
            setTimeout(() => send.call(this, data), 800);
            return;
        }
        return send.call(this, data);
    };
"""


def test_a_start_clicked_while_the_socket_says_hello_still_shuffles(quick_page: Any) -> None:
    page = quick_page
    page.add_init_script(WATCH)
    page.add_init_script(SLOW_HELLO)
    ui.sign_in(page, "Ada")
    page.click("#sound-toggle")
    win_a_solo_round(page)
    page.wait_for_function("() => window.__heard.includes('win')")
    heard = page.evaluate("window.__heard")
    assert heard[0] == "shuffle", heard
    assert heard.count("shuffle") == 1, heard
