"""Whole matches with the keyboard alone, and team play in the browser.

A Skip match and a Skyjo match go from the welcome page to the result's buttons by Tab, the
arrows, Enter, Space and the help dialog's shortcut keys (no click, no pointer, no ``focus()``
call by the test); after every move, and when a round summary or the result comes and goes,
the focus is on something on screen that shows its ring, never dropped to ``<body>``. A
four-seat team match (two people as partners, two bots) plays from the partner's stock and
discard piles (R4.2, R4.4), one partner by keyboard on a desktop, the other by taps on a phone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE, serve
from .test_a11y import violations

pytestmark = pytest.mark.browser

Action = dict[str, Any]


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose round summaries wait for "Continue" (bots are never waited for), so a
    keyboard player has the time to read them."""
    yield from serve(tmp_path_factory.mktemp("keyboard-server"), CARDROOM_ROUND_PAUSE="60")


def new_context(browser: Any, server: str, viewport: dict[str, int], **options: Any) -> Any:
    """A context with reduced motion where axe may be injected (``bypass_csp``, as in
    test_a11y.py; nothing else changes)."""
    return browser.new_context(
        viewport=viewport, base_url=server, bypass_csp=True, reduced_motion="reduce", **options
    )


def watched(context: Any) -> tuple[Any, list[str]]:
    """A page of ``context`` and the JavaScript errors it will throw."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@pytest.fixture
def keyboard_page(browser: Any, patient_server: str) -> Iterator[Any]:
    """A desktop page (the natural size for a keyboard) that fails the test on any JavaScript
    error."""
    context = new_context(browser, patient_server, DESKTOP)
    page, errors = watched(context)
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


# -- the keyboard -----------------------------------------------------------------------------

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return 'body';
    return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
        + (e.dataset.key ? `[data-key=${e.dataset.key}]` : '') + ' ' + (e.innerText || '').trim();
}"""

FOCUS_SHOWN = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return 'the focus is dropped to <body>';
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'the focused element has no size';
    if (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth)
        return 'the focused element is off screen';
    if (!e.matches(':focus-visible')) return 'the focused element shows no focus ring';
    return '';
}"""


def focused(page: Any) -> str:
    return page.evaluate(FOCUSED)


def focus_is_shown(page: Any) -> None:
    """The focus is on an element on screen, and its ring shows."""
    problem = page.evaluate(FOCUS_SHOWN)
    assert not problem, f"{problem}: {focused(page)[:60]!r}"


def tab_to(page: Any, selector: str, *, limit: int = 60, back: bool = False) -> int:
    """Press Tab (Shift+Tab) until the focus is on ``selector``; returns the presses."""
    key = "Shift+Tab" if back else "Tab"
    for presses in range(limit):
        if page.evaluate("(s) => !!document.activeElement?.matches(s)", selector):
            return presses
        page.keyboard.press(key)
    raise AssertionError(f"{limit} presses of {key} never reached {selector}")


def choose_option(page: Any, value: str, *, limit: int = 12) -> None:
    """On a focused <select>, the arrow keys until ``value`` is chosen."""
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(limit):
            if page.evaluate("document.activeElement.value") == value:
                return
            page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never chose {value}")


def sign_in_by_keyboard(page: Any, name: str) -> None:
    """The welcome page puts the focus in the name field: type, Enter."""
    page.goto("/")
    page.wait_for_selector("#name-form")
    assert focused(page).startswith("input"), "the name field has the focus"
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.wait_for_selector("#quick-play")


def continue_by_keyboard(page: Any) -> None:
    """A round summary takes the focus when it shows; its Continue is a Tab or two away, and
    the focus comes back to the table when the next round is dealt."""
    page.wait_for_function("() => document.activeElement?.id === 'round-summary'")
    assert tab_to(page, "#continue", limit=4) <= 3
    focus_is_shown(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#round-summary", state="detached", timeout=ui.PATIENCE)
    focus_is_shown(page)


# -- Skip by keyboard ---------------------------------------------------------------------------

BUILD_KEYS = "qwer"
DISCARD_KEYS = "zxcv"


def skip_choice(actions: list[Action]) -> Action:
    """A plain player's move: the stock, a discard pile, a hand card (a wild last) on the
    lowest pile, then a discard; a pass when that is all."""
    plays = [a for a in actions if a["type"] == "play"]
    for source in ("stock", "discard"):
        found = [a for a in plays if a["from"] == source]
        if found:
            return min(found, key=lambda a: a["to"])
    hand = [a for a in plays if a["from"] == "hand"]
    if hand:
        return min(hand, key=lambda a: (a["card"] == "W", a["to"]))
    discards = [a for a in actions if a["type"] == "discard"]
    return discards[0] if discards else actions[0]


def card_key(page: Any, action: Action) -> str:
    """The shortcut that chooses an action's card: 1-5 in the hand, S, P, Z X C V."""
    if action["type"] == "discard" or action["from"] == "hand":
        return str(ui.hand(page).index(str(action["card"])) + 1)
    if action["from"] in ("stock", "partner_stock"):
        return {"stock": "s", "partner_stock": "p"}[action["from"]]
    return DISCARD_KEYS[action["pile"] - 1]


