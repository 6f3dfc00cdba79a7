"""The message catalogs (src/cardroom/web/i18n/, docs/translating.md): every language has every
key with the same placeholders and the plural forms its language needs, no key is left that
the code never uses, and the server's plural rules and language choice agree with the
browser's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardroom.bots.levels import LEVELS_BY_GAME
from cardroom.server.i18n import (
    LANGUAGES,
    from_accept_language,
    plural_category,
    supported,
    t,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"
WEB = SRC / "web"


def client_sources() -> list[Path]:
    """The web client's own files: its modules and pages, not the bundles made of them."""
    files = [*WEB.rglob("*.js"), *WEB.rglob("*.html")]
    return [p for p in files if p.relative_to(WEB).parts[0] != "bundle"]


CATALOGS = WEB / "i18n"
PLURALS = {"en": {"one", "other"}, "de": {"one", "other"}, "fr": {"one", "other"}}
PLURALS["pl"] = {"one", "few", "many", "other"}
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def load(lang: str) -> dict[str, Any]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def forms(message: Any) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def placeholders(message: Any) -> set[str]:
    return {name for form in forms(message) for name in re.findall(r"\{(\w+)\}", form)}


def test_there_is_a_catalog_per_language_and_no_other() -> None:
    assert sorted(p.stem for p in CATALOGS.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_has_every_key_and_nothing_else(lang: str) -> None:
    english, other = load("en"), load(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang} lacks these"
    assert sorted(set(other) - set(english)) == [], f"{lang} has keys English has not"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_has_the_same_placeholders_as_the_english(lang: str) -> None:
    english, other = load("en"), load(lang)
    differ = {
        key: (placeholders(english[key]), placeholders(other[key]))
        for key in english
        if key in other
        and placeholders(english[key]) != placeholders(other[key])
        and not (isinstance(english[key], dict) and "count" not in placeholders(other[key]))
    }
    assert differ == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_the_forms_their_language_needs(lang: str) -> None:
    english = load("en")
    for key, message in load(lang).items():
        if isinstance(english[key], dict) or isinstance(message, dict):
            assert isinstance(message, dict), f"{lang} {key}: a plural in English"
            assert PLURALS[lang] <= set(message), f"{lang} {key}: {sorted(message)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_empty_or_untrimmed(lang: str) -> None:
    for key, message in load(lang).items():
        for form in forms(message):
            assert form and form == form.strip(), f"{lang} {key}: {form!r}"


def used_keys() -> tuple[set[str], list[str]]:
    """String literals in the web client and the server, and the key prefixes the web client
    builds at run time (`keeper.refused.${kind}`)."""
    literals: set[str] = set()
    prefixes: list[str] = []
    for path in [*client_sources(), *SRC.rglob("*.py")]:
        if "i18n" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        literals.update(re.findall(r"[\"']([\w.-]+)[\"']", text))
        literals.update(re.findall(r"data-i18n(?:-html)?=\"([\w.-]+)\"", text))
        literals.update(re.findall(r":\s*([\w.-]+)[;\"]", text))  # data-i18n-attr="title:key"
        prefixes += re.findall(r"`([\w.]+\.)\$\{", text)
    return literals, prefixes


def test_no_catalog_holds_a_key_the_code_never_uses() -> None:
    literals, prefixes = used_keys()
    server_codes = set()
    for path in SRC.rglob("*.py"):
        server_codes.update(re.findall(r"\"([\w.]+)\"", path.read_text(encoding="utf-8")))
    unused = []
    for key in load("en"):
        if key in literals:
            continue
        prefix = next((p for p in prefixes if key.startswith(p)), None)
        if prefix is None:
            unused.append(key)
        elif prefix in ("refusal.", "error.") and key[len(prefix) :] not in server_codes | literals:
            unused.append(key)  # a refusal no code of the server's sends any more
    assert unused == []


ASKED = r"\bt\(\s*(?:[^\"()]*\?\s*)?\"([\w.]+)\"(?:\s*:\s*\"([\w.]+)\")?"
"""t("key"), or t(cond ? "key" : "other")."""


def test_every_key_the_web_client_asks_for_is_in_the_catalog() -> None:
    english = load("en")
    asked: set[str] = set()
    for path in client_sources():
        if path.name == "i18n.js":  # its comments show the forms
            continue
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(
            r"\bt\(\s*(?:[^\"()]*\?\s*)?\"([\w.]+)\"(?:\s*:\s*\"([\w.]+)\")?", text
        ):
            asked.update(k for k in found.groups() if k)
        asked.update(re.findall(r"data-i18n(?:-html)?=\"([\w.-]+)\"", text))
        for attrs in re.findall(r"data-i18n-attr=\"([^\"]+)\"", text):
            asked.update(pair.split(":")[1].strip() for pair in attrs.split(";") if ":" in pair)
    assert sorted(asked - set(english)) == []


def test_every_bot_level_is_named_and_described_in_the_catalog() -> None:
    """The lobby shows each game's levels in the player's words (``lobby.js``); a level the
    catalog lacks would fall back to the server's English."""
    english = load("en")
    missing = [
        key
        for game, levels in LEVELS_BY_GAME.items()
        for level in levels
        for key in (f"level.{level}", f"level.{game}.{level}")
        if key not in english
    ]
    assert missing == []


POLISH = [(0, "many"), (1, "one"), (2, "few"), (4, "few"), (5, "many"), (12, "many")]
POLISH += [(14, "many"), (21, "many"), (22, "few"), (24, "few"), (101, "many"), (112, "many")]


@pytest.mark.parametrize(("n", "category"), POLISH)
def test_polish_has_three_plural_forms_as_cldr_says(n: int, category: str) -> None:
    assert plural_category("pl", n) == category


def test_the_server_words_polish_plurals_from_the_same_catalog() -> None:
    said = [t("pl", "keeper.rounds_count", count=n) for n in (1, 2, 5, 22)]
    assert said == ["1 runda", "2 rundy", "5 rund", "22 rundy"]
    assert t("fr", "keeper.rounds_count", count=0) == "0 manche"  # French: 0 is singular
    assert t("de", "keeper.rounds_count", count=0) == "0 Runden"


def test_the_language_of_a_request_follows_the_browser_else_english() -> None:
    assert from_accept_language("pl-PL,pl;q=0.9,en-US;q=0.8") == "pl"
    assert from_accept_language("it-IT, de;q=0.5, fr;q=0.7") == "fr"
    assert from_accept_language("it, es;q=0.9") is None
    assert supported("de-AT") == "de" and supported("xx") is None


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game", "spec"), [("skip", "rules.md"), ("skyjo", "skyjo-rules.md")])
def test_every_players_rule_book_anchors_every_rule_of_the_spec_once_in_the_same_order(
    lang: str, game: str, spec: str
) -> None:
    """The players' books (web/rules/<lang>/) say the rules in their own order, each rule id of
    the engineers' book (docs/) a small anchor ({#R4.4}) a refusal links to; every language
    keeps the English book's order."""
    rule = re.compile(r"^- \*\*([RS]\d\.\d+)\*\*", re.MULTILINE)
    anchor = re.compile(r"\{#([RS]\d\.\d+)\}")
    ids = rule.findall((SRC.parents[1] / "docs" / spec).read_text(encoding="utf-8"))
    books = WEB / "rules"
    english = anchor.findall((books / "en" / f"{game}.md").read_text(encoding="utf-8"))
    theirs = anchor.findall((books / lang / f"{game}.md").read_text(encoding="utf-8"))
    assert sorted(english) == sorted(ids) and len(set(english)) == len(english)
    assert theirs == english
