"""The score keeper's page on a phone (390x844, touch): a whole Skyjo game with a doubled closer
from the lobby's link, a Skip team match, a correction of round 2, a shared view following the
game live in a second phone, and entries made offline sent once (docs/keeper.md).

Each test ends with the server's own record of the game, so what the page shows is what was
stored, and nothing was stored twice."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import PHONE
from .ui import sign_in

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SETTLED = "() => document.querySelector('#sync-status')?.dataset.waiting === '0'"


def _phone(browser: Any, server: str, **options: Any) -> Iterator[Any]:
    """A phone-sized touch context; fails the test on any JavaScript or CSP error."""
    context = browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        base_url=server,
        reduced_motion="reduce",
        accept_downloads=True,
        **options,
    )
    errors: list[str] = []

    def watch(page: Any) -> None:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
        )

    context.on("page", watch)
    yield context
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    yield from _phone(browser, server)


@pytest.fixture
def second_phone(browser: Any, server: str) -> Iterator[Any]:
    yield from _phone(browser, server)


@pytest.fixture
def phone_without_worker(browser: Any, server: str) -> Iterator[Any]:
    """No service worker, so the test can intercept the page's own requests."""
    yield from _phone(browser, server, service_workers="block")


@pytest.fixture
def installed_phone(browser: Any, server: str) -> Iterator[Any]:
    """With the service worker, which keeps the app working offline."""
    yield from _phone(browser, server, service_workers="allow")


def shot(page: Any, name: str, full: bool = True) -> None:
    """A screenshot to look at (the sticky top bar stays on top in a full page)."""
    if full:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"/tmp/keeper-{name}.jpg", full_page=full)


# -- what a person does ------------------------------------------------------------------------


