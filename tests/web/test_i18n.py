"""Cardroom in its players' languages (docs/translating.md): a Polish family keeps a Skyjo game
from start to end on a phone with no connection, the picker switches the words and nothing
else, Polish plurals take their three forms, and no page shown in another language carries a
sentence of the English catalog."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PHONE
from .test_keeper import enter_values, wait_sent

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web" / "i18n"
ENGLISH = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
FAMILY = ["Ala", "Bartek", "Celina"]


def english_sentences(lang: str) -> list[str]:
    """The English catalog's sentences that the other catalog says differently (a word the
    two languages share, such as "Offline" or "Total", proves nothing)."""
    other = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    found = []
    for key, message in ENGLISH.items():
        forms = message.values() if isinstance(message, dict) else [message]
        theirs = other[key].values() if isinstance(other[key], dict) else [other[key]]
        for form in forms:
            # The words between placeholders, long enough to be a sentence of their own.
            for piece in form.replace("{", "\0{").replace("}", "}\0").split("\0"):
                piece = piece.strip(" .:·,()")
                if piece.startswith("{") or len(piece) < 12 or " " not in piece:
                    continue
                if not any(piece in t for t in theirs):
                    found.append(piece)
    return found


def assert_no_english(page: Any, lang: str) -> None:
    text = page.inner_text("body")
    leaked = [s for s in english_sentences(lang) if s in text]
    assert not leaked, f"English on a {lang} page: {leaked}"


def _context(browser: Any, server: str, locale: str, **options: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        base_url=server,
        reduced_motion="reduce",
        locale=locale,
        **options,
    )
    errors: list[str] = []
    context.on(
        "page",
        lambda page: (
            page.set_default_timeout(20_000),
            page.on("pageerror", lambda error: errors.append(str(error))),
        ),
    )
    yield context
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def polish_phone(browser: Any, server: str) -> Iterator[Any]:
    yield from _context(browser, server, "pl-PL")


def test_a_polish_family_keeps_a_skyjo_game_offline_from_start_to_end(polish_phone):
    page = polish_phone.new_page()
    page.goto("/keeper/")
    assert page.get_attribute("html", "lang") == "pl"  # the browser's language
    assert page.title() == "Notes punktów · Cardroom"
    page.fill("#name-form input[name=name]", "Mama")
    page.click("#name-form button[type=submit]")  # a name needs the server once
    page.wait_for_selector("#new-game")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # the app is installed
    polish_phone.set_offline(True)
    page.reload()  # no connection: the service worker serves the page and its Polish catalog
    page.wait_for_selector("#new-game")
    assert page.inner_text("#new-game") == "Nowa gra"
    page.click("#new-game")
    page.wait_for_selector("#new-form")
    page.click("#add-player")
    for i, name in enumerate(FAMILY):
        page.locator("input[name=player]").nth(i).fill(name)
    page.fill("input[name=end_score]", "70")
    page.click("#start")
    page.wait_for_selector("#entry")
    assert page.inner_text("#entry-title") == "Runda 1"
    page.tap("#entry-submit")  # nobody chosen: the keeper says so in Polish
    assert page.inner_text("#entry-problem").startswith("Kto zakończył rundę?")
    rounds = [([30, 12, 25], "Ala"), ([4, 12, 25], "Bartek"), ([-3, 10, 25], "Ala")]
    for number, (sums, closer) in enumerate(rounds, start=1):
        enter_values(page, dict(zip(FAMILY, sums, strict=True)))
        page.locator(f"#entry .row[data-player='{closer}'] .choice").tap()
        page.tap("#entry-submit")
        wait_sent(page, number)
    # Ala 60 + 4 - 3, Bartek 12 + 24 + 10, Celina 25 + 25 + 25 reaches 70: the lowest wins.
    page.wait_for_selector("#standing.over")
    assert page.inner_text("#standing-text") == "Wygrywa Bartek"
    assert page.inner_text("#standing-detail") == "Koniec gry po rundzie 3"
    assert "podwojona do 60 (S4.3)" in page.locator("#rounds tr.note").first.inner_text()
    assert "czeka na wysłanie" in page.locator("#rounds tr.note").first.inner_text()
    status = page.inner_text("#sync-status")
    assert status == "Bez sieci · 4 wpisy czekają", status  # the game and three rounds
    assert_no_english(page, "pl")
    page.screenshot(path="/tmp/i18n-keeper-pl-offline.png", full_page=True)
    polish_phone.set_offline(False)
    page.wait_for_selector("#sync-status[data-state='ok']")
    assert page.inner_text("#sync-status") == "Zapisano"
    assert "nie najniższą (Bartek: 12)" in page.locator("#rounds tr.note").first.inner_text()


def test_polish_plurals_take_their_three_forms(polish_phone):
    page = polish_phone.new_page()
    page.goto("/keeper/")
    forms = page.evaluate(
        """async () => {
          const { t } = await import("/js/i18n.js");
          return [1, 2, 4, 5, 12, 22, 25, 101, 112, 1000].map(
            (count) => t("keeper.rounds_count", { count }));
        }"""
    )
    assert forms == [
        "1 runda",
        "2 rundy",
        "4 rundy",
        "5 rund",
        "12 rund",
        "22 rundy",
        "25 rund",
        "101 rund",
        "112 rund",
        "1000 rund",  # Polish groups thousands only from 10 000
    ]


def test_the_picker_changes_the_words_and_remembers_them(browser, server):
    for context in _context(browser, server, "en-US"):
        page = context.new_page()
        page.goto("/keeper/")
        page.fill("#name-form input[name=name]", "Jo")
        page.click("#name-form button[type=submit]")
        page.wait_for_selector("#new-game")
        assert page.inner_text("#new-game") == "New game"
        with page.expect_navigation():
            page.select_option("#lang-picker", "de")
        page.wait_for_selector("#new-game")
        assert page.inner_text("#new-game") == "Neues Spiel"
        assert page.get_attribute("html", "lang") == "de"
        manifest = page.get_attribute("link[rel=manifest]", "href")
        assert manifest.endswith("lang=de")
        assert page.request.get(manifest).json()["name"] == "Cardroom — Skip und Skyjo"
        token = page.evaluate("localStorage.getItem('cardroom.token')")
        saved = page.request.get(
            "/api/me/language", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert saved["language"] == "de"  # the account keeps it for its other devices
        page.reload()
        page.wait_for_selector("#new-game")
        assert page.inner_text("#new-game") == "Neues Spiel"  # remembered in this browser