def place_key(action: Action) -> str:
    """The shortcut of the place it goes: Q W E R a building pile, Z X C V a discard pile."""
    if action["type"] == "play":
        return BUILD_KEYS[action["to"] - 1]
    return DISCARD_KEYS[action["pile"] - 1]


def skip_move_by_keys(page: Any, action: Action) -> None:
    """One move with two keys (the card, the place), or Tab to "Pass" and Enter."""
    before = ui.seq(page)
    if action["type"] == "pass":
        tab_to(page, '[data-action="pass"]')
        page.keyboard.press("Enter")
    else:
        page.keyboard.press(card_key(page, action))
        page.wait_for_selector("#board[data-selected^='{']")
        page.keyboard.press(place_key(action))
    ui.wait_seq_after(page, before)


# Every round: this seat starts with 1 2 3 4 9 in hand over a stock of 5 10 11, discards the 9
# and empties its stock in its second turn (the 9 back from its discard pile); the bot holds
# 11s and 12s over 12s and never plays. A round won is worth 25 + 5 x 3 (R6.2): the match to
# 200 takes five rounds, four summaries.
SKIP_DEAL = {
    "first": 0,
    "stocks": [[5, 10, 11], [12, 12, 12]],
    "draw": [1, 2, 3, 4, 9] + [11] * 5 + [6, 7, 8, 12, 12],
}


