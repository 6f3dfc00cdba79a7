"""The rules pages as players read them (web/rules/<lang>/, server/rules_routes.py): a quick
start first, with three pictures drawn by the game's own card renderers; every rule id of the
engineers' books (docs/rules.md, docs/skyjo-rules.md) a small anchor a refusal can land on; no
engineering words; in every language, on a phone and a desktop, with nothing sideways and no
serious accessibility finding. Screenshots: test-artifacts/rules-<game>-<lang>-<size>[-full].jpg."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.server.i18n import LANGUAGES

from .conftest import DESKTOP, PHONE
from .test_a11y import violations
from .test_i18n import CUT_OFF, assert_no_english

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
SPEC = {
    game: re.findall(r"^- \*\*([RS]\d+\.\d+)\*\*", (DOCS / book).read_text(), re.MULTILINE)
    for game, book in (("skip", "rules.md"), ("skyjo", "skyjo-rules.md"))
}
"""Every rule id of the engineers' books: the ids refusals carry."""
ENGINEERING = ("src/", "IllegalMove", "test_", "[project]", ".py", "docs/")
SIZES = {"desktop": DESKTOP, "phone": PHONE}

PAGE_FACTS = """() => {
  const text = document.querySelector(".rules-text");
  const sections = [...text.querySelectorAll("h2")];
  const quick = sections[0];
  const inQuickStart = (el) => quick.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING
    && !(sections[1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return {
    lang: document.documentElement.lang,
    first: quick.id,
    figures: [...text.querySelectorAll("figure")].map((f) => ({
      cards: f.querySelectorAll(".cards-art .card, .cards-art .sk-card").length,
      role: f.querySelector(".cards-art").getAttribute("role"),
      label: f.querySelector(".cards-art").getAttribute("aria-label") || "",
      caption: f.querySelector("figcaption").textContent.trim(),
      quickStart: Boolean(inQuickStart(f)),
      fits: [f, ...f.querySelectorAll(".card, .sk-card")]
        .every((el) => el.getBoundingClientRect().right <= innerWidth),
    })),
    anchors: [...text.querySelectorAll("a.rule-id")].map((a) => a.getAttribute("href").slice(1)),
    ids: [...text.querySelectorAll("[id]")].map((el) => el.id),
    words: document.body.innerText,
    sideways: document.documentElement.scrollWidth - innerWidth,
    hidden: [...document.querySelectorAll(".topbar a, .topbar summary")].filter((a) => {
      if (!a.checkVisibility()) return false;
      const r = a.getBoundingClientRect();
      const nav = a.closest(".topbar-status");
      const box = nav ? nav.getBoundingClientRect() : { left: 0, right: innerWidth };
      return r.left < Math.max(0, box.left) - 1 || r.right > Math.min(innerWidth, box.right) + 1;
    }).map((a) => a.textContent.trim()),
  };
}"""


@pytest.fixture(params=list(SIZES))
def reader(request: Any, browser: Any, server: str) -> Iterator[tuple[str, Any]]:
    """A page at a phone's or a desktop's size that axe may be injected into (bypass_csp, as
    tests/web/test_a11y.py does); fails on any JavaScript error."""
    size = request.param
    phone = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    context = browser.new_context(
        viewport=SIZES[size], base_url=server, bypass_csp=True, reduced_motion="reduce", **phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield size, page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_every_rules_page_starts_with_a_quick_start_drawn_in_cards_and_anchors_every_rule(
    reader: tuple[str, Any], artifacts: Path
) -> None:
    size, page = reader
    for lang in LANGUAGES:
        for game, rules in SPEC.items():
            page.goto(f"/rules/{game}?lang={lang}")
            page.wait_for_function(
                "() => document.querySelectorAll('.cards-art[data-drawn]').length"
                " === document.querySelectorAll('.cards-art').length"
            )
            page.screenshot(path=artifacts / f"rules-{game}-{lang}-{size}.jpg")
            page.screenshot(path=artifacts / f"rules-{game}-{lang}-{size}-full.jpg", full_page=True)
            facts = page.evaluate(PAGE_FACTS)
            where = f"{game} in {lang} at {size}"
            assert facts["lang"] == lang, where
            assert facts["first"] == "quick-start", where
            figures = facts["figures"]
            assert len(figures) == 3 and all(f["quickStart"] for f in figures), where
            for figure in figures:
                assert figure["cards"] >= 3 and figure["role"] == "img", (where, figure)
                assert len(figure["label"]) > 30 and len(figure["caption"]) > 20, (where, figure)
                assert figure["fits"], (where, figure)
            assert sorted(facts["anchors"]) == sorted(rules), where  # each rule once, no other
            assert set(rules) <= set(facts["ids"]), where
            assert [w for w in ENGINEERING if w in facts["words"]] == [], where
            assert facts["sideways"] <= 0, where
            assert facts["hidden"] == [], where  # the top bar's links show whole
            if size == "phone":
                assert page.evaluate(CUT_OFF) == [], where
            if lang != "en":
                assert_no_english(page, lang)
            assert violations(page) == [], where


def test_a_refusals_rule_link_lands_on_its_sentence_on_a_phone(
    browser: Any, server: str, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto("/rules/skip?lang=de#R4.4")  # the link js/rule-link.js makes, in German
        sentence = page.locator('[id="R4.4"]')
        sentence.wait_for()
        assert page.evaluate("document.getElementById('R4.4').matches(':target')")
        assert "Ablagestapel" in sentence.inner_text()
        box = sentence.bounding_box()
        assert box is not None and 0 < box["y"] < PHONE["height"] / 2  # under the top bar
        page.goto("/rules/skyjo#S6.3")  # the score keeper's Skip, which names Skip's scoring
        assert page.evaluate("document.querySelector(':target')?.id") == "S6.3"
        page.screenshot(path=artifacts / "rules-target-phone.jpg")
        page.click("a.rule-ref[href='/rules/skip#R6.2']")  # another book's rule: its page
        page.wait_for_url("**/rules/skip#R6.2")
        assert page.evaluate("document.getElementById('R6.2').matches(':target')")
    finally:
        context.close()


def test_before_the_cards_are_drawn_the_pictures_say_what_they_show(
    browser: Any, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto("/rules/skyjo?lang=fr")
        words = page.locator(".cards-art .cards-words")
        assert words.count() == 3
        assert all(len(text) > 30 for text in words.all_inner_texts())
        assert page.locator(".cards-art .sk-card").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_on_a_phone_the_languages_fold_into_a_menu_that_switches_the_book(
    browser: Any, server: str, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto("/rules/skyjo?lang=en")
        assert not page.is_visible(".topbar nav.rules-langs")
        page.tap(".rules-langs-menu summary")
        page.locator(".rules-langs-menu nav a[hreflang=fr]").wait_for()
        page.screenshot(path=artifacts / "rules-languages-phone.jpg")
        page.tap(".rules-langs-menu nav a[hreflang=fr]")
        page.wait_for_url("**/rules/skyjo?lang=fr")
        assert page.get_attribute("html", "lang") == "fr"
        assert page.inner_text("#quick-start") == "Démarrage rapide"
    finally:
        context.close()
