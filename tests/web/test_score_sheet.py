"""Between Skyjo's rounds, on a phone and a desktop: the round's summary waits for the
player's "Continue" (the server's round pause is only its cap), and the score sheet beside the
table keeps every round scored, through a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import skyjo_ui as sk
from . import ui
from .conftest import DESKTOP, PHONE, _open_page, serve

pytestmark = pytest.mark.browser

SIZES = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": DESKTOP},
}


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose round summaries wait up to ten minutes: only "Continue" deals on."""
    yield from serve(tmp_path_factory.mktemp("patient-server"), CARDROOM_ROUND_PAUSE="600")


def sheet_rows(page: Any) -> list[str]:
    return page.locator("#side-sheet tbody tr.round").all_text_contents()


@pytest.mark.parametrize("size", SIZES)
def test_the_summary_waits_for_continue_and_the_sheet_keeps_every_round(
    browser: Any, patient_server: str, artifacts: Path, size: str
) -> None:
    touch = size == "phone"
    for page in _open_page(browser, patient_server, reduced_motion="reduce", **SIZES[size]):
        ui.sign_in(page, "Sheet")
        sk.choose_skyjo(page)
        # To 500: whatever the first round scores, the game goes on.
        ui.bot_table(page, bots=1, game="skyjo", options={"end_score": 500})
        assert page.locator("#side-sheet").count() == 0  # nothing scored yet
        # Each grid says what its numbers are: the face-up sum now, the game's total.
        line = page.locator(".sk-seat.mine .sk-line").inner_text()
        assert re.fullmatch(r"face up -?\d+\s*total -?\d+\s*(▶.*)?", line.strip(), re.S), line
        steps = 0
        while sk.wait_my_turn_or_end(page) and not page.locator("#round-summary").count():
            sk.play_turn_step(page, steps, touch=touch)
            steps += 1
            assert steps < 300
        assert page.locator("#match-result").count() == 0, "round 1 ended the game"
        summary = page.locator("#round-summary")
        text = summary.inner_text()
        assert "Round 1 is over" in text
        left = int(re.search(r"Next round in (\d+) s", text).group(1))
        assert left > 60, text  # the cap, not a deadline to read against
        button = page.locator("#round-summary #continue")
        box, screen = button.bounding_box(), page.viewport_size
        assert box["y"] >= 0 and box["y"] + box["height"] <= screen["height"], box
        assert box["height"] >= 44  # a finger's size
        page.screenshot(path=artifacts / f"skyjo-continue-{size}.jpg")
        # The round's points, as the summary shows them, go on the sheet.
        points = summary.locator("tbody tr td:nth-child(3)").all_text_contents()
        (button.tap if touch else button.click)()
        summary.wait_for(state="detached")  # dealt at once: nobody else to wait for
        page.wait_for_function(
            "() => /^Round 2/.test(document.querySelector('.scores h2')?.innerText ?? '')"
        )
        rows = sheet_rows(page)
        assert len(rows) == 1 and rows[0].startswith("1")
        cells = page.locator("#side-sheet tbody tr.round td")
        assert [c.split()[0] for c in cells.all_text_contents()] == [
            re.sub(r"^×2 = ", "", p).split()[0] for p in points
        ]
        assert page.locator("#side-sheet tbody td.closer").count() == 1  # who closed
        if touch:  # folded on a phone, a tap away
            page.locator(".sheet-box > summary").tap()
        page.locator("#side-sheet").scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"skyjo-sheet-{size}.jpg")
        page.reload()  # the sheet comes from the server: nothing is lost with the page
        page.wait_for_selector("#side-sheet", state="attached")
        assert sheet_rows(page) == rows
