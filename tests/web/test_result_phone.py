"""A match's result on a phone with a lot of news (six achievements and a rating change): its
buttons stay in view, the news is one line that opens, and a win's confetti falls behind the
text. Both games' results, drawn by their own code from a match's facts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import ui
from .conftest import PHONE, _open_page

pytestmark = pytest.mark.browser

RESULT = """async (game) => {
  const awards = await import("/js/render/awards.js");
  const mod = game === "skyjo"
    ? await import("/js/games/skyjo/overlays.js") : await import("/js/render/overlays.js");
  const achievement = (id, name) => ({ kind: "achievement", seat: 0,
    detail: { player: { name: "Ala" }, achievement: { id, name, description: "A test's." } } });
  const model = {
    name: (seat) => ["Ala", "Bob"][seat], mySeat: 0, forfeit: null, roundHistory: [],
    view: { players: 2, end_score: 100, options: {} },
    awards: [
      ...["first_match", "first_win", "clean_sweep", "comeback", "marathon", "night_owl"]
        .map((id) => achievement(id, id.replace("_", " "))),
      { kind: "rating", seat: 0, detail: { mode: "2p", before: 0, after: 5.1 } },
    ],
  };
  const detail = { winners: [0], scores: game === "skyjo" ? [12, 104] : [520, 95], hints: [0, 0],
    match: "m_test" };
  const done = { rematch: null, onLobby() {}, onClose() {} };
  const said = (event) => event.detail.achievement?.name ?? "rating";
  const card = mod.matchResult(model, detail, done, said);
  document.querySelector("#result-test")?.remove();
  const box = document.createElement("div");
  box.className = "overlay";
  box.id = "result-test";
  box.append(card);
  document.body.append(box);
  return awards.awardsLine(model);
}"""


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.parametrize("game", ["skip", "skyjo"])
def test_a_result_with_much_news_keeps_its_buttons_in_view_on_a_phone(
    browser: Any, server: str, artifacts: Path, game: str
) -> None:
    for page in _open_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True):
        ui.sign_in(page, "Ala")
        line = page.evaluate(RESULT, game)
        assert line == "★ 6 achievements · ▲ +5.1 rating"
        news = page.locator("#match-awards-box")
        assert news.get_attribute("open") is None  # folded: a count that opens
        assert news.locator("summary").inner_text() == line
        lobby = "#result-test .actions button >> nth=-1"
        assert in_view(page, lobby)
        page.screenshot(path=artifacts / f"result-news-folded-{game}-phone.jpg")
        news.locator("summary").tap()
        assert news.locator("li").count() == 7
        assert in_view(page, lobby)  # the list is long; the buttons stay at the card's foot
        page.screenshot(path=artifacts / f"result-news-open-{game}-phone.jpg")
        # A win's confetti falls behind the result's text, never over it.
        layers = page.evaluate(
            """async () => {
              const { celebrate } = await import("/js/anim.js");
              celebrate();
              const confetti = document.querySelector(".celebration");
              const overlay = document.querySelector("#result-test");
              return [Number(getComputedStyle(confetti).zIndex),
                      Number(getComputedStyle(overlay).zIndex)];
            }"""
        )
        assert layers[0] < layers[1], layers
