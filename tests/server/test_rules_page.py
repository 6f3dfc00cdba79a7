"""The rules pages: the players' rule books (web/rules/<lang>/) rendered by the server, every
rule of the engineers' books (docs/) an anchor a refusal can link to; and the small Markdown
renderer behind them, with its rule marks and its pictures of cards."""

from __future__ import annotations

import html as entities
import json
import re
from pathlib import Path

import httpx
import pytest

from cardroom.server import markdown
from cardroom.server.rules_routes import book, links_from, page

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_a_rule_paragraph_gets_its_id_as_anchor_and_rules_named_in_text_link_to_theirs():
    html = markdown.render(
        "## R4 A turn\n\n- **R4.1** A turn starts by drawing (R5.4),\n  then *plays*.\n"
    )
    assert '<h2 id="R4">R4 A turn</h2>' in html
    assert '<li id="R4.1" class="rule"><a class="rule-id" href="#R4.1">R4.1</a>' in html
    assert 'drawing (<a href="#R5.4">R5.4</a>), then <em>plays</em>.' in html


def test_text_is_escaped_and_code_is_left_alone():
    html = markdown.render("A <script>alert(1)</script> & `R5.2 <b>` stays code.")
    assert "<script>" not in html and "&lt;script&gt;" in html and "&amp;" in html
    assert "<code>R5.2 &lt;b&gt;</code>" in html


def test_tables_and_links_into_the_site():
    html = markdown.render(
        "| rule | why |\n|---|---|\n| R2.1 | see [the notation](docs/notation.md) |\n",
        links_from("skip"),
    )
    assert '<th scope="col">rule</th>' in html and '<td><a href="#R2.1">R2.1</a></td>' in html
    assert "see the notation" in html  # a path into the repository: text, not a dead link
    skyjo = markdown.render(
        "As Skip's R6.2, {R6.2} and [Skip](skip.md#R6.2); the [keeper](/keeper/).",
        links_from("skyjo"),
    )
    assert skyjo.count('href="/rules/skip#R6.2"') == 3
    assert '<a class="rule-ref" href="/rules/skip#R6.2">R6.2</a>' in skyjo
    assert '<a href="/keeper/">keeper</a>' in skyjo  # the site's own page stays a link


def test_a_rule_mark_anchors_the_sentence_that_states_it():
    html = markdown.render(
        "## Quick start {#quick-start}\n\n"
        "- A pile takes the next number. {#R5.2}\n"
        "- Empty places take a 1 {#R5.1}, and twelve clears a pile. {#R5.3}\n\n"
        "1. Draw to five.\n2. Play,\n   then discard. {R4.4}\n\nEnd your turn. {#R4.4}\n"
    )
    assert '<h2 id="quick-start">Quick start</h2>' in html
    assert (
        '<li id="R5.2" class="rule">A pile takes the next number. '
        '<a class="rule-id" href="#R5.2">R5.2</a></li>'
    ) in html
    # A second rule in one sentence: the small link itself is its anchor.
    assert '<li id="R5.1" class="rule">' in html
    assert '<a class="rule-id" id="R5.3" href="#R5.3">R5.3</a>' in html
    assert '<ol><li>Draw to five.</li><li>Play, then discard. <a class="rule-ref"' in html
    assert '<p id="R4.4" class="rule">End your turn.' in html


def test_a_figure_is_a_scene_of_cards_with_its_words():
    html = markdown.render(
        "```figure\ngame: skip\nalt: A 4 goes on 1, 2, 3 <b>.\ncaption: The **next** number.\n"
        "piles 1 2 3 +4, 5 W=6, _ | Building piles\narrow\nhand 3 W | Your hand\n```\n"
    )
    assert html.startswith('<figure class="cards-figure" data-game="skip">')
    assert '<p class="cards-words">A 4 goes on 1, 2, 3 &lt;b&gt;.</p>' in html
    assert "<figcaption>The <strong>next</strong> number.</figcaption>" in html
    found = re.search(r'data-scene="([^"]+)"', html)
    assert found is not None
    scene = json.loads(entities.unescape(found[1]))
    assert scene["game"] == "skip"
    assert [part["kind"] for part in scene["parts"]] == ["piles", "arrow", "hand"]
    assert scene["parts"][0]["label"] == "Building piles"
    assert scene["parts"][0]["piles"] == [
        [{"v": 1}, {"v": 2}, {"v": 3}, {"v": 4, "mark": True}],
        [{"v": 5}, {"v": "W", "as": 6}],
        [{"v": "_"}],
    ]
    grid = markdown.render("```figure\ngame: skyjo\nalt: a grid\ncaption: c\ngrid -2 # / _ 12\n```")
    assert "&quot;v&quot;:-2" in grid


