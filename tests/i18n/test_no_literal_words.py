"""A lint: the words of the web client come from the catalogs (docs/translating.md), never from a
literal in its JavaScript or HTML. It finds the string literals a person would read (two words
or more, or one capitalised word) outside class names, selectors, console lines and the like,
and the text and readable attributes of HTML elements that no `data-i18n` covers.

Symbols, rule ids, the games' names and the admin console (staff only, English) are allowed.
Files not translated yet are listed in UNTRANSLATED with what they hold; a listed file that has
become clean fails the test, so the list only shrinks."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web"
SKIPPED_DIRS = {"admin", "bundle", "i18n", "vendor"}  # staff only; made of the modules; catalogs
SKIPPED_FILES = {"js/i18n.js"}  # the languages' own names (Polski, Deutsch…)
ALLOWED = {
    "Cardroom", "Skip", "Skyjo", "Skip-Bo", "CSV", "JSON", "Esc", "Enter", "Tab", "Shift",
    "ABCDE-FGHJK", "OK", "Bearer", "Escape",
}  # fmt: skip
UNTRANSLATED: dict[str, str] = {}
"""Files whose words still bypass the catalog, and what they are (see docs/translating.md)."""

CONTEXT_SKIPS = re.compile(
    r"(class:\s*|className\s*[+]?=\s*|classList\.\w+\(\s*|querySelector(All)?\(\s*|"
    r"\$\$?\(\s*|closest\(\s*|matches\(\s*|console\.\w+\(\s*|new Error\(\s*|"
    r"addEventListener\(\s*|removeEventListener\(\s*|import\s+|from\s+|"
    r"setAttribute\(\s*\"class\",\s*|CustomEvent\(\s*|\.dataset\.\w+\s*===?\s*|"
    r"\bkind\s*===?\s*|\btype\s*===?\s*|locator\(\s*|cssText\s*=\s*)$"
)


def literals(source: str) -> list[tuple[int, str, str]]:
    """(line, text, what comes before it on its line) of every string and template literal;
    comments skipped, a template's `${…}` taken out."""
    out: list[tuple[int, str, str]] = []
    i, n, line = 0, len(source), 1
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
            continue
        if c in "\"'`":
            start, j, text, depth = line, i + 1, [], 0
            while j < n:
                d = source[j]
                if d == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                    continue
                if d == "\n":
                    line += 1
                if c == "`" and source.startswith("${", j):
                    depth, j = 1, j + 2
                    while j < n and depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    text.append(" \0 ")
                    continue
                if d == c:
                    break
                text.append(d)
                j += 1
            before = source[source.rfind("\n", 0, i) + 1 : i]
            out.append((start, "".join(text), before))
            i = j + 1
            continue
        if c == "/" and re.search(r"[=(,:!&|?]\s*$", source[max(0, i - 20) : i]):
            found = re.match(r"/(?:\\.|\[(?:\\.|[^\]])*\]|[^/\n\\])+/[a-z]*", source[i:])
            if found:  # a regular expression literal
                i += found.end()
                continue
        i += 1
    return out


def readable(text: str) -> bool:
    """Whether a literal is words a person reads (not a selector, key, path or class list)."""
    plain = text.replace("\0", "").strip()
    key = re.fullmatch(r"[a-z][\w.]*(?: \0 [\w.]*)*", text.strip()) and "." in text
    if not plain or plain in ALLOWED or key:
        return False  # nothing, a symbol, or a key built at run time (keeper.${kind}.one)
    if re.search(r"\((?:[^)]*\b(?:px|deg|prefers-[\w-]+)\b[^)]*)\)", plain):
        return False  # CSS: a transform, a media query
    if re.search(r"[#\[\]=<>{}]|^[./]|^\w+:\S|\.(js|css|json|png|svg)\b|^[\w.-]+\.[\w.-]+$", plain):
        return False
    words = re.findall(r"[^\W\d_]{2,}", plain)
    if len(words) >= 2 and re.search(r"[^\W\d_]{2,}[ ,.:;!?…]+\s*[^\W\d_]", plain):
        if all(re.fullmatch(r"[a-z][a-z0-9-]*", w) for w in plain.split()):
            return bool(re.search(r"[.!?…:]$|\s\0|\0\s", text.strip()))  # a class list
        return True
    return bool(re.fullmatch(r"[A-Z][a-z]{2,}[.…!?]?", plain))