def test_a_whole_skip_match_by_keyboard_alone(keyboard_page: Any, artifacts: Path) -> None:
    page = keyboard_page
    sign_in_by_keyboard(page, "Kay")
    # The lobby's create form, field by field: private, a stock of 3, a match to 200, assist.
    tab_to(page, "#create-form select[name=visibility]")
    choose_option(page, "private")
    tab_to(page, "#create-form .house-rules summary")
    page.keyboard.press("Enter")
    tab_to(page, "#create-form select[name=stock]")
    choose_option(page, "custom")
    tab_to(page, "#create-form input[name=stock_custom]")
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    tab_to(page, "#create-form select[name=match_target]")
    choose_option(page, "200")
    tab_to(page, "#create-form input[name=assist]")
    if not page.evaluate("document.activeElement.checked"):
        page.keyboard.press("Space")
    tab_to(page, "#create-table")
    page.keyboard.press("Enter")
    tab_to(page, "[data-add-bot]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat-row.taken >> nth=1")
    table_id = page.evaluate("location.hash").split("/")[-1]
    ui.set_deal(page, table_id, SKIP_DEAL)  # the test's arrangement (a PATCH), not a gesture
    tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_selector(ui.BOARD)

    moves = summaries = 0
    while True:
        ui.wait_my_turn_or(page, "#match-result, #round-summary")
        if page.locator("#match-result").count():
            break
        if page.locator("#round-summary").count():
            if summaries == 0:
                page.screenshot(path=artifacts / "keyboard-skip-summary-desktop.jpg")
            continue_by_keyboard(page)
            summaries += 1
            continue
        skip_move_by_keys(page, skip_choice(ui.legal(page)))
        moves += 1
        if not page.locator("#match-result, #round-summary").count():
            focus_is_shown(page)
        if moves == 3:
            page.screenshot(path=artifacts / "keyboard-skip-table-desktop.jpg")
        assert moves < 150, "five rounds of two turns end long before this"

    assert summaries == 4 and moves >= 5 * 9
    result = page.locator("#match-result")
    assert "You won the match!" in result.inner_text()
    assert focused(page).startswith("section#match-result"), "the result takes the focus"
    page.screenshot(path=artifacts / "keyboard-skip-result-desktop.jpg")
    assert violations(page) == [], "the result"
    tab_to(page, "#match-result .actions > button:last-child", limit=10)  # Back to the lobby
    focus_is_shown(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#quick-play")


# -- Skyjo by keyboard --------------------------------------------------------------------------


def test_a_whole_skyjo_match_by_keyboard_alone(keyboard_page: Any, artifacts: Path) -> None:
    page = keyboard_page
    sign_in_by_keyboard(page, "Sky")
    tab_to(page, '.game-choice[data-game="skyjo"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('.lobby[data-game="skyjo"] #quick-play')
    tab_to(page, "#qp-length")
    choose_option(page, "quick")  # to 10 points: a round, seldom two
    tab_to(page, "#quick-play")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board[data-game=skyjo]")

    steps = 0
    while sk.wait_my_turn_or_end(page):
        if page.locator("#round-summary").count():
            continue_by_keyboard(page)
            continue
        sk.play_turn_step_by_keys(page, steps)  # the grid's keys, N to draw, B the discards
        steps += 1
        if not page.locator("#match-result, #round-summary").count():
            focus_is_shown(page)
        if steps == 4:
            page.screenshot(path=artifacts / "keyboard-skyjo-table-desktop.jpg")
        assert steps < 300, "a game to 10 points ends long before this"

    assert steps >= 2 + 5, "two cards turned, then turns until someone's grid is face up"
    assert re.search(r"won the game", page.locator("#match-result").inner_text())
    assert focused(page).startswith("section#match-result"), "the result takes the focus"
    page.screenshot(path=artifacts / "keyboard-skyjo-result-desktop.jpg")
    assert violations(page) == [], "the result"
    # Against bots "Rematch" starts the next game at once; the focus goes back to the table.
    tab_to(page, "#rematch", limit=10)
    page.keyboard.press("Enter")
    page.wait_for_selector("#match-result", state="detached")
    page.wait_for_function("() => /^Round 1/.test(document.querySelector('.scores h2')?.innerText)")
    focus_is_shown(page)


# -- a team match -------------------------------------------------------------------------------


def call(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One lobby call with this page's token (docs/protocol.md)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const r = await fetch(path, {method, headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
                body: body === null ? undefined : JSON.stringify(body)});
            if (!r.ok) throw new Error(await r.text());
            return r.json();
        }""",
        [method, path, body],
    )


# Seats 0 (Ada) and 2 (Bea) are partners (R2.3); the bots at 1 and 3 hold only 10s to 12s over
# stocks of 12s and can never play. Ada: 2 9 9 10 11 over a stock of 3 6; Bea: 4 5 7 9 9 over
# 1 8. The team empties both stocks (R6.1) in Ada's second turn, from each other's piles.
TEAM_DRAWS = (
    [2, 9, 9, 10, 11],  # Ada's first hand
    [11, 11, 12, 12, 12],  # seat 1's
    [4, 5, 7, 9, 9],  # Bea's
    [10, 11, 11, 12, 12],  # seat 3's
    [10, 10],  # Ada's two cards drawn at her second turn
)
TEAM_DEAL = {
    "first": 0,
    "stocks": [[3, 6], [12, 12], [1, 8], [12, 12]],
    "draw": [card for cards in TEAM_DRAWS for card in cards],
}

PARTNER = ".seat-panel.is-partner"


def partner_piles(page: Any) -> list[str]:
    """What the partner's stock and discard piles say (their accessible names)."""
    return page.eval_on_selector_all(
        f"{PARTNER} [data-src]", "els => els.map(e => e.querySelector('.sr-only').textContent)"
    )


