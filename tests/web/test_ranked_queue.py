"""Two people queue for a ranked match, are matched by rating, play, and see each other's
division badges (lobby, seats, the people at the table) and card back; the profile shows the
divisions, the career by mode and the rewards. Screenshots in test-artifacts/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from cardroom.league.models import Rating, Unlock
from cardroom.store.database import open_engine
from tests.resources import free_port, wait_until_serving

from . import ui
from .conftest import PHONE, _open_page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def league_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server of this module's own, with its database at hand (to give people ratings)."""
    tmp = tmp_path_factory.mktemp("queue-server")
    port = free_port()
    db = f"sqlite:///{tmp}/queue.db"
    env = {**os.environ, "CARDROOM_BOT_DELAY": "0.05", "CARDROOM_LOG_LEVEL": "warning"}
    env["CARDROOM_LADDER_ENFORCED"] = "0"  # guests from one address (tests/league: the ladder)
    log = tmp / "server.log"
    command = [sys.executable, "-m", "cardroom.cli", "serve", "--port", str(port), "--db", db]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    engine = None
    try:
        wait_until_serving(url, process, log)
        engine = open_engine(db)
        yield url, engine
    finally:
        if engine is not None:
            engine.dispose()
        process.terminate()
        process.wait(timeout=10)


def settled(engine: Any, player: str, rating: float) -> None:
    """The player has played their placement matches in 2p: a division (bands in docs)."""
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            insert(Rating).values(
                subject=player,
                game="skip",
                mode="2p",
                mu=rating + 6.0,
                sigma=2.0,
                ordinal=rating,
                matches=12,
                updated_at=now,
            )
        )


def player_id(page: Any) -> str:
    return page.evaluate("JSON.parse(localStorage.getItem('cardroom.player')).id")


def test_two_people_queue_are_matched_play_and_see_their_badges(
    browser: Any, league_server: tuple[str, Any], artifacts: Path
) -> None:
    url, engine = league_server
    ada_pages = _open_page(browser, url, reduced_motion="reduce")
    bob_pages = _open_page(browser, url, viewport=PHONE, has_touch=True, reduced_motion="reduce")
    ada, bob = next(ada_pages), next(bob_pages)
    ui.sign_in(ada, "Ada")
    ui.sign_in(bob, "Bob")
    ada_id, bob_id = player_id(ada), player_id(bob)
    settled(engine, ada_id, 18.4)  # Gold
    settled(engine, bob_id, 17.6)  # Gold too: near enough to be matched at once
    with engine.begin() as conn:  # Ada has earned the Gold card back: she wears it
        conn.execute(
            insert(Unlock).values(
                player_id=ada_id, item="gold", reason="division:gold", unlocked_at=datetime.now(UTC)
            )
        )

    ada.goto(f"/league/profile.html?id={ada_id}")
    ada.click('#rewards [data-item="gold"] button.wear')
    ada.wait_for_selector('#rewards [data-item="gold"].worn')
    ada.wait_for_selector('#divisions [data-mode="2p"] .division-badge[data-division="gold"]')
    ada.screenshot(path=artifacts / "ranked-profile-rewards.jpg", full_page=True)

    ada.goto("/")
    ada.select_option("#queue-mode", "2p")
    ada.select_option("#queue-bot", "")  # never a bot
    ada.click("#find-people")
    ada.wait_for_selector("#queue-status >> text=Looking for players near 18.4")
    ada.locator("#ranked-queue").scroll_into_view_if_needed()
    ada.screenshot(path=artifacts / "ranked-queue-lobby.jpg")

    bob.select_option("#queue-mode", "teams")  # the partner field shows for teams only
    bob.locator("#ranked-queue").scroll_into_view_if_needed()
    bob.screenshot(path=artifacts / "ranked-queue-lobby-phone.jpg")
    bob.select_option("#queue-mode", "2p")
    bob.click("#find-people")
    ada.wait_for_selector("#board")
    bob.wait_for_selector("#board")

    # Each sees the other's division badge at the table, and Ada's stock in her card back.
    bob.wait_for_selector('.seat-panel .division-badge[data-division="gold"]')
    bob.wait_for_selector(".seat-panel .pile.stock.back-gold")
    ada.wait_for_selector('.seat-panel .division-badge[data-division="gold"]')
    ada.wait_for_selector('#present .division-badge[data-division="gold"]')
    assert ada.locator(".mine-area .pile.stock.back-gold").count() == 1

    # They play: whoever's turn it is moves, and the other sees the move.
    for _ in range(2):
        mover = ada if ada.get_attribute("#board", "data-my-turn") == "true" else bob
        other = bob if mover is ada else ada
        before = ui.seq(other)
        ui.click_move(mover, ui.choose(ui.legal(mover)), check_assist=False)
        ui.wait_seq_after(other, before)
    ada.screenshot(path=artifacts / "ranked-table-badges-desktop.jpg")
    bob.screenshot(path=artifacts / "ranked-table-badges-phone.jpg")
    seat = ada.locator("#present .present-who", has_text="(you)").get_attribute("data-seat")
    my_rating = f"#present .present-who[data-seat='{seat}'] .present-rating"
    before = float(ada.get_attribute(my_rating, "data-rating") or "nan")

    # Bob leaves the ranked match and loses it: Ada's result says her new rating, and the
    # people at the table (read again once the news came) say the same, not the old one.
    bob.click("#leave-table")
    ada.wait_for_selector(".award.rating.mine", state="attached")
    news = ada.text_content(".award.rating.mine") or ""
    after = float(re.findall(r"→\s*(-?\d+(?:\.\d+)?)", news)[0])  # "rating 18.4 → 18.7 …"
    assert after > before
    ada.wait_for_function(
        "([selector, after]) => Math.abs(Number(document.querySelector(selector)"
        "?.dataset.rating) - after) < 0.05",
        arg=[my_rating, after],
    )
    assert ada.text_content(my_rating) == f"rating {after:.1f}"

    # The leaderboards page has a board per division.
    bob.goto("/league/index.html?board=division:gold&mode=2p")
    bob.wait_for_selector("#caption >> text=Gold division")
    for pages in (ada_pages, bob_pages):
        next(pages, None)  # closes the context, failing on any JavaScript error
