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

from . import ui
from .conftest import DESKTOP, PHONE, _open_page
from .test_keeper import enter_values, wait_sent

pytestmark = pytest.mark.browser

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
    context.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
    yield context
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def polish_phone(browser: Any, server: str) -> Iterator[Any]:
    """With the service worker, which keeps the app working offline."""
    yield from _context(browser, server, "pl-PL", service_workers="allow")


def test_a_polish_family_keeps_a_skyjo_game_offline_from_start_to_end(polish_phone):
    page = polish_phone.new_page()
    page.goto("/keeper/")
    # The page is English until its module has loaded the catalog, which may be after the
    # load event (a top-level await): wait for the words, then read them.
    page.wait_for_function("() => document.documentElement.lang !== 'en'")
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
    # Offline, the note has its whole detail: who was lower, and with what.
    assert "nie najniższą (Bartek: 12)" in page.locator("#rounds tr.note").first.inner_text()
    status = page.inner_text("#sync-status")
    assert status == "Bez sieci · 4 wpisy czekają", status  # the game and three rounds
    assert_no_english(page, "pl")
    page.screenshot(path="/tmp/i18n-keeper-pl-offline.jpg", full_page=True)
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


CUT_OFF = """() => {
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth + 1) out.push(`scrolls sideways: ${page.scrollWidth}px`);
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  for (const el of document.querySelectorAll("body *")) {
    if (!el.checkVisibility() || el.closest(".sr-only, .skip-link, svg, select")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const cs = getComputedStyle(el);
    const what = `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 50)}"`;
    const clips = ["hidden", "clip"].includes(cs.overflowX) || cs.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1) out.push(`cut: ${what}`);
    let box = el.parentElement;
    while (box && !scrolls(box)) box = box.parentElement;
    const r = el.getBoundingClientRect();
    if (!box && r.width && (r.right > innerWidth + 1 || r.left < -1)) {
      out.push(`off screen: ${what} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return out;
}"""
"""Every element with text of its own: none whose text a clipping box cuts, none past the
screen's edges (unless inside a box that scrolls sideways on purpose, such as the rounds)."""

OVERLAYS = """async () => {
  const { h } = await import("/js/dom.js");
  const skyjo = await import("/js/games/skyjo/overlays.js");
  const skip = await import("/js/render/overlays.js");
  const names = ["Ala", "Bartek", "Celina"];
  const model = {
    name: (seat) => names[seat], mySeat: 1, awards: [], forfeit: null,
    view: { players: 3, end_score: 100, options: { closer_doubling: true } },
  };
  const round = { round: 3, scores: [40, 104, 60],
    result: { closer: 1, sums: [5, 12, 20], points: [5, 24, 20], doubled: true } };
  model.lastSummary = round;
  model.roundHistory = [  // the score sheet of the result: three rounds, the third doubled
    { round: 1, closer: 0, sums: [10, 40, 20], points: [10, 40, 20], doubled: false },
    { round: 2, closer: 2, sums: [25, 40, 20], points: [25, 40, 20], doubled: false },
    { round: 3, ...round.result },
  ];
  const table = { rematch: null, seats: [{ index: 0, player: { id: "a", name: "Ala" } },
    { index: 1, player: { id: "me", name: "Bartek" } }, { index: 2, bot: { name: "Easy" } }] };
  const rematch = skip.rematchControls(table, { id: "me" }, { propose() {}, decline() {} });
  const done = { onLobby() {}, onClose() {} };
  const shown = {
    "skyjo-summary": skyjo.roundSummary(model, { ...round, round: 2 }, 7),
    "skyjo-result": skyjo.matchResult(model,
      { winners: [0], scores: [40, 104, 60], hints: [0, 2, 0], match: "m" },
      { rematch, ...done }, () => ""),
    "skip-summary": skip.roundSummary(model, { round: 1, scores: [80, 0, 0],
      result: { winners: [0], stock_left: [0, 8, 3], points: [80, 0, 0] } }, 5),
    "skip-result": skip.matchResult(model,
      { winners: [0], scores: [520, 310, 95], hints: [0, 0, 0], match: "m" }, { rematch, ...done }),
  };
  window.__overlays = shown;
  return Object.keys(shown);
}"""
"""The round summaries and results of both games, drawn by their own code from a round's
facts (a whole game per language and size would take minutes), one at a time on the page."""


def look(page: Any, lang: str, name: str, size: str) -> None:
    """The page as it is now: nothing cut off, no English sentence; a screenshot to look at."""
    problems = page.evaluate(CUT_OFF)
    page.screenshot(path=f"/tmp/i18n-{lang}-{name}-{size}.jpg")
    assert problems == [], f"{lang} {name} at {size}: {problems}"
    assert_no_english(page, lang)


@pytest.mark.parametrize("lang", ["de", "fr", "pl"])
def test_every_page_fits_its_words_and_speaks_no_english(browser, server, lang):
    """The lobby, a Skip table, the summaries and results of both games, the keeper and a
    profile, in one browser per language, at a desktop's size and a phone's."""
    for page in _open_page(browser, server, locale=lang):
        ui.sign_in(page, "Bartek")
        assert page.get_attribute("html", "lang") == lang
        table = ui.bot_table(page, bots=2, first=0)
        page.goto("/keeper/")
        page.wait_for_selector("#new-game")
        page.click("#new-game")
        page.click("#add-player")
        for i, name in enumerate(FAMILY):
            page.locator("input[name=player]").nth(i).fill(name)
        page.click("#start")
        enter_values(page, dict(zip(FAMILY, [30, 12, 25], strict=True)))
        page.locator("#entry .row[data-player='Ala'] .choice").click()
        page.click("#entry-submit")
        wait_sent(page, 1)
        keeper = page.url
        me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto("/#/")
            page.wait_for_selector("#quick-play")
            look(page, lang, "lobby", size)
            page.goto(f"/#/table/{table}")
            page.wait_for_selector("#board")
            look(page, lang, "skip-table", size)
            for name in page.evaluate(OVERLAYS):
                page.evaluate(
                    """(name) => {
                      document.querySelector("#i18n-overlay")?.remove();
                      const box = document.createElement("div");
                      box.className = "overlay";
                      box.id = "i18n-overlay";
                      box.append(window.__overlays[name]);
                      document.body.append(box);
                    }""",
                    name,
                )
                look(page, lang, name, size)
            page.goto(keeper)
            page.wait_for_selector("#rounds tr.round[data-round='1']")
            look(page, lang, "keeper", size)
            page.goto(f"/league/profile.html?id={me}")
            page.wait_for_selector("#recent-matches", state="attached")
            look(page, lang, "profile", size)
            page.goto("/daily/")
            page.wait_for_selector("article.deal[data-game=skip] button")
            look(page, lang, "daily", size)
            for game in ("skip", "skyjo"):
                page.click("#leave") if page.is_visible("#leave") else None
                page.click(f"article.deal[data-game={game}] button")
                page.wait_for_selector("#play:not([hidden])")
                look(page, lang, f"daily-{game}", size)
