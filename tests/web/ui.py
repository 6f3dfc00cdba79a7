"""What a person does in the web client, as Playwright steps: sign in, set up a table against
bots through the lobby, read the table from the DOM and click (or drag) a card onto a pile."""

from __future__ import annotations

import json
from typing import Any

Action = dict[str, Any]

# How long a browser test waits for what will happen (a page, a bot's move, a message), in ms:
# generous, as the servers' tests' TIMEOUT is, since a wait ends as soon as its condition holds
# and only a wait that would fail takes this long. A loaded 2-core machine (the suite, a busy
# core and more) once took over 30 s to show a bot's move; set on every context
# (conftest.py), and given to the waits that name their own.
PATIENCE = 90_000

BOARD = "#board"


def sign_in(page: Any, name: str = "Ada") -> None:
    page.goto("/")
    page.fill("#name-form input[name=name]", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#quick-play")


def open_house_rules(page: Any) -> None:
    """Open the lobby's house rules from the keyboard, and wait until they are open: a click
    aims at where the summary was, and a suite run saw one leave them closed when the lobby's
    panels moved under it (css/lobby.css now keeps room for the note that moved them)."""
    page.focus("#create-form .house-rules summary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#create-form details.house-rules[open]")


def create_bot_table(
    page: Any,
    *,
    stock: int = 2,
    assist: bool = True,
    target: str = "null",
    hints: bool = True,
    deal: dict[str, Any] | None = None,
) -> str:
    """A 2-seat table (single round unless `target`) from the lobby's form, one bot, started,
    and this seat to play first: a set deal (``deal.first``, a test server's option) gives
    seat 0 the first turn, so the bot cannot win before it, however small the stock; ``deal``
    may set more (``games/skip/deal.py``)."""
    open_house_rules(page)
    form = page.locator("#create-form")
    form.locator("select[name=visibility]").select_option("private")
    form.locator("input[name=seats]").fill("2")
    form.locator("select[name=stock]").select_option("custom")
    form.locator("input[name=stock_custom]").fill(str(stock))
    form.locator("select[name=match_target]").select_option(target)
    form.locator("input[name=assist]").set_checked(assist)
    form.locator("input[name=hints]").set_checked(hints)
    page.click("#create-table")
    page.wait_for_selector("[data-add-bot]")
    page.click("[data-add-bot]")
    page.wait_for_selector(".seat-row.taken >> nth=1")
    table_id = page.evaluate("location.hash").split("/")[-1]
    set_deal(page, table_id, {"first": 0, **(deal or {})})
    page.click("#start")
    page.wait_for_selector(BOARD)
    wait_my_turn_or(page, "#match-result, #round-summary")
    return table_id


def quickplay(
    page: Any,
    *,
    bots: int,
    level: str = "easy",
    options: dict[str, Any] | None = None,
    game: str = "skip",
) -> str:
    """A started private table against ``bots`` bots, made with one POST /api/quickplay from
    the page and not opened; returns its id."""
    return str(
        page.evaluate(
            """async ([game, bots, level, options]) => {
                const r = await fetch('/api/quickplay', {method: 'POST', headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
                    body: JSON.stringify({game, bots, level,
                                          options: {players: bots + 1, ...options}})});
                if (!r.ok) throw new Error(await r.text());
                return (await r.json()).table.id;
            }""",
            [game, bots, level, options or {}],
        )
    )


def set_deal(page: Any, table_id: str, deal: dict[str, Any]) -> None:
    """Set the deal of a table's next match (the owner's PATCH, as the house rules are)."""
    page.evaluate(
        """async ([id, deal]) => {
            const r = await fetch(`/api/tables/${id}`, {method: 'PATCH', headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${localStorage.getItem('cardroom.token')}`},
                body: JSON.stringify({options: {deal}})});
            if (!r.ok) throw new Error(await r.text());
        }""",
        [table_id, deal],
    )


def bot_table(
    page: Any,
    *,
    bots: int,
    level: str = "easy",
    options: dict[str, Any] | None = None,
    first: int | None = None,
    game: str = "skip",
) -> str:
    """A started private table of ``game`` against `bots` bots (``quickplay``), opened in the
    browser; returns its id. ``first``: the seat that plays first (a set deal, so the table is
    unranked), this page's being 0."""
    if first is not None:
        options = {**(options or {}), "deal": {"first": first}}
    table_id = quickplay(page, bots=bots, level=level, options=options, game=game)
    page.evaluate("(id) => { location.hash = `#/table/${id}`; }", table_id)
    page.wait_for_selector(BOARD)
    return table_id


def wait_my_turn_or_end(page: Any) -> bool:
    """Wait until this seat may act (True) or the match result shows (False)."""
    wait_my_turn_or(page, "#match-result")
    return page.locator("#match-result").count() == 0


def wait_round_summary_or_my_turn(page: Any) -> bool:
    """Wait until the round summary shows (True) or this seat may act (False)."""
    wait_my_turn_or(page, "#round-summary")
    return page.locator("#round-summary").count() > 0


def wait_my_turn_or(page: Any, selector: str) -> None:
    """Wait until this seat may act (it has legal actions) or ``selector`` shows."""
    page.wait_for_function(
        """(selector) => {
            if (document.querySelector(selector)) return true;
            const b = document.querySelector('#board');
            return b && b.dataset.myTurn === 'true' && JSON.parse(b.dataset.legal).length > 0;
        }""",
        arg=selector,
        timeout=PATIENCE,
    )


def legal(page: Any) -> list[Action]:
    return json.loads(page.get_attribute(BOARD, "data-legal") or "[]")


def seq(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-seq") or -1)


def choose(actions: list[Action]) -> Action:
    """A sensible move: stock first, then any play, then a discard, then pass."""
    for wanted in ("stock", "discard", "hand"):
        for action in actions:
            if action["type"] == "play" and action["from"] == wanted:
                return action
    for action in actions:
        if action["type"] == "discard":
            return action
    return actions[0]


def source_selector(action: Action) -> str:
    if action["type"] == "discard" or action.get("from") == "hand":
        return f'[data-src="hand"][data-card="{action["card"]}"]'
    if action["from"] == "discard":
        return f'.mine-area [data-src="discard"][data-pile="{action["pile"]}"]'
    return f'[data-src="{action["from"]}"]'


def target_selector(action: Action) -> str:
    if action["type"] == "play":
        return f'[data-dst="build"][data-pile="{action["to"]}"]'
    return f'.mine-area [data-dst="discard"][data-pile="{action["pile"]}"]'


def click_move(page: Any, action: Action, *, check_assist: bool = True) -> None:
    """Click the card, then the pile; with the assist on, the pile must be highlighted."""
    before = seq(page)
    if action["type"] == "pass":
        page.click('[data-action="pass"]')
    else:
        page.locator(source_selector(action)).first.click()
        target = page.locator(target_selector(action))
        if check_assist:
            page.wait_for_selector(f"{target_selector(action)}[data-legal-target]")
        target.click()
    wait_seq_after(page, before)


def drag_move(page: Any, action: Action) -> None:
    """Press on the card, move over the pile in small steps, let go (pointer events)."""
    before = seq(page)
    source = page.locator(source_selector(action)).first.bounding_box()
    target = page.locator(target_selector(action)).bounding_box()
    assert source and target
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=12)
    page.mouse.up()
    wait_seq_after(page, before)


def wait_seq_after(page: Any, before: int) -> None:
    page.wait_for_function(
        """(before) => {
            if (document.querySelector('#match-result')) return true;
            const b = document.querySelector('#board');
            return b && Number(b.dataset.seq) > before;
        }""",
        arg=before,
    )


def hand(page: Any) -> list[str]:
    return page.eval_on_selector_all('[data-src="hand"]', "els => els.map(e => e.dataset.card)")


def remember(page: Any, selector: str, read: str) -> None:
    """From now on, whenever ``selector`` shows, keep ``read(element)`` (a JS function's
    source) in the page, refreshed at every change while it shows: a test reads what a
    short-lived element (a round summary, shown for the round pause) said, however busy the
    machine was when it showed. ``remembered`` returns the reading of its first showing."""
    page.evaluate(
        """([selector, read]) => {
            const readIt = eval(read);
            const seen = (window.__remembered = window.__remembered || {});
            seen[selector] = [];
            let showing = false;
            const look = () => {
                const element = document.querySelector(selector);
                if (!element) {
                    showing = false;
                    return;
                }
                if (!showing) seen[selector].push(null);
                showing = true;
                seen[selector][seen[selector].length - 1] = readIt(element);
            };
            new MutationObserver(look).observe(document.body, {
                subtree: true, childList: true, characterData: true, attributes: true});
            look();
        }""",
        [selector, read],
    )


def remembered(page: Any, selector: str) -> Any:
    """What ``selector`` said the first time it showed since ``remember`` (None: not yet)."""
    return page.evaluate("(s) => ((window.__remembered || {})[s] || [])[0] ?? null", selector)
