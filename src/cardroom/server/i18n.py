"""The server's words in the player's language: the same JSON catalogs the web client loads
(``web/i18n/<lang>.json``, ``docs/translating.md``), for the pages the server renders (the
rules pages, the manifest). Everything else the server says is a code and its parameters.

The language of a request: ``?lang=``, else the ``cardroom_lang`` cookie the web client sets
when it shows a language, else the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection

from cardroom.server.settings import WEB_DIR

LANGUAGES = ("en", "pl", "de", "fr")
"""The languages with a complete catalog; English is the fallback."""
DEFAULT = "en"
COOKIE = "cardroom_lang"
CATALOGS = WEB_DIR / "i18n"


def supported(code: str | None) -> str | None:
    """``pl-PL`` → ``pl``; None for a language without a catalog."""
    base = (code or "").strip().lower().split("-")[0].split("_")[0]
    return base if base in LANGUAGES else None


def from_accept_language(header: str) -> str | None:
    """The first supported language of an ``Accept-Language`` header, by its weights."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        code, _, params = part.strip().partition(";")
        weight = 1.0
        found = re.search(r"q=([0-9.]+)", params)
        if found:
            try:
                weight = float(found.group(1))
            except ValueError:
                weight = 0.0
        lang = supported(code)
        if lang and weight > 0:
            ranked.append((-weight, index, lang))
    return min(ranked)[2] if ranked else None


def language_of(request: HTTPConnection) -> str:
    """The language to render a page in for this request."""
    return (
        supported(request.query_params.get("lang"))
        or supported(request.cookies.get(COOKIE))
        or from_accept_language(request.headers.get("accept-language", ""))
        or DEFAULT
    )


@lru_cache(maxsize=len(LANGUAGES))
def catalog(lang: str, directory: Path = CATALOGS) -> dict[str, Any]:
    """One language's catalog, read once."""
    return json.loads((directory / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def plural_category(lang: str, n: int) -> str:
    """CLDR's cardinal plural category of a whole number in the four languages (the same
    answer as the browser's ``Intl.PluralRules``; Polish has one, few and many)."""
    if lang == "pl":
        if n == 1:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def t(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled (English when a key is
    missing, the key itself when English lacks it too)."""
    message = catalog(lang).get(key, catalog(DEFAULT).get(key, key))
    if isinstance(message, dict):
        category = plural_category(lang, int(params.get("count", 0)))
        message = message.get(category, message["other"])
    return re.sub(
        r"\{(\w+)\}",
        lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0),
        str(message),
    )
