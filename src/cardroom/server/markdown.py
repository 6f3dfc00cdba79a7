"""A small Markdown-to-HTML renderer for the players' rule books (``web/rules/<lang>/*.md``),
served as the rules pages (``/rules/skip``, ``/rules/skyjo``).

It knows what those books use: ``#`` headings (``## Quick start {#quick-start}`` names its
anchor), paragraphs, ``-`` and ``1.`` lists with indented continuation lines, pipe tables,
``**bold**``, ``*italic*``, `` `code` ``, ``[links](…)``, and two marks of its own:

- ``{#R4.4}``, a rule's anchor: a small link after the sentence that states rule R4.4, its
  paragraph or list item the target of ``#R4.4`` (a refusal naming a rule links there);
  ``{R4.4}`` is a small link to a rule stated elsewhere.
- a ```` ```figure ```` block, a picture of cards (``figure()``), drawn in the browser by the
  game's own card renderers (``web/js/rules-page.js``) and described in words until then.

Everything is escaped first. A list item opening with ``**R4.4**`` and a heading such as
``## R4 A turn`` also take the rule id as their anchor, as the engineers' books write them.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

RULE_ID = re.compile(r"^\*\*([A-Z]\d+(?:\.\d+)?)\*\*")
MENTION = re.compile(r"\b([RS][1-9]\.\d{1,2})\b")  # a rule named in the text: R5.4, S2.2
GROUP_ID = re.compile(r"^([A-Z]\d+)\s")
HEADING_ID = re.compile(r"\s*\{#([\w-]+)\}$")
ORDERED = re.compile(r"^\d+\. ")
INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\{(?P<anchor>#?)(?P<rule>[A-Z]\d+\.\d+)\}"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|\*(?P<em>[^*\s][^*]*?)\*"
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)"
)
FIRST_ANCHOR = re.compile(r'<a class="rule-id" id="([^"]+)"')
FENCE = "```"

Links = Callable[[str], str | None]
"""Where a link of the document points on the site (None: shown as text only)."""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def plain(text: str, links: Links, rules: bool = True) -> str:
    """Escaped text; the rules it names (R5.4) link to their paragraphs (``links("#R5.4")``)."""
    escaped = html.escape(text, quote=False)
    if not rules:
        return escaped
    return MENTION.sub(lambda m: f'<a href="{links("#" + m[1]) or "#" + m[1]}">{m[1]}</a>', escaped)


def inline(text: str, links: Links, rules: bool = True) -> str:
    """One line's inline marks, on escaped text."""
    out: list[str] = []
    at = 0
    for m in INLINE.finditer(text):
        out.append(plain(text[at : m.start()], links, rules))
        at = m.end()
        if m["code"] is not None:
            out.append(f"<code>{html.escape(m['code'], quote=False)}</code>")
        elif m["rule"] is not None:
            rule = m["rule"]
            if m["anchor"]:
                out.append(f'<a class="rule-id" id="{rule}" href="#{rule}">{rule}</a>')
            else:
                target = html.escape(links("#" + rule) or "#" + rule)
                out.append(f'<a class="rule-ref" href="{target}">{rule}</a>')
        elif m["bold"] is not None:
            out.append(f"<strong>{inline(m['bold'], links, rules)}</strong>")
        elif m["em"] is not None:
            out.append(f"<em>{inline(m['em'], links, rules)}</em>")
        else:
            label = inline(m["text"], links, rules=False)
            href = links(m["href"])
            out.append(f'<a href="{html.escape(href)}">{label}</a>' if href else label)
    out.append(plain(text[at:], links, rules))
    return "".join(out)


def render(markdown: str, links: Links = lambda href: href) -> str:
    """The HTML of ``markdown`` (a fragment: headings, lists, tables, paragraphs, figures)."""
    return "\n".join(_blocks(markdown.splitlines(), links))


def _starts_block(line: str) -> bool:
    return line.startswith(("#", "- ", "|", FENCE)) or ORDERED.match(line) is not None


def _blocks(lines: list[str], links: Links) -> Iterator[str]:
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith(FENCE):
            kind = line[len(FENCE) :].strip()
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(FENCE)), None)
            if end is None:
                raise ValueError(f"line {i + 1}: a {FENCE}{kind} block is never closed")
            body = lines[i + 1 : end]
            if kind == "figure":
                yield figure(body, links)
            else:
                code = html.escape("\n".join(body), quote=False)
                yield f"<pre><code>{code}</code></pre>"
            i = end + 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            title = line[level:].strip()
            named = HEADING_ID.search(title)
            if named:
                title = title[: named.start()]
            group = GROUP_ID.match(title)
            anchor = named[1] if named else group[1] if group else slug(title)
            yield f'<h{level} id="{anchor}">{inline(title, links)}</h{level}>'
            i += 1
        elif line.startswith("- ") or ORDERED.match(line):
            ordered = not line.startswith("- ")
            opens = ORDERED if ordered else re.compile(r"^- ")
            items: list[str] = []
            while i < len(lines) and (opens.match(lines[i]) or lines[i].startswith("  ")):
                start = opens.match(lines[i])
                if start:
                    items.append(lines[i][start.end() :].strip())
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            tag = "ol" if ordered else "ul"
            yield f"<{tag}>" + "".join(_item(item, links) for item in items) + f"</{tag}>"
        elif line.startswith("|"):
            rows: list[list[str]] = []
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(set(c) <= set("-: ") for c in cells):
                    rows.append(cells)
                i += 1
            yield _table(rows, links)
        else:
            para: list[str] = []
            while i < len(lines) and lines[i].strip() and not _starts_block(lines[i]):
                para.append(lines[i].strip())
                i += 1
            yield _anchored("p", inline(" ".join(para), links))


