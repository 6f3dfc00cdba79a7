"""The rules pages: the players' rule books (``web/rules/<lang>/skip.md`` and ``skyjo.md``)
rendered to HTML. A book opens with a quick start (how to win, a turn step by step, pictures
of cards), then the rules by topic, then the house rules. Every rule of the engineers' books
(``docs/rules.md``, ``docs/skyjo-rules.md``, the spec the engines implement) has its id as a
small anchor there (``/rules/skip#R4.4``): a refusal's rule id links to it.

A page is in the reader's language (``server/i18n.py``): that language's book when there is
one, with the same rule ids, else the English book with a line that says so; the page's own
words come from the catalogs. ``?lang=`` also remembers the choice (the cookie the web client
sets). The pictures are drawn in the browser by ``web/js/rules-page.js``."""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from cardroom.server import markdown
from cardroom.server.i18n import COOKIE, LANGUAGES, language_of, supported, t
from cardroom.tables.errors import Refusal

router = APIRouter()

BOOKS = {"skip": ("Skip", "R"), "skyjo": ("Skyjo", "S")}
"""Each game's rule book (``web/rules/<lang>/<game>.md``): its title, the letter of its rule ids."""

PAGE = """<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="theme-color" content="#14342b">
  <title>{title} · Cardroom</title>
  <link rel="icon" href="/img/icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/css/base.css">
  <link rel="stylesheet" href="/css/cards.css">
  <link rel="stylesheet" href="/css/skyjo.css">
  <link rel="stylesheet" href="/css/rules.css">
  <script type="module" src="/js/rules-page.js"></script>
</head>
<body class="rules-page" data-game="{game}">
  <a class="skip-link" href="#rules">{skip}</a>
  <header class="topbar">
    <a class="brand" href="/#/" aria-label="{lobby}">
      <img src="/img/icon.svg" alt="" width="28" height="28"><span>Cardroom</span>
    </a>
    <nav class="topbar-status" aria-label="{books_label}">{books}</nav>
    <div class="topbar-tools"><a href="/#/">{play}</a>
      <nav class="rules-langs" aria-label="{language}">{langs}</nav>
      <details class="rules-langs-menu">
        <summary title="{language}"><span class="sr-only">{language}: </span>{code}</summary>
        <nav aria-label="{language}">{langs}</nav>
      </details></div>
  </header>
  <main id="rules" class="rules" tabindex="-1">
    <nav class="rules-contents" aria-label="{contents_label}"><ol>{contents}</ol></nav>
    <article class="rules-text">{note}{body}</article>
  </main>
</body>
</html>
"""


def books_dir(request: Request) -> Path:
    return Path(request.app.state.settings.web_dir) / "rules"


def book(books: Path, game: str, lang: str) -> tuple[Path, bool]:
    """The book of ``game`` for a reader of ``lang``, and whether it is in their language: their
    own when there is one, else the English one."""
    theirs = books / lang / f"{game}.md"
    if lang != "en" and theirs.is_file():
        return theirs, True
    return books / "en" / f"{game}.md", lang == "en"


@router.get("/rules", include_in_schema=False)
async def rules_index() -> RedirectResponse:
    return RedirectResponse("/rules/skip")


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(request: Request, game: str) -> HTMLResponse:
    if game not in BOOKS:
        raise Refusal(404, "not_found", f"no rules for {game!r}; there are {', '.join(BOOKS)}")
    lang = language_of(request)
    path, theirs = book(books_dir(request), game, lang)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        missing = f"the rule book {game}.md is not installed here"
        raise Refusal(404, "not_found", missing) from None
    response = HTMLResponse(page(game, path, stamp, lang, theirs))
    if supported(request.query_params.get("lang")):  # the reader chose: remembered
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


@lru_cache(maxsize=len(BOOKS) * len(LANGUAGES) * 2)
def page(game: str, path: Path, stamp: int, lang: str = "en", translated: bool = False) -> str:
    """The rules page of ``game`` in ``lang`` (cached until its file changes: ``stamp``)."""
    body = markdown.render(path.read_text(encoding="utf-8"), links_from(game))
    contents = "".join(
        f'<li><a href="#{anchor}">{title}</a></li>'
        for anchor, title in re.findall(r'<h2 id="([^"]+)">(.*?)</h2>', body)
    )
    current = ' aria-current="page"'
    books = " ".join(
        f'<a href="/rules/{name}"{current if name == game else ""}>'
        f"{html.escape(t(lang, 'rules.book', game=title))}</a>"
        for name, (title, _letter) in BOOKS.items()
    )
    langs = " ".join(
        f'<a href="?lang={code}" lang="{code}" hreflang="{code}"'
        f"{current if code == lang else ''}>{code.upper()}</a>"
        for code in LANGUAGES
    )
    note = ""
    if lang != "en" and not translated:
        note = (
            f'<p class="rules-note" lang="{lang}">{html.escape(t(lang, "rules.english_only"))}</p>'
        )
    return PAGE.format(
        lang=lang if translated or lang == "en" else "en",
        title=html.escape(t(lang, "rules.title", game=BOOKS[game][0])),
        game=game,
        books=books,
        contents=contents,
        body=body,
        note=note,
        langs=langs,
        code=lang.upper(),
        skip=html.escape(t(lang, "rules.skip_to")),
        lobby=html.escape(t(lang, "common.lobby_label")),
        books_label=html.escape(t(lang, "rules.books")),
        play=html.escape(t(lang, "rules.play")),
        language=html.escape(t(lang, "common.language")),
        contents_label=html.escape(t(lang, "rules.contents")),
    )


def links_from(game: str) -> markdown.Links:
    """Where the links of ``game``'s rule book point on the site: anchors stay (a rule of the
    other book goes to its page), web addresses and the site's own pages stay, a book
    (``skyjo.md#S4.3``) is its page; anything else is shown as text."""
    letter = BOOKS[game][1]

    def link(href: str) -> str | None:
        if href.startswith("#"):
            rule = href[1:]
            if re.fullmatch(r"[A-Z]\d+\.\d+", rule) and rule[0] != letter:
                others = [name for name, book in BOOKS.items() if book[1] == rule[0]]
                return f"/rules/{others[0]}{href}" if others else href
            return href
        if href.startswith(("http://", "https://")) or re.match(r"/\w", href):
            return href
        name, _, anchor = href.partition("#")
        if name.removesuffix(".md") in BOOKS:
            return f"/rules/{name.removesuffix('.md')}" + (f"#{anchor}" if anchor else "")
        return None

    return link
