"""``cardroom keep FILE``: the sheet as a table, CSV or JSON; a bad file is refused in one
line with a non-zero exit."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.keeper import from_json, to_csv

ROOT = Path(__file__).resolve().parents[2]
SKYJO = ROOT / "examples" / "skyjo_kept_game.json"
SKIP = ROOT / "examples" / "skip_kept_game.json"

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["keep", *args], env={"COLUMNS": "120"})
    return result.exit_code, result.stdout, result.stderr


def test_keep_prints_the_rounds_the_totals_and_the_winner():
    code, out, err = _run(str(SKYJO))
    assert code == 0, err
    assert "Skyjo, to 100 (S5.1)" in out
    for name in ("Ann", "Bob", "Cy"):
        assert name in out
    assert "28 ×2* (28)" in out  # round 1: Ann closed with 14 and was doubled
    assert "-2 * (61)" in out  # round 4: Cy closed with -2, never doubled
    assert "73" in out and "106" in out and "131" in out
    assert out.strip().endswith("Game over after round 5: Ann wins.")


def test_keep_prints_a_skip_team_game():
    code, out, err = _run(str(SKIP))
    assert code == 0, err
    assert "Skip, to 200 (R6.3), teams Ann & Cy v Bob & Dan" in out
    assert "100 * (100)" in out
    assert out.strip().endswith("Game over after round 3: Ann & Cy win.")


def test_keep_csv_and_json_are_the_keepers_exports():
    code, out, _ = _run(str(SKYJO), "--csv")
    assert code == 0
    assert out == to_csv(from_json(json.loads(SKYJO.read_text())))
    assert list(csv.reader(io.StringIO(out)))[-1][0] == "total"
    code, out, _ = _run(str(SKIP), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["results"]["winners"] == ["Ann", "Cy"]
    assert from_json(data) == from_json(json.loads(SKIP.read_text()))


def _refused(path: Path, *args: str) -> str:
    code, out, err = _run(str(path), *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return " ".join(err.split())


def test_keep_refuses_a_missing_file_bad_json_and_bad_entries(tmp_path: Path):
    assert "cannot read" in _refused(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert "not JSON: Expecting property name" in _refused(bad)
    data = json.loads(SKYJO.read_text())
    data["rounds"][1]["sums"]["Bob"] = 150
    bad.write_text(json.dumps(data))
    message = _refused(bad)
    assert "round 2, sums.Bob: 150 is not a sum" in message and "docs/keeper.md" in message
    data["rounds"][1]["sums"]["Bob"] = 17
    data["rounds"][0]["closer"] = "Zed"
    bad.write_text(json.dumps(data))
    assert "round 1, closer: 'Zed' is not one of the players" in _refused(bad)
    bad.write_bytes(b"\xff\xfe\x00")
    assert "is UTF-16 text" in _refused(bad)
    bad.write_bytes(b'{"a": "\xff"}')
    assert "not UTF-8 text: byte 0xff at line 1, column 8" in _refused(bad)
    assert "--csv or --json" in _refused(SKYJO, "--csv", "--json")
