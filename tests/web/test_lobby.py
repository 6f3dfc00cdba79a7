"""The lobby with two people: a private table found by its name, the public list, watching."""

from __future__ import annotations

from typing import Any

import pytest

from . import ui

pytestmark = pytest.mark.browser


def test_two_people_meet_at_a_private_table_by_its_name(page: Any, second_page: Any) -> None:
    ada, bob = page, second_page
    ui.sign_in(ada, "Ada")
    ui.open_house_rules(ada)
    ada.locator("#create-form select[name=visibility]").select_option("private")
    ada.fill("#create-form input[name=table-name]", "friday-night")
    ada.click("#create-table")
    ada.wait_for_selector("#waiting-title")
    assert "friday-night" in ada.inner_text("#waiting-title")

    ui.sign_in(bob, "Bob")
    bob.fill("#join-form input[name=join-name]", "friday-night")
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector(".seat-row >> text=Bob (you)")
    # Ada sees Bob sit down without reloading (a `table` message).
    ada.wait_for_selector(".seat-row >> text=Bob")
    ada.click("#start")
    for person in (ada, bob):
        person.wait_for_selector("#board")
    # Exactly one of them may play, and the other sees whose turn it is.
    turns = [p.get_attribute("#board", "data-my-turn") for p in (ada, bob)]
    assert sorted(turns) == ["false", "true"]
    waiting = bob if turns[0] == "true" else ada
    assert "turn" in waiting.inner_text("#turn-status")


def test_a_public_table_is_listed_and_can_be_watched(page: Any, second_page: Any) -> None:
    host, watcher = page, second_page
    ui.sign_in(host, "Host")
    ui.open_house_rules(host)
    host.click("#create-table")  # public by default
    host.wait_for_selector("[data-add-bot]")
    host.click("[data-add-bot]")
    host.wait_for_selector(".seat-row.taken >> nth=1")
    host.click("#start")
    host.wait_for_selector("#board")
    table_id = host.evaluate("location.hash").split("/")[-1]

    ui.sign_in(watcher, "Watcher")
    row = watcher.locator(f'[data-table="{table_id}"]')
    row.wait_for()
    row.get_by_role("button", name="Watch").click()
    watcher.wait_for_selector("#board")
    assert watcher.locator(".table-title .badge", has_text="Watching").is_visible()
    assert watcher.locator('[data-src="hand"]').count() == 0  # nobody sees a hand (R7.2)
    assert watcher.locator(".seat-panel").count() == 2


def test_a_private_table_opens_by_its_invite_link_and_not_by_its_id(
    page: Any, second_page: Any
) -> None:
    ada, bob = page, second_page
    ui.sign_in(ada, "Ada")
    ui.open_house_rules(ada)
    ada.locator("#create-form select[name=visibility]").select_option("private")
    ada.click("#create-table")
    ada.wait_for_selector("#waiting-title")
    link = ada.locator(".waiting code").inner_text()
    table_id = ada.evaluate("location.hash").split("/")[-1]
    assert f"#/table/{table_id}?invite=" in link

    ui.sign_in(bob, "Bob")
    bob.goto(f"/#/table/{table_id}")  # the id alone: as if it did not exist
    bob.wait_for_selector("text=This table cannot be opened")
    bob.goto(link)
    bob.reload()  # the hash changed only: open it afresh, as a click on the link would
    bob.wait_for_selector(".seat-row >> text=Empty seat")
    bob.get_by_role("button", name="Sit here").first.click()
    bob.wait_for_selector(".seat-row >> text=Bob (you)")
    ada.wait_for_selector(".seat-row >> text=Bob")


def test_each_level_shows_its_measured_rating_in_quick_play(page: Any) -> None:
    """The levels were rated against each other (``cardroom calibrate``): the strength list
    and the line under it say how strong each one plays, on the league's scale."""
    ui.sign_in(page, "Lea")
    options = page.locator("#qp-level option").all_inner_texts()
    assert [o.split(" · ")[0] for o in options] == ["Beginner", "Easy", "Medium", "Hard", "Master"]
    # In words a newcomer reads ("Easy · relaxed"); the number is in the line under it.
    assert [o.split(" · ")[1] for o in options] == [
        "new to the game",
        "relaxed",
        "a fair game",
        "strong",
        "the strongest",
    ]
    page.select_option("#qp-level", "beginner")
    note = page.inner_text("#qp-level-note")
    assert note.startswith("Plays its stock card whenever it fits") and "Rated" in note
    assert "calibration games" in note