def _anchored(tag: str, content: str) -> str:
    """A block whose first rule anchor (``{#R4.4}``) names the block itself, so the whole
    sentence is the target a rule's link lands on."""
    first = FIRST_ANCHOR.search(content)
    if first is None:
        return f"<{tag}>{content}</{tag}>"
    content = content[: first.start()] + '<a class="rule-id"' + content[first.end() :]
    return f'<{tag} id="{first[1]}" class="rule">{content}</{tag}>'


def _item(text: str, links: Links) -> str:
    rule = RULE_ID.match(text)
    if rule is None:
        return _anchored("li", inline(text, links))
    rule_id = rule.group(1)
    mark = f'<a class="rule-id" href="#{rule_id}">{rule_id}</a>'
    return f'<li id="{rule_id}" class="rule">{mark}{inline(text[rule.end() :], links)}</li>'


def _table(rows: list[list[str]], links: Links) -> str:
    if not rows:
        return ""
    head = "".join(f'<th scope="col">{inline(c, links)}</th>' for c in rows[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{inline(c, links)}</td>" for c in row) + "</tr>" for row in rows[1:]
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


FIGURE_KINDS = ("stock", "hand", "piles", "pile", "grid", "arrow")
"""The parts of a picture: a Skip stock (its top card over the pile), a hand, a row of
fanned piles (``10 8, 12, _``), one pile (Skyjo's draw or discard pile), a Skyjo grid by rows
(``9 5 # 2 / 9 # 0 # / …``), an arrow between two parts."""
VALUES = {"skip": range(1, 13), "skyjo": range(-2, 13)}


def figure(lines: list[str], links: Links) -> str:
    """A picture of cards: ``game:``, ``alt:`` (what it shows, in words: the picture's name for
    screen readers and the page's text until it is drawn), ``caption:``, then a part a line,
    ``kind cards | label``. A card is its number, ``W`` (a wild; ``W=6`` standing for 6), ``#``
    face down, ``_`` an empty place (a removed Skyjo card); ``+`` marks the card that moves."""
    words: dict[str, str] = {}
    parts: list[dict[str, Any]] = []
    for line in filter(str.strip, lines):
        key, colon, value = line.partition(":")
        if colon and key.strip() in ("game", "alt", "caption"):
            words[key.strip()] = value.strip()
            continue
        spec, _, label = line.partition(" | ")
        kind, _, cards = spec.strip().partition(" ")
        if kind not in FIGURE_KINDS:
            raise ValueError(f"a figure part is one of {', '.join(FIGURE_KINDS)}: {line!r}")
        parts.append({"kind": kind, "label": label.strip(), "piles": _piles(kind, cards)})
    game = words.get("game", "")
    if game not in VALUES or not words.get("alt") or not words.get("caption") or not parts:
        raise ValueError(f"a figure needs game (skip or skyjo), alt, caption and parts: {lines}")
    for part in parts:
        for pile in part["piles"]:
            for card in pile:
                if isinstance(card["v"], int) and card["v"] not in VALUES[game]:
                    raise ValueError(f"{game} has no card {card['v']}")
    scene = html.escape(json.dumps({"game": game, "parts": parts}, separators=(",", ":")))
    return (
        f'<figure class="cards-figure" data-game="{game}">'
        f'<div class="cards-art" data-scene="{scene}">'
        f'<p class="cards-words">{inline(words["alt"], links, rules=False)}</p></div>'
        f"<figcaption>{inline(words['caption'], links)}</figcaption></figure>"
    )


def _piles(kind: str, cards: str) -> list[list[dict[str, Any]]]:
    if kind == "arrow":
        return []
    if kind == "piles":
        piles = [_cards(pile) for pile in cards.split(",")]
    elif kind == "grid":
        piles = [_cards(row) for row in cards.split("/")]
        if len({len(row) for row in piles}) != 1:
            raise ValueError(f"a grid's rows are as long as each other: {cards!r}")
    elif kind == "hand":
        piles = [[card] for card in _cards(cards)]
    else:
        piles = [_cards(cards)]
        if len(piles[0]) != 1:
            raise ValueError(f"a {kind} shows one card: {cards!r}")
    if not piles or not all(piles):
        raise ValueError(f"a {kind} with no card: {cards!r}")
    return piles


def _cards(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for token in text.split():
        card: dict[str, Any] = {}
        if token.startswith("+"):
            card["mark"] = True
            token = token[1:]
        value, _, stands = token.partition("=")
        if value in ("W", "#", "_"):
            card["v"] = value
        elif re.fullmatch(r"-?\d+", value):
            card["v"] = int(value)
        else:
            raise ValueError(f"not a card: {token!r}")
        if stands:
            if value != "W" or not stands.isdigit():
                raise ValueError(f"only a wild stands for a number: {token!r}")
            card["as"] = int(stands)
        out.append(card)
    return out
