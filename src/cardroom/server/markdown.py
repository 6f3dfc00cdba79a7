"""A small Markdown-to-HTML renderer for the project's own rule books (``docs/rules.md``,
``docs/skyjo-rules.md``), so the rules page is the repository's document itself, one source.

It knows what those documents use: ``#`` headings, paragraphs, ``-`` lists with indented
continuation lines, pipe tables, ``**bold**``, ``*italic*``, `` `code` `` and ``[links](…)``.
Everything is escaped first. A rule's paragraph (a list item opening with ``**R4.4**``) and a
rule group's heading (``## R4 A turn``) get the rule id as their anchor (``#R4.4``, ``#R4``),
so a refusal naming a rule can link straight to it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

RULE_ID = re.compile(r"^\*\*([A-Z]\d+(?:\.\d+)?)\*\*")
MENTION = re.compile(r"\b([RS][1-9]\.\d{1,2})\b")  # a rule named in the text: R5.4, S2.2
GROUP_ID = re.compile(r"^([A-Z]\d+)\s")
INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|\*(?P<em>[^*\s][^*]*?)\*"
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)"
)

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
    """The HTML of ``markdown`` (a fragment: headings, lists, tables, paragraphs)."""
    return "\n".join(_blocks(markdown.splitlines(), links))


def _blocks(lines: list[str], links: Links) -> Iterator[str]:
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            title = line[level:].strip()
            group = GROUP_ID.match(title)
            anchor = group.group(1) if group else slug(title)
            yield f'<h{level} id="{anchor}">{inline(title, links)}</h{level}>'
            i += 1
        elif line.startswith("- "):
            items: list[str] = []
            while i < len(lines) and (lines[i].startswith("- ") or lines[i].startswith("  ")):
                if lines[i].startswith("- "):
                    items.append(lines[i][2:].strip())
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            yield "<ul>" + "".join(_item(item, links) for item in items) + "</ul>"
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
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "- ", "|")):
                para.append(lines[i].strip())
                i += 1
            yield f"<p>{inline(' '.join(para), links)}</p>"


def _item(text: str, links: Links) -> str:
    rule = RULE_ID.match(text)
    if rule is None:
        return f"<li>{inline(text, links)}</li>"
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
