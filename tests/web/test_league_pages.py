"""The league's pages wear the app's top bar and felt, and nothing they load is missing
(a favicon was a 404 on every visit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui
from .conftest import PHONE, _open_page

pytestmark = pytest.mark.browser


def test_league_pages_have_the_app_header_and_load_without_a_404(
    page: Any, artifacts: Path
) -> None:
    ui.sign_in(page, "Ada")
    me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")
    statuses: list[tuple[int, str]] = []
    page.on("response", lambda r: statuses.append((r.status, r.url)))
    for path, current in (
        ("/league/index.html", "Leaderboards"),
        (f"/league/profile.html?id={me}", "My profile"),
        ("/league/account.html", "Account"),
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        topbar = page.locator("header.topbar")
        assert topbar.locator(".brand img[src='/img/icon.svg']").count() == 1
        assert topbar.locator("a[aria-current=page]").inner_text() == current
        assert page.locator("link[rel=icon]").get_attribute("href") == "/img/icon.svg"
        felt = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert felt == "rgb(20, 52, 43)", felt  # the app's --felt, not the old white page
    page.screenshot(path=str(artifacts / "league-account.png"))
    page.goto("/league/index.html")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / "league-leaderboards.png"))
    missing = [(status, url) for status, url in statuses if status >= 400]
    assert not missing, missing
    assert any(url.endswith("/league/league.css") for _, url in statuses)
    favicon = page.request.get("/favicon.ico")
    assert favicon.status == 200 and favicon.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file


def test_each_game_has_its_boards_and_skyjo_counts_the_lowest_total(page: Any) -> None:
    """The game chosen in the lobby is the boards' game; Skyjo's have no teams."""
    ui.sign_in(page, "Bea")
    page.goto("/league/index.html?board=scores")
    page.wait_for_load_state("networkidle")
    assert page.input_value("select[name=game]") == "skip"
    assert page.inner_text("#value-head") == "Best match"
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.select_option("select[name=game]", "skyjo")
    page.wait_for_function("document.querySelector('#value-head').textContent.includes('lowest')")
    assert any("/api/leaderboards/scores?" in url and "game=skyjo" in url for url in asked)
    assert "game=skyjo" in page.evaluate("location.search")
    assert page.locator("select[name=mode] option[value=teams]").is_disabled()
    # Previous and Next only where there is a page to turn to.
    asked_board = next(u for u in reversed(asked) if "/api/leaderboards/scores?" in u)
    pages = page.request.get(asked_board).json()["pages"]
    assert page.locator(".pager").is_visible() == (pages > 1)
    page.evaluate("localStorage.setItem('cardroom.game', 'skyjo')")  # the lobby's choice
    page.goto("/league/index.html")
    page.wait_for_load_state("networkidle")
    assert page.input_value("select[name=game]") == "skyjo"


def test_a_profile_says_how_each_match_counted_and_shows_a_cheat_mark(page: Any) -> None:
    """The words of docs/league.md "Fair play": voided, forfeited, not rated and why. The
    profile's answer is the server's own, with a mark and three kinds of match put in."""
    ui.sign_in(page, "Ada")
    me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")
    base = {"game": "skip", "mode": "2p", "table": None, "points": 10, "rounds": 2}
    recent = [
        {**base, "match": "m_v", "ranked": True, "voided": True, "forfeited": False,
         "unrated": None, "won": True, "finished_at": "2026-11-03T12:00:00+00:00"},
        {**base, "match": "m_f", "ranked": True, "voided": False, "forfeited": True,
         "unrated": None, "won": False, "finished_at": "2026-11-02T12:00:00+00:00"},
        {**base, "match": "m_u", "ranked": False, "voided": False, "forfeited": False,
         "unrated": "linked", "won": True, "finished_at": "2026-11-01T12:00:00+00:00"},
    ]  # fmt: skip
    mark = {"reason": "engine use", "marked_at": "2026-11-04T09:00:00+00:00"}

    def answer(route: Any) -> None:
        data = route.fetch().json()
        route.fulfill(json={**data, "fair_play": mark, "recent": recent})

    page.route("**/api/players/*/profile*", answer)
    page.goto(f"/league/profile.html?id={me}")
    page.wait_for_selector("#recent-matches li")
    lines = {
        li.get_attribute("data-match"): li.inner_text()
        for li in page.locator("#recent-matches li").all()
    }
    assert "voided: counts for nobody" in lines["m_v"]
    assert "forfeited" in lines["m_f"] and "rated" in lines["m_f"]
    assert "not rated: the accounts were seen on one network or device" in lines["m_u"]
    assert "engine use" in page.inner_text("#fair-play-mark")


def test_the_league_menu_fits_a_phone(browser: Any, server: str, artifacts: Path) -> None:
    """Every link of the league pages' top bar is whole on a phone's screen."""
    for page in _open_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True):
        ui.sign_in(page, "Phil")
        for path in ("/league/index.html", "/league/account.html"):
            page.goto(path)
            page.wait_for_selector("header.topbar a[aria-current=page]")
            cut = page.evaluate(
                """() => [...document.querySelectorAll('header.topbar a, header.topbar button')]
                  .filter((el) => el.checkVisibility())
                  .filter((el) => {
                    const r = el.getBoundingClientRect();
                    return el.scrollWidth > el.clientWidth + 1 || r.left < 0
                      || r.right > innerWidth + 1;
                  })
                  .map((el) => el.textContent.trim())"""
            )
            assert cut == [], f"{path}: cut or off screen on a phone: {cut}"
            page.screenshot(path=artifacts / f"league-menu-phone{path.replace('/', '-')}.png")
