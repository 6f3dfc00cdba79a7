"""Every file the command line reads is hostile input (issue 38): ``replay FILE``, ``review
FILE --seat 1`` and ``keep FILE`` (with ``--csv`` and ``--json``) refuse a deep, huge,
non-finite, duplicated, badly encoded or truncated file in exactly one line on stderr,
``refused: …``, with exit code 2, printing and writing nothing else; never a traceback.

Hostile pieces are put at a random place of a real record or kept game, so the rest of the
file is what the command expects and only the reader's limits (``cardroom.jsonfile``) can
refuse it. The listed cases of the issue run once more through the installed ``cardroom``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardroom import cli, jsonfile
from cardroom.cli import app

ROOT = Path(__file__).resolve().parents[2]
KEPT_GAMES = [ROOT / "examples" / "skyjo_kept_game.json", ROOT / "examples" / "skip_kept_game.json"]
CARDROOM = Path(sys.executable).parent / "cardroom"
runner = CliRunner()

HOSTILE = settings(
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
COMMANDS = [
    ["replay"],
    ["review", "--seat", "1"],
    ["keep"],
    ["keep", "--csv"],
    ["keep", "--json"],
]
MARK = "__hostile__"


def _record() -> dict[str, Any]:
    """A real Skip record, short (stocks of 2)."""
    with tempfile.TemporaryDirectory() as folder:
        result = runner.invoke(
            app, ["simulate", "--games", "1", "-o", "stock=2", "--records", folder]
        )
        assert result.exit_code == 0, result.output
        return json.loads((Path(folder) / "game-00001.json").read_text())


BASES: list[Any] = [_record(), *(json.loads(path.read_text()) for path in KEPT_GAMES)]


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``node`` a value can be put: each array item and object value."""
    found = [path]
    if isinstance(node, dict):
        for key, child in node.items():
            found += _places(child, (*path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found += _places(child, (*path, index))
    return found


def _put(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = dict(node) if isinstance(node, dict) else list(node)
    copy[path[0]] = _put(node[path[0]], path[1:], value)
    return copy


@st.composite
def _inside_a_real_file(draw: st.DrawFn, piece: bytes) -> bytes:
    """A real record or kept game with ``piece`` (JSON text) in place of one of its values."""
    base = draw(st.sampled_from(BASES))
    place = draw(st.sampled_from(_places(base)))
    text = json.dumps(_put(base, place, MARK), indent=draw(st.sampled_from([None, 2])))
    return text.encode().replace(json.dumps(MARK).encode(), piece, 1)


def _deep(levels: int, closed: bool) -> bytes:
    opening = b"".join(b'{"a": ' if i % 3 == 2 else b"[" for i in range(levels))
    if not closed:
        return opening
    return opening + b"0" + b"".join(b"}" if i % 3 == 2 else b"]" for i in reversed(range(levels)))


def _dict_with_a_key_twice(base: Any, draw: st.DrawFn) -> bytes:
    places = [p for p in _places(base) if isinstance(_at(base, p), dict) and _at(base, p)]
    place = draw(st.sampled_from(places))
    obj = _at(base, place)
    key = draw(st.sampled_from(sorted(obj)))
    twice = list(obj.items())
    twice.insert(draw(st.integers(0, len(twice))), (key, draw(st.sampled_from([0, "x", None]))))
    piece = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in twice) + "}"
    text = json.dumps(_put(base, place, MARK))
    return text.encode().replace(json.dumps(MARK).encode(), piece.encode(), 1)


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


DIGITS = st.integers(jsonfile.MAX_INT_DIGITS + 1, 6000)
NOT_NUMBERS = st.sampled_from(
    [
        (b"NaN", "NaN is not a number JSON allows at $"),
        (b"Infinity", "Infinity is not a number JSON allows at $"),
        (b"-Infinity", "-Infinity is not a number JSON allows at $"),
        (b"1e999", "1e999 is too large a number at $"),
        (b"-2.5E400", "-2.5E400 is too large a number at $"),
    ]
)
SURROGATES = st.integers(0xD800, 0xDFFF).map(lambda c: f'"\\u{c:04x}"'.encode())
BAD_UTF8 = st.sampled_from([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\x80", b"\xf8"])


@st.composite
def hostile_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """A hostile file and what its refusal must say."""
    kind = draw(
        st.sampled_from(
            [
                "deep",
                "deep inside",
                "integer",
                "not a number",
                "key twice",
                "surrogate",
                "surrogate key",
                "bad utf-8",
                "truncated",
                "utf-16",
                "empty",
                "wide",
            ]
        )
    )
    data: bytes
    if kind == "deep":
        data, says = _deep(draw(st.integers(65, 3000)), draw(st.booleans())), "nested deeper"
    elif kind == "deep inside":
        piece = _deep(draw(st.integers(65, 1200)), closed=True)
        data, says = draw(_inside_a_real_file(piece)), "nested deeper"
    elif kind == "integer":
        sign = draw(st.sampled_from([b"", b"-"]))
        piece = sign + b"1" + b"0" * (draw(DIGITS) - 1)
        data, says = draw(_inside_a_real_file(piece)), "digits (at most 20) at $"
    elif kind == "not a number":
        piece, says = draw(NOT_NUMBERS)
        data = draw(_inside_a_real_file(piece))
    elif kind == "key twice":
        data, says = _dict_with_a_key_twice(draw(st.sampled_from(BASES)), draw), "given twice at $"
    elif kind == "surrogate":
        data, says = draw(_inside_a_real_file(draw(SURROGATES))), "lone surrogate"
    elif kind == "surrogate key":
        key = draw(SURROGATES)
        data, says = draw(_inside_a_real_file(b"{" + key + b": 1}")), "lone surrogate"
    elif kind == "bad utf-8":
        data, says = draw(_inside_a_real_file(b'"a' + draw(BAD_UTF8) + b'b"')), "not UTF-8"
    elif kind == "truncated":
        whole = json.dumps(draw(st.sampled_from(BASES))).encode()
        data, says = whole[: draw(st.integers(1, len(whole) - 2))], "not JSON"
    elif kind == "utf-16":
        whole = json.dumps(draw(st.sampled_from(BASES)))
        data, says = "\ufeff".encode("utf-16-le") + whole.encode("utf-16-le"), "UTF-16"
    elif kind == "wide":  # within the limits, but neither a record nor a kept game
        count = draw(st.integers(1, 50_000))
        if draw(st.booleans()):
            data = ("[" + ", ".join(str(i) for i in range(count)) + "]").encode()
        else:
            data = ("{" + ", ".join(f'"k{i}": {i}' for i in range(count)) + "}").encode()
        says = ""
    else:
        data, says = draw(st.sampled_from([b"", b"  \n", b"\xef\xbb\xbf"])), "empty"
    if kind not in ("utf-16", "empty") and draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data  # a UTF-8 byte order mark changes nothing
    return data, says


def _refused_in_one_line(args: list[str], folder: Path) -> str:
    """Run in-process; check one ``refused:`` line, exit code 2, no output, nothing written."""
    before = set(os.listdir("."))
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (args, result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("refused: "), result.stderr
    assert [p.name for p in folder.iterdir()] == ["file.json"]
    assert set(os.listdir(".")) == before
    return lines[0]


@HOSTILE
@given(hostile_files())
def test_every_file_reading_command_refuses_a_hostile_file_in_one_line(
    file: tuple[bytes, str],
) -> None:
    data, says = file
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "file.json"
        path.write_bytes(data)
        for command in COMMANDS:
            line = _refused_in_one_line([command[0], str(path), *command[1:]], folder)
            assert says in line, line
            assert "docs/rules.md" not in line and "skyjo-rules" not in line
            assert ("docs/keeper.md" if command[0] == "keep" else "docs/notation.md") in line


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20) + 1, 10**20 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(HOSTILE, max_examples=40)
@given(st.sampled_from(BASES), st.data())
def test_a_file_of_the_wrong_shape_is_played_or_refused_in_one_line(
    base: Any, data: st.DataObject
) -> None:
    """Any JSON value in any place of a real file: read within the limits, then either
    accepted or refused in one line; never a traceback (``review`` is left out: it reads the
    same way as ``replay``, and reviewing every record accepted would take long)."""
    place = data.draw(st.sampled_from(_places(base)))
    changed = _put(base, place, data.draw(JSON_VALUES))
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "file.json"
        path.write_text(json.dumps(changed))
        for command in (["replay"], ["keep"]):
            result = runner.invoke(app, [*command, str(path)])
            assert result.exit_code in (0, 2), (command, result.output, result.exception)
            if result.exit_code == 2:
                lines = result.stderr.splitlines()
                assert len(lines) == 1 and lines[0].startswith("refused: "), result.stderr
                assert result.stdout == ""


def test_a_file_over_its_size_limit_is_refused_unread(tmp_path: Path) -> None:
    kept, record = tmp_path / "kept", tmp_path / "record"
    kept.mkdir()
    record.mkdir()
    (kept / "file.json").write_bytes(KEPT_GAMES[0].read_bytes() + b" " * jsonfile.KEPT_GAME_BYTES)
    line = _refused_in_one_line(["keep", str(kept / "file.json")], kept)
    assert "larger than 1 MiB" in line
    (record / "file.json").write_bytes(b"[" + b"0," * (jsonfile.RECORD_BYTES // 2) + b"0]")
    line = _refused_in_one_line(["replay", str(record / "file.json")], record)
    assert "larger than 16 MiB" in line


def test_a_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    path.write_bytes(b"\xef\xbb\xbf" + KEPT_GAMES[0].read_bytes())
    result = runner.invoke(app, ["keep", str(path), "--csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("total")


def test_a_bug_is_the_only_traceback_with_exit_code_1_and_a_request_for_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(path: Path) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("cardroom.commands.keep.read_kept_game", broken)
    monkeypatch.setattr(sys, "argv", ["cardroom", "keep", str(KEPT_GAMES[0])])
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "RuntimeError: a bug" in err
    assert err.splitlines()[-1] == cli.BUG


# -- the issue's cases, as a shell runs them ------------------------------------------------

KEPT_TWICE = {
    "sums": '{"format": "cardroom-kept-game", "version": 1, "game": "skyjo", '
    '"players": ["Ann", "Bob"], "rounds": [{"sums": {"Ann": 3, "Bob": 4, "Ann": 50}, '
    '"closer": "Ann"}]}',
    "players": '{"format": "cardroom-kept-game", "version": 1, "game": "skyjo", '
    '"players": ["Ann", "Bob"], "players": ["Ann", "Bob", "Cy"], "rounds": []}',
}


@pytest.mark.slow  # runs the installed program: make test, not test-fast
@pytest.mark.parametrize(
    ("content", "args", "says"),
    [
        ("[" * 1000, ["replay"], "nested deeper than 64 levels at line 1, column 65"),
        ("[" * 1000, ["review", "--seat", "1"], "nested deeper than 64 levels"),
        ("[" * 1000, ["keep"], "nested deeper than 64 levels"),
        ("1" * 4301, ["replay"], "an integer of 4301 digits (at most 20) at $"),
        ("1" * 4301, ["keep"], "an integer of 4301 digits (at most 20) at $"),
        (KEPT_TWICE["sums"], ["keep"], 'the key "Ann" is given twice at $.rounds[0].sums.Ann'),
        (
            KEPT_TWICE["players"],
            ["keep", "--json"],
            'the key "players" is given twice at $.players',
        ),
    ],
)
def test_the_issues_cases_as_installed(
    content: str, args: list[str], says: str, tmp_path: Path
) -> None:
    if not CARDROOM.exists():
        pytest.skip("the cardroom console script is not installed in this environment")
    path = tmp_path / "file.json"
    path.write_text(content)
    done = subprocess.run(
        [CARDROOM, args[0], path, *args[1:]], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"refused: {path}: "), done.stderr
    assert says in lines[0]
    assert "docs/rules.md" not in lines[0]  # nothing here is about the rules


@pytest.mark.slow  # runs the installed program: make test, not test-fast
def test_a_usage_mistake_as_installed_is_one_line_with_exit_code_2() -> None:
    if not CARDROOM.exists():
        pytest.skip("the cardroom console script is not installed in this environment")
    done = subprocess.run(
        [CARDROOM, "simulate", "--games", "0"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "refused: invalid value for '--games': Input should be greater than or equal to 1;"
        " see cardroom simulate --help"
    ]