def name_myself(page: Any, name: str = "Keeper") -> None:
    page.goto("/keeper/")
    page.fill("#name-form input[name=name]", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#new-game")


def new_game(page: Any, game: str, players: list[str], **options: Any) -> None:
    page.click("#new-game")
    page.wait_for_selector("#new-form")
    if game == "skip":
        page.locator(".segmented label", has_text="Skip").click()
    for _ in range(len(players) - 2):
        page.click("#add-player")
    for i, name in enumerate(players):
        page.locator("input[name=player]").nth(i).fill(name)
    if "match_target" in options:
        page.select_option("select[name=match_target]", str(options["match_target"]))
    if "stock_size" in options:
        page.fill("input[name=stock_size]", str(options["stock_size"]))
    if options.get("teams"):
        page.check("input[name=teams]")
    page.click("#start")
    page.wait_for_selector("#entry")


def enter_values(page: Any, values: dict[str, int]) -> None:
    for name, value in values.items():
        field = page.locator(f"#entry input[data-player='{name}']")
        if value < 0:  # a phone's number pad has no minus: the ± key
            field.fill(str(-value))
            page.locator(f"#entry .row[data-player='{name}'] .sign").tap()
        else:
            field.fill(str(value))


def skyjo_round(page: Any, sums: list[int], closer: str, players: list[str] = PLAYERS) -> None:
    number = page.locator("#rounds tr.round").count() + 1
    enter_values(page, dict(zip(players, sums, strict=True)))
    page.locator(f"#entry .row[data-player='{closer}'] .choice").tap()
    page.tap("#entry-submit")
    wait_sent(page, number)


def wait_sent(page: Any, number: int) -> None:
    """The round shows, and (online) the server has it: its row is no longer waiting."""
    page.wait_for_selector(f"#rounds tr.round[data-round='{number}']")
    if page.evaluate("navigator.onLine"):
        page.wait_for_selector(f"#rounds tr.round.waiting[data-round='{number}']", state="detached")


def skip_round(page: Any, went_out: str | None, stocks: dict[str, int]) -> None:
    number = page.locator("#rounds tr.round").count() + 1
    if went_out is None:
        page.locator("#entry .choice.nobody").tap()
    else:
        page.locator(f"#entry .row[data-player='{went_out}'] .choice").tap()
    enter_values(page, stocks)
    page.tap("#entry-submit")
    wait_sent(page, number)


def totals(page: Any) -> dict[str, int]:
    rows = page.locator("#totals tbody tr")
    return {
        rows.nth(i).get_attribute("data-player"): int(rows.nth(i).locator(".total").inner_text())
        for i in range(rows.count())
    }


def settled(page: Any) -> None:
    page.wait_for_function(SETTLED)


def stored(page: Any, server: str) -> list[dict[str, Any]]:
    """The server's kept games of the page's player, in full."""
    token = page.evaluate("localStorage.getItem('cardroom.token')")
    auth = {"Authorization": f"Bearer {token}"}
    games = httpx.get(f"{server}/api/keeper/games", headers=auth).json()["games"]
    return [
        httpx.get(f"{server}/api/keeper/games/{g['id']}", headers=auth).json()["kept"]
        for g in games
    ]


# -- the tests ---------------------------------------------------------------------------------


def test_a_whole_skyjo_game_from_the_lobby_to_its_end_with_a_doubled_closer(phone, server):
    page = phone.new_page()
    sign_in(page, "Ada")
    page.click("#open-keeper")
    page.wait_for_selector("#new-game")  # the lobby's name is the keeper's too
    new_game(page, "skyjo", PLAYERS)
    shot(page, "skyjo-start", full=False)
    assert page.locator("#entry input[inputmode=numeric]").count() == 4
    box = page.locator("#entry input.number").first.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 60  # a thumb's target
    skyjo_round(page, [30, 12, 25, 20], "Ann")  # S4.3: not the lowest, doubled to 60
    first = page.locator("#rounds tr.round[data-round='1'] td.doubled")
    assert first.inner_text().startswith("60")
    note = page.locator("#rounds tr.note").first.inner_text()
    assert "not the lowest (Bob 12): doubled to 60 (S4.3)" in note
    skyjo_round(page, [5, 5, 30, 40], "Bob")  # tied for the lowest: doubled
    skyjo_round(page, [-3, 10, 20, 30], "Ann")  # negative: never doubled
    assert "never doubled" in page.locator("#rounds tr.note").nth(2).inner_text()
    assert totals(page) == {"Ann": 62, "Bob": 32, "Cy": 75, "Dee": 90}
    assert page.inner_text("#standing-text") == "Bob leads"
    assert page.locator("svg.chart polyline").count() == 4
    shot(page, "skyjo-playing")
    skyjo_round(page, [2, 3, 30, 10], "Ann")  # Dee reaches 100 (S5.1)
    assert page.inner_text("#standing-text") == "Bob wins"
    assert "Game over after round 4" in page.inner_text("#standing-detail")
    assert page.locator("#entry").count() == 0  # no round after the end
    assert page.locator("#totals tr.winner").get_attribute("data-player") == "Bob"
    settled(page)
    shot(page, "skyjo-over")
    with page.expect_download() as download:
        page.tap("#export-csv")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text())))
    assert rows[0] == ["round", *PLAYERS, "closer", "doubled", "note"]
    assert rows[1][:7] == ["1", "60", "12", "25", "20", "Ann", "yes"]
    assert rows[-1][:5] == ["total", "64", "35", "105", "100"]
    with page.expect_download() as download:
        page.tap("#export-json")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["results"]["winners"] == ["Bob"]
    [kept] = stored(page, server)
    assert kept["status"] == "over" and kept["rounds"] == 4 and kept["revision"] == 5


def test_a_skip_team_match_scores_both_partners(phone, server):
    page = phone.new_page()
    name_myself(page)
    new_game(page, "skip", PLAYERS, match_target=200, stock_size=10, teams=True)
    skip_round(page, "Ann", {"Bob": 4, "Dee": 6})  # R6.2: 25 + 5 x 10, both partners
    assert totals(page) == {"Ann": 75, "Bob": 0, "Cy": 75, "Dee": 0}
    assert page.inner_text("#standing-text") == "Ann & Cy lead"
    skip_round(page, None, dict.fromkeys(PLAYERS, 3))  # R6.4: nobody won
    skip_round(page, "Dee", {"Ann": 10, "Cy": 10})
    shot(page, "skip-playing")
    skip_round(page, "Cy", {"Bob": 10, "Dee": 10})
    assert totals(page) == {"Ann": 200, "Bob": 125, "Cy": 200, "Dee": 125}
    assert page.inner_text("#standing-text") == "Ann & Cy win"
    settled(page)
    shot(page, "skip-over")
    [kept] = stored(page, server)
    assert kept["sheet"]["results"]["winners"] == ["Ann", "Cy"] and kept["rounds"] == 4


