"""Reading a JSON file someone handed the command line: hostile until it has passed every check.

One reader for every file the ``cardroom`` command reads (game records for ``replay`` and
``review``, kept games for ``keep``). The limits below are stated in ``docs/notation.md`` and
``docs/keeper.md``; a file outside them is refused with a ``JsonFileError`` saying what was
wrong and where, as a JSON path (``$.rounds[0].sums.Ann``) or a line and column:

- size: at most ``max_bytes`` (``RECORD_BYTES`` for records, ``KEPT_GAME_BYTES`` for kept
  games); a bigger file is not read past the limit;
- encoding: UTF-8, decoded strictly (an invalid byte is refused); a UTF-8 byte order mark at
  the start is accepted and ignored (Windows editors write one), a UTF-16 or UTF-32 one is
  refused; a string holding a lone surrogate (``"\\ud800"``) is refused, as it is no text;
- nesting: at most ``MAX_DEPTH`` arrays and objects inside each other, checked by a scan of
  the text *before* parsing, so no file can make the parser recurse too deep;
- numbers: integers of at most ``MAX_INT_DIGITS`` digits (checked before ``int()``); no
  ``NaN``, ``Infinity`` or a number too large for a float (``1e999``);
- objects: a key given twice in one object is refused (JSON leaves it undefined, and
  Python's parser would keep the last silently).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
"""Arrays and objects inside each other; a record nests 6 deep, a kept game 4."""
MAX_INT_DIGITS = 20
"""Digits of an integer (a 64-bit integer has at most 20); records' integers have 1 to 4."""
RECORD_BYTES = 16 * 1024 * 1024
"""A game record's largest size: the longest measured (eight players in teams of two to 500,
greedy bots) is 0.27 MB, so this leaves room for sixty times that."""
KEPT_GAME_BYTES = 1024 * 1024
"""A kept game's largest size: 50 rounds of eight players, with the results ``keep --json``
writes, are about 70 kB."""

_UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\xfe\xff": "UTF-16",
    b"\xff\xfe": "UTF-16",
}
# A string (its closing quote optional, for a file cut short) or a bracket: the depth scan.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]|[\]}]', re.DOTALL)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class JsonFileError(ValueError):
    """A file refused: what was wrong, and where."""


class _Bad:
    """What the parser's hooks put in place of a refused value, to be found (and its path
    named) once the parse is done."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def mib(size: int) -> str:
    """A limit in bytes as people say it: "16 MiB", "512 KiB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):g} MiB"
    return f"{size / 1024:g} KiB"


def read_json_file(path: Path, max_bytes: int) -> Any:
    """The JSON value in ``path``, or ``JsonFileError``; ``OSError`` if it cannot be read."""
    with path.open("rb") as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JsonFileError(f"the file is larger than {mib(max_bytes)}, the limit for it")
    return parse_json(data)


def parse_json(data: bytes) -> Any:
    """The JSON value in ``data`` (the bytes of a file), checked as the module says."""
    for bom, name in _OTHER_BOMS.items():
        if data.startswith(bom):
            raise JsonFileError(
                f"the file is {name} text (it starts with a {name} byte order "
                "mark); save it as UTF-8"
            )
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1].hex()
        where = _line_column(data[: error.start].decode("utf-8", "replace"), None)
        raise JsonFileError(f"the file is not UTF-8 text: byte 0x{bad} at {where}") from None
    if not text.strip():
        raise JsonFileError("the file is empty")
    _check_depth(text)
    problems: list[_Bad] = []
    duplicates: dict[int, str] = {}
    try:
        value = json.loads(
            text,
            object_pairs_hook=lambda pairs: _object(pairs, duplicates),
            parse_int=lambda digits: _int(digits, problems),
            parse_float=lambda digits: _float(digits, problems),
            parse_constant=lambda name: _bad(f"{name} is not a number JSON allows", problems),
        )
    except json.JSONDecodeError as error:
        what = error.msg.removesuffix(" at")  # "Invalid control character at"
        raise JsonFileError(
            f"not JSON: {what} at line {error.lineno}, column {error.colno}"
        ) from None
    if problems or duplicates or _SURROGATE_ESCAPE.search(text):
        for path, node in _walk(value, "$"):
            if isinstance(node, _Bad):
                raise JsonFileError(f"{node.problem} at {path}")
            if isinstance(node, dict) and id(node) in duplicates:
                key = duplicates[id(node)]
                raise JsonFileError(f"the key {_short(key)} is given twice at {_child(path, key)}")
            if isinstance(node, str) and not _is_text(node):
                raise JsonFileError(f"a lone surrogate (\\ud800 to \\udfff) at {path}")
    return value


def _check_depth(text: str) -> None:
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                where = _line_column(text, token.start())
                raise JsonFileError(f"nested deeper than {MAX_DEPTH} levels at {where}")
        elif bracket in "]}":
            depth -= 1


def _line_column(text: str, offset: int | None) -> str:
    """``line L, column C`` of ``offset`` in ``text`` (of its end if ``offset`` is None)."""
    before = text if offset is None else text[:offset]
    line = before.count("\n") + 1
    return f"line {line}, column {len(before) - (before.rfind(chr(10)) + 1) + 1}"


def _object(pairs: list[tuple[str, Any]], duplicates: dict[int, str]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):  # some key is given twice: the first such, in file order
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                duplicates[id(result)] = key
                break
            seen.add(key)
    return result


def _bad(problem: str, problems: list[_Bad]) -> _Bad:
    bad = _Bad(problem)
    problems.append(bad)
    return bad


def _int(digits: str, problems: list[_Bad]) -> int | _Bad:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        length = len(digits.lstrip("-"))
        return _bad(f"an integer of {length} digits (at most {MAX_INT_DIGITS})", problems)
    return int(digits)


def _float(digits: str, problems: list[_Bad]) -> float | _Bad:
    number = float(digits)
    if not math.isfinite(number):
        return _bad(f"{digits[:40]} is too large a number", problems)
    return number


def _walk(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every value under ``node`` with its path, in the file's order (keys are values too,
    for the surrogate check)."""
    yield path, node
    if isinstance(node, dict):
        for key, child in node.items():
            yield _child(path, key), key
            yield from _walk(child, _child(path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _walk(child, f"{path}[{index}]")


def _child(path: str, key: str) -> str:
    if _NAME.fullmatch(key) and len(key) <= 40:
        return f"{path}.{key}"
    return f"{path}[{_short(key)}]"


def _short(key: str) -> str:
    """A key as JSON writes it (quoted, escaped, on one line), cut to 40 characters."""
    shown = json.dumps(key if len(key) <= 40 else key[:40] + "…", ensure_ascii=False)
    return shown if _is_text(shown) else json.dumps(key[:40])  # \ud800 escaped


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