def js_findings(path: Path) -> list[str]:
    found = []
    for line, text, before in literals(path.read_text(encoding="utf-8")):
        if CONTEXT_SKIPS.search(before.rstrip()) or CONTEXT_SKIPS.search(before):
            continue
        if readable(text):
            found.append(f"{line}: {text.strip()[:60]!r}")
    return found


READABLE_ATTRS = {"title", "aria-label", "placeholder", "alt", "content", "label"}
VOID = {"meta", "link", "img", "input", "br", "hr", "source", "area", "col", "wbr"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []  # (tag, covered by data-i18n)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        covered = any(covered for _tag, covered in self.stack)
        own = "data-i18n" in given or "data-i18n-html" in given
        translated = {
            pair.split(":")[0].strip() for pair in (given.get("data-i18n-attr") or "").split(";")
        }
        for name, value in attrs:
            if name in READABLE_ATTRS and value and name not in translated:
                if tag == "meta" and given.get("name") != "description":
                    continue
                if re.search(r"[^\W\d_]{2,}", value) and value not in ALLOWED:
                    self.found.append(f"{self.getpos()[0]}: <{tag} {name}={value[:40]!r}>")
        if tag not in VOID:
            self.stack.append((tag, covered or own))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.stack or self.stack[-1][0] in ("script", "style"):
            return
        text = data.strip()
        if any(covered for _tag, covered in self.stack) or not text:
            return
        if re.search(r"[^\W\d_]{2,}", text) and text not in ALLOWED:
            self.found.append(f"{self.getpos()[0]}: {text[:60]!r}")


def html_findings(path: Path) -> list[str]:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page.found


def client_files() -> list[str]:
    files = []
    for path in sorted([*WEB.rglob("*.js"), *WEB.rglob("*.html")]):
        name = path.relative_to(WEB).as_posix()
        if SKIPPED_DIRS & set(path.relative_to(WEB).parts[:-1]) or name in SKIPPED_FILES:
            continue
        files.append(name)
    return files


def findings(name: str) -> list[str]:
    path = WEB / name
    return html_findings(path) if path.suffix == ".html" else js_findings(path)


@pytest.mark.parametrize("name", [f for f in client_files() if f not in UNTRANSLATED])
def test_no_word_of_the_web_client_bypasses_the_catalog(name: str) -> None:
    assert findings(name) == []


def test_a_file_listed_as_untranslated_still_is() -> None:
    """One test over the list, not one per file: with every file translated the list is
    empty, and an empty parametrization would show as a skip in every run."""
    translated = [name for name in sorted(UNTRANSLATED) if not findings(name)]
    assert translated == [], f"translated now, take them off UNTRANSLATED: {translated}"


def test_the_lint_finds_words_and_passes_symbols() -> None:
    source = (
        'h("p", { class: "muted small" }, "Your turn: play a card.");\n'
        'toast(`Round ${n} corrected.`); h("b", {}, "Share"); t("keeper.title");\n'
        'el.querySelector("#entry input.number"); console.warn("not read:", e);\n'
        'h("span", {}, "×2", "Skyjo", "R4.4", "↶"); const re = /["\']x/;\n'
    )
    path = Path(__file__).with_name("sample.js")
    found = [f for _l, f, b in literals(source) if readable(f) and not CONTEXT_SKIPS.search(b)]
    assert found == ["Your turn: play a card.", "Round  \0  corrected.", "Share"]
    assert not path.exists()