def test_round_2_is_corrected_and_the_totals_follow(phone, server):
    page = phone.new_page()
    name_myself(page)
    new_game(page, "skyjo", PLAYERS[:3])
    for sums in ([10, 20, 30], [30, 20, 25], [10, 20, 30]):
        skyjo_round(page, sums, "Ann", PLAYERS[:3])
    assert totals(page)["Ann"] == 10 + 60 + 10  # round 2: Ann not the lowest, doubled
    box = page.locator("[data-edit='2']").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # a finger's size
    page.tap("[data-edit='2']")
    assert page.inner_text("#entry-title") == "Correct round 2"
    assert page.input_value("#entry input[data-player='Ann']") == "30"  # what was entered
    page.fill("#entry input[data-player='Ann']", "5")
    shot(page, "edit-round-2", full=False)
    page.tap("#entry-submit")
    page.wait_for_selector("#entry-title:has-text('Round 4')")
    assert totals(page)["Ann"] == 10 + 5 + 10
    settled(page)
    assert "strictly the lowest: not doubled" in page.locator("#rounds tr.note").nth(1).inner_text()
    [kept] = stored(page, server)
    assert kept["sheet"]["rounds"][1]["sums"]["Ann"] == 5 and kept["revision"] == 5
    page.tap("#undo")
    page.tap("#undo-yes")
    page.wait_for_selector("#entry-title:has-text('Round 3')")
    settled(page)
    assert stored(page, server)[0]["rounds"] == 2
    page.click(".more summary")  # the seating order: the rounds follow the players
    page.tap("[aria-label='move Cy up']")
    page.tap("#save-order")
    page.wait_for_selector("#totals tbody tr:nth-child(2)[data-player='Cy']")
    rows = page.locator("#entry .row")
    assert [rows.nth(i).get_attribute("data-player") for i in range(3)] == ["Ann", "Cy", "Bob"]
    settled(page)
    [kept] = stored(page, server)
    assert kept["sheet"]["players"] == ["Ann", "Cy", "Bob"]
    assert kept["sheet"]["results"]["totals"] == {"Ann": 15, "Cy": 55, "Bob": 40}


def test_a_shared_game_updates_live_on_a_second_phone(phone, second_phone, server):
    keeper = phone.new_page()
    name_myself(keeper)
    new_game(keeper, "skyjo", PLAYERS[:2])
    settled(keeper)
    qr_fetches: list[str] = []
    keeper.on("request", lambda r: qr_fetches.append(r.url) if "/qr.svg" in r.url else None)
    keeper.tap("#share")
    code = keeper.inner_text("#share-code")
    link = keeper.input_value("#share-link")
    assert link.endswith(f"/keeper/#/shared/{code}")
    keeper.wait_for_function(  # the link's QR code, drawn by the server, for the others to scan
        "() => { const qr = document.querySelector('#share-qr');"
        " return qr?.complete && qr.naturalWidth > 0; }"
    )
    assert code in (keeper.get_attribute("#share-qr", "alt") or "")
    shot(keeper, "share", full=False)
    viewer = second_phone.new_page()
    viewer.goto(link)
    viewer.wait_for_selector("#live[data-state='live']")
    assert viewer.inner_text("#standing-text") == "No round yet"
    assert viewer.locator("#entry").count() == 0 and viewer.locator("[data-edit]").count() == 0
    skyjo_round(keeper, [20, 5], "Ann", PLAYERS[:2])
    viewer.wait_for_selector("#rounds tr.round[data-round='1']")
    assert totals(viewer) == {"Ann": 40, "Bob": 5}
    # The keeper's page was painted anew for the round: its share box is still open, the
    # same QR code in it, not fetched again.
    assert keeper.inner_text("#share-code") == code and len(qr_fetches) == 1, qr_fetches
    assert "doubled to 40" in viewer.locator("#rounds tr.note").first.inner_text()
    keeper.tap("[data-edit='1']")
    keeper.fill("#entry input[data-player='Ann']", "2")
    keeper.tap("#entry-submit")
    viewer.wait_for_function(
        "() => document.querySelector('#totals tbody tr .total').textContent === '2'"
    )
    assert totals(viewer) == {"Ann": 2, "Bob": 5}
    shot(viewer, "shared-view")
    keeper.tap("#undo")
    keeper.tap("#undo-yes")
    viewer.wait_for_selector("#standing-text:has-text('No round yet')")