def keys_move(page: Any, *keys: str) -> None:
    """Keys that make a move: it is played, and the focus stays in sight."""
    before = ui.seq(page)
    for key in keys:
        page.keyboard.press(key)
    ui.wait_seq_after(page, before)
    focus_is_shown(page)


def refused_by_keys(page: Any, *keys: str, says: str) -> None:
    """Keys that make a move the rules refuse: the refusal names the rule and says why, and
    nothing changes; Esc puts the card back."""
    before = ui.seq(page)
    for key in keys:
        page.keyboard.press(key)
    refusal = page.locator("#refusal")
    refusal.wait_for()
    assert refusal.inner_text() == says
    assert ui.seq(page) == before
    page.keyboard.press("Escape")
    page.wait_for_selector("#board[data-selected='']")


def tap_move(page: Any, card: str, place: str) -> None:
    """A tap on a card (it shows as chosen), a tap on a place: the move is played."""
    before = ui.seq(page)
    page.tap(card)
    page.wait_for_selector(f"{card}[aria-pressed=true]")
    page.tap(place)
    ui.wait_seq_after(page, before)


def no_overflow(page: Any) -> None:
    """Nothing sticks out sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"


def test_a_team_match_from_the_partners_stock_and_discards_on_a_desktop_and_a_phone(
    browser: Any, patient_server: str, artifacts: Path
) -> None:
    ada_context = new_context(browser, patient_server, DESKTOP)
    bea_context = new_context(browser, patient_server, PHONE, has_touch=True, is_mobile=True)
    (ada, ada_errors), (bea, bea_errors) = watched(ada_context), watched(bea_context)
    try:
        ui.sign_in(ada, "Ada")
        ui.sign_in(bea, "Bea")
        options = {
            "players": 4,
            "teams": True,
            "team_discards": True,
            "stock_size": 2,
            "match_target": None,
            "assist": True,
        }
        body = {"game": "skip", "seats": 4, "public": True, "options": options}
        table = call(ada, "POST", "/api/tables", body)["table"]["id"]
        call(bea, "POST", f"/api/tables/{table}/join", {"seat": 2})
        for seat in (1, 3):
            call(ada, "POST", f"/api/tables/{table}/bots", {"seat": seat, "level": "easy"})
        ui.set_deal(ada, table, TEAM_DEAL)
        for page in (ada, bea):
            page.evaluate("(id) => { location.hash = `#/table/${id}`; }", table)
            page.wait_for_selector("#waiting-title")
        call(ada, "POST", f"/api/tables/{table}/start")
        ui.wait_my_turn_or(ada, "#match-result")
        bea.wait_for_selector(ui.BOARD)
        for page, partner, top in ((ada, "Bea", 1), (bea, "Ada", 3)):
            assert page.locator(f"{PARTNER} .seat-name").inner_text() == partner
            assert page.locator(f"{PARTNER} .badge.partner").inner_text() == "PARTNER"
            assert partner_piles(page) == [f"Partner's stock 2 cards, top {top}"] + [
                f"Partner's discard pile {n}: empty" for n in range(1, 5)
            ]
        assert ada.locator(".scores th", has_text="Bea (partner)").count() == 1

        # Ada, by keyboard: P chooses her partner's stock; its 1 starts building pile 1 ...
        keys_move(ada, "p", "q")
        # ... its next card, an 8, does not go on the 1.
        refused_by_keys(ada, "p", "q", says="R5.2 A 8 cannot go on a pile showing 1.")
        keys_move(ada, "1", "q")  # her 2
        keys_move(ada, "s", "q")  # her stock's 3
        # Her 10 onto Bea's discard pile 1 (team discards, R4.4): the pile has no key of its
        # own; Shift+Tab reaches it from the card chosen, Enter.
        ada.keyboard.press(str(ui.hand(ada).index("10") + 1))
        onto = f'{PARTNER} [data-dst="partner_discard"][data-pile="1"]'
        ada.wait_for_selector(f"{onto}[data-legal-target]")
        tab_to(ada, onto, back=True)
        keys_move(ada, "Enter")

        # Bea, on her phone, by taps: her 4 and 5, Ada's stock top (6), then her 7 kept on her
        # own discard pile 2 for Ada.
        ui.wait_my_turn_or(bea, "#match-result")
        assert bea.locator(
            '.mine-area [data-src="discard"][data-pile="1"] .sr-only'
        ).inner_text() == ("Your discard pile 1: 10")
        build = '[data-dst="build"][data-pile="1"]'
        for card in ("4", "5"):
            tap_move(bea, f'[data-src="hand"][data-card="{card}"]', build)
        tap_move(bea, '[data-src="partner_stock"]', build)
        tap_move(
            bea,
            '[data-src="hand"][data-card="7"]',
            '.mine-area [data-dst="discard"][data-pile="2"]',
        )
        assert partner_piles(bea)[0] == "Partner's stock 0 cards"

        ui.wait_my_turn_or(ada, "#match-result")
        assert partner_piles(ada) == [
            "Partner's stock 1 card, top 8",
            "Partner's discard pile 1: 10",
            "Partner's discard pile 2: 7",
            "Partner's discard pile 3: empty",
            "Partner's discard pile 4: empty",
        ]
        bea.screenshot(path=artifacts / "team-partner-piles-phone.jpg")
        ada.screenshot(path=artifacts / "team-partner-piles-desktop.jpg")
        no_overflow(bea)
        for page in (ada, bea):
            assert violations(page) == [], "a team table"
        # Ada: Bea's discard pile 1 (the 10) does not go on the 6 ...
        pile = PARTNER + ' [data-src="partner_discard"][data-pile="{}"]'
        tab_to(ada, pile.format(1), back=True)
        refused_by_keys(ada, "Enter", "q", says="R5.2 A 10 cannot go on a pile showing 6.")
        # ... her pile 2 (the 7) does; then Bea's stock top, the 8, empties the team's stocks.
        tab_to(ada, pile.format(2), back=True)
        keys_move(ada, "Enter", "q")
        keys_move(ada, "p", "q")

        # The result names the teams (as the board does for watchers): both partners won.
        for page, team in ((ada, ("You", "Bea")), (bea, ("Ada", "You"))):
            result = page.locator("#match-result")
            result.wait_for()
            rows = result.locator(".final-scores li").all_inner_texts()
            assert [re.sub(r"\s+", " ", row) for row in rows] == [
                f"{team[0]} TEAM 1 45 pts",
                f"{team[1]} TEAM 1 45 pts",
                "Easy 2 TEAM 2 0 pts",
                "Easy 4 TEAM 2 0 pts",
            ], rows
        assert "You won the match!" in ada.inner_text("#match-title")
        assert "You won the match!" in bea.inner_text("#match-title")
        no_overflow(bea)
        ada.screenshot(path=artifacts / "team-result-desktop.jpg")
        bea.screenshot(path=artifacts / "team-result-phone.jpg")
        for page in (ada, bea):
            assert violations(page) == [], "a team's result"
    finally:
        ada_context.close()
        bea_context.close()
    assert not ada_errors + bea_errors, f"JavaScript errors: {ada_errors + bea_errors}"
