"""The rules pages: the repository's rule books rendered by the server (one source), every rule
an anchor a refusal can link to; and the small Markdown renderer behind them."""

from __future__ import annotations

import httpx
import pytest

from cardroom.server import markdown
from cardroom.server.rules_routes import links_from


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
    skyjo = markdown.render("As Skip's R6.2 and [Skip](rules.md#R6.2).", links_from("skyjo"))
    assert skyjo.count('href="/rules/skip#R6.2"') == 2


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
async def test_the_server_serves_both_rule_books_with_every_rule_anchored(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        skip = await http.get("/rules/skip")
        assert skip.status_code == 200 and skip.headers["content-type"].startswith("text/html")
        assert "content-security-policy" in skip.headers
        for rule in ("R1.1", "R4.4", "R5.2", "R6.2", "R7.5"):
            assert f'id="{rule}"' in skip.text
        assert "<title>The rules of Skip · Cardroom</title>" in skip.text
        skyjo = await http.get("/rules/skyjo")
        assert 'id="S2.2"' in skyjo.text and 'id="S4.3"' in skyjo.text
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
        chosen = await http.get("/rules/skyjo?lang=pl")  # the reader's choice, remembered
        assert "Zasady gry Skyjo" in chosen.text and 'id="S4.3"' in chosen.text
        assert chosen.cookies.get("cardroom_lang") == "pl"
        http.cookies.clear()
        french = await http.get("/rules/skyjo", cookies={"cardroom_lang": "fr"})
        assert "Les règles du Skyjo" in french.text and "défausse" in french.text
        http.cookies.clear()
        english = await http.get("/rules/skip", headers={"accept-language": "it"})
        assert '<html lang="en">' in english.text and "The rules of Skip" in english.text