@pytest.mark.parametrize(
    "part",
    ["tower 1 2", "hand 13", "grid 1 2 / 3", "stock 1 2", "piles 1, ", "hand 5=6", "hand"],
)
def test_a_figure_the_renderer_cannot_draw_is_refused(part: str) -> None:
    with pytest.raises(ValueError):
        markdown.render(f"```figure\ngame: skip\nalt: a\ncaption: c\n{part}\n```")


def spec_ids(book: str) -> list[str]:
    """The rule ids of an engineers' book (docs/rules.md, docs/skyjo-rules.md)."""
    text = (DOCS / book).read_text(encoding="utf-8")
    return re.findall(r"^- \*\*([RS]\d+\.\d+)\*\*", text, re.MULTILINE)


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
async def test_the_server_serves_both_rule_books_with_every_rule_anchored(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        for game, book in (("skip", "rules.md"), ("skyjo", "skyjo-rules.md")):
            page = await http.get(f"/rules/{game}")
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            assert "content-security-policy" in page.headers
            assert '<script type="module" src="/js/rules-page.js"></script>' in page.text
            for rule in spec_ids(book):
                assert f'id="{rule}"' in page.text, (game, rule)
            assert page.text.count('class="cards-figure"') == 3
            first = re.search(r'<h2 id="([^"]+)"', page.text)
            assert first is not None and first[1] == "quick-start"
            for word in ("src/", "IllegalMove", "test_", "[project]"):
                assert word not in page.text, (game, word)
        skip = await http.get("/rules/skip")
        assert "<title>The rules of Skip · Cardroom</title>" in skip.text
        assert (await http.get("/rules", follow_redirects=False)).headers["location"] == (
            "/rules/skip"
        )
        unknown = await http.get("/rules/chess")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
async def test_the_rules_read_in_the_readers_language_with_the_same_rule_anchors(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        german = await http.get("/rules/skip", headers={"accept-language": "de-DE,de;q=0.9"})
        assert '<html lang="de">' in german.text
        assert "<title>Die Regeln von Skip · Cardroom</title>" in german.text
        assert "Aufbaustapel" in german.text and 'id="R5.2"' in german.text
        assert ">Schnellstart</h2>" in german.text
        chosen = await http.get("/rules/skyjo?lang=pl")  # the reader's choice, remembered
        assert "Zasady gry Skyjo" in chosen.text and 'id="S4.3"' in chosen.text
        assert chosen.cookies.get("cardroom_lang") == "pl"
        http.cookies.clear()
        http.cookies.set("cardroom_lang", "fr")
        french = await http.get("/rules/skyjo")
        assert "Les règles du Skyjo" in french.text and "défausse" in french.text
        http.cookies.clear()
        english = await http.get("/rules/skip", headers={"accept-language": "it"})
        assert '<html lang="en">' in english.text and "The rules of Skip" in english.text


def test_a_language_without_its_book_reads_the_english_one_and_says_so(tmp_path: Path) -> None:
    for lang in ("en", "de"):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "skip.md").write_text(f"# {lang}\n\nWin. {{#R6.1}}\n", "utf-8")
    assert book(tmp_path, "skip", "de") == (tmp_path / "de" / "skip.md", True)
    assert book(tmp_path, "skip", "en") == (tmp_path / "en" / "skip.md", True)
    english, theirs = book(tmp_path, "skip", "pl")
    assert (english, theirs) == (tmp_path / "en" / "skip.md", False)
    polish = page("skip", english, 0, "pl", theirs)
    assert '<html lang="en">' in polish and '<p class="rules-note" lang="pl">' in polish
    assert "nie są jeszcze przetłumaczone" in polish and 'id="R6.1"' in polish