def test_entries_made_offline_survive_a_reload_and_are_sent_once(installed_phone, server):
    phone = installed_phone
    page = phone.new_page()
    name_myself(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # the app is installed
    phone.set_offline(True)
    new_game(page, "skyjo", PLAYERS[:3])
    skyjo_round(page, [30, 12, 25], "Ann", PLAYERS[:3])
    skyjo_round(page, [4, 12, 25], "Bob", PLAYERS[:3])
    page.wait_for_selector("#sync-status[data-state='offline']")
    assert page.get_attribute("#sync-status", "data-waiting") == "3"  # the game, two rounds
    assert totals(page) == {"Ann": 64, "Bob": 36, "Cy": 50}  # doubled closers, counted here
    assert "waiting to be sent" in page.locator("#rounds tr.note").first.inner_text()
    shot(page, "offline", full=False)
    page.reload()  # no connection: the service worker serves the page, the entries stay
    page.wait_for_selector("#rounds tr.round[data-round='2']")
    assert totals(page) == {"Ann": 64, "Bob": 36, "Cy": 50}
    assert stored_offline_count(page) == 3
    page.tap("#share")  # asked for before the game reached the server: its code comes later
    assert "as soon as this game reaches the server" in page.inner_text("#share-box")
    phone.set_offline(False)
    settled(page)
    page.wait_for_selector("#sync-status[data-state='ok']")
    code = page.inner_text("#share-code")  # the box stayed open and got it, without a tap
    assert page.input_value("#share-link").endswith(f"/keeper/#/shared/{code}")
    [kept] = stored(page, server)
    assert kept["rounds"] == 2 and kept["revision"] == 3
    assert kept["sheet"]["results"]["totals"] == {"Ann": 64, "Bob": 36, "Cy": 50}
    assert "not the lowest" in page.locator("#rounds tr.note").first.inner_text()  # the server's


def stored_offline_count(page: Any) -> int:
    data = json.loads(page.evaluate("localStorage.getItem('cardroom.keeper.v1')"))
    return sum(len(g["pending"]) for g in data["games"].values())


def test_an_entry_whose_answer_was_lost_is_sent_again_and_counted_once(
    phone_without_worker, server
):
    page = phone_without_worker.new_page()
    name_myself(page)
    new_game(page, "skyjo", PLAYERS[:2])
    settled(page)
    lost: list[str] = []

    def answer_lost(route: Any) -> None:
        route.fetch()  # the server applies the entry...
        lost.append(route.request.post_data_json["entry"])
        route.abort("connectionreset")  # ...but the phone never hears so

    page.route("**/api/keeper/games/*/rounds", answer_lost, times=1)
    skyjo_round(page, [9, 3], "Bob", PLAYERS[:2])
    settled(page)  # sent again by the page's retry, and recognised by its entry id
    [kept] = stored(page, server)
    assert len(lost) == 1
    assert kept["rounds"] == 1 and kept["revision"] == 2, "the entry counted twice"
    assert totals(page) == {"Ann": 9, "Bob": 3}


def test_my_kept_games_are_listed_on_the_keeper_page_and_in_my_profile(phone, second_phone, server):
    page = phone.new_page()
    name_myself(page, "Kim")
    new_game(page, "skyjo", PLAYERS[:2])
    skyjo_round(page, [7, 3], "Bob", PLAYERS[:2])
    settled(page)
    page.goto("/keeper/#/")
    page.wait_for_selector("#my-games .game-link")
    assert "Ann, Bob" in page.inner_text("#my-games") and "1 round" in page.inner_text("#my-games")
    me = json.loads(page.evaluate("localStorage.getItem('cardroom.player')"))
    page.goto(f"/league/profile.html?id={me['id']}")
    page.wait_for_selector("#kept-games li")
    assert "Skyjo: Ann, Bob · 1 round" in page.inner_text("#kept-games")
    page.click("#kept-games a")
    page.wait_for_selector("#rounds tr.round[data-round='1']")
    assert totals(page) == {"Ann": 7, "Bob": 3}
    # The same player on another phone (signed in there): the game comes from the server.
    token = page.evaluate("localStorage.getItem('cardroom.token')")
    identity = json.dumps({"cardroom.token": token, "cardroom.player": json.dumps(me)})
    second_phone.add_init_script(
        f"if (location.protocol.startsWith('http')) for (const [k, v] of "
        f"Object.entries({identity})) localStorage.setItem(k, v);"
    )
    other = second_phone.new_page()
    other.goto("/keeper/")
    other.wait_for_selector("#my-games .game-link")
    assert "1 round · Bob leads" in other.inner_text("#my-games")  # from the summary's leaders
    other.click("#my-games .game-link")
    other.wait_for_selector("#rounds tr.round[data-round='1']")
    assert totals(other) == {"Ann": 7, "Bob": 3}
