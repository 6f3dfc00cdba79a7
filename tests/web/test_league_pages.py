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
    page.screenshot(path=str(artifacts / "league-account.jpg"))
    page.goto("/league/index.html")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / "league-leaderboards.jpg"))
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
    page.wait_for_function(
        "() => document.querySelector('#value-head').textContent.includes('lowest')"
    )
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
            page.screenshot(path=artifacts / f"league-menu-phone{path.replace('/', '-')}.jpg")


def test_a_profile_fits_a_few_phone_screens_and_its_chart_wears_the_theme(
    browser: Any, server: str, artifacts: Path
) -> None:
    """A full profile (ratings in three modes with a history, recent matches, every reward
    and achievement listed) is a few screens on a phone, and its chart is drawn in the page's
    colours and words, not a white image."""
    history = [
        {"match": n, "at": "2026-11-01T10:00:00+00:00", "mu": 20 + n / 8, "sigma": 6 - n / 10,
         "rating": 20 + n / 8 - 3 * (6 - n / 10)}
        for n in range(1, 41)
    ]  # fmt: skip
    ratings = [
        {"mode": mode, "ordinal": 5.1, "mu": 25.0, "sigma": 6.6, "matches": 40}
        for mode in ("2p", "3p+", "teams")
    ]
    recent = [
        {"match": f"m_{n}", "finished_at": "2026-11-03T20:00:00+00:00", "game": "skip",
         "mode": "2p", "won": n % 2 == 0, "points": 100 + n, "ranked": True}
        for n in range(10)
    ]  # fmt: skip
    for page in _open_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True):
        ui.sign_in(page, "Pia")
        me = page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")

        def profile(route: Any) -> None:
            data = route.fetch().json()
            route.fulfill(json={**data, "ratings": ratings, "recent": recent})

        page.route("**/api/players/*/profile*", profile)
        page.route(
            "**/api/players/*/ratings/history*", lambda r: r.fulfill(json={"points": history})
        )
        page.goto(f"/league/profile.html?id={me}")
        page.wait_for_selector("#rating-chart svg.rating-chart")
        page.wait_for_selector("#recent-matches li")
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the profile scrolls sideways ({width} px)"
        page.screenshot(path=artifacts / "profile-phone.jpg", full_page=True)
        assert height <= 3.5 * PHONE["height"], f"the profile is {height} px tall on a phone"
        chart = page.locator("svg.rating-chart")
        assert chart.get_attribute("aria-label") == "Rating in 2 players, match by match"
        assert len(chart.locator("polyline.rating").get_attribute("points").split()) == 40
        background, stroke, accent = page.evaluate(
            """() => {
              const svg = document.querySelector("svg.rating-chart");
              const line = svg.querySelector("polyline.rating");
              const probe = document.createElement("span");
              probe.style.color = "var(--accent)";
              document.body.append(probe);
              const accent = getComputedStyle(probe).color;
              probe.remove();
              return [getComputedStyle(svg).backgroundColor, getComputedStyle(line).stroke, accent];
            }"""
        )
        assert background != "rgb(255, 255, 255)" and "0.18" in background, background
        assert stroke == accent, (stroke, accent)  # the theme's accent, not a default
        assert "rated matches" in page.inner_text("#rating-chart")
        # The achievements still to earn are folded under one line.
        assert page.locator("details.to-earn").first.get_attribute("open") is None
