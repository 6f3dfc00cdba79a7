"""The ``cardroom`` command, engine side: ``simulate`` is reproducible, ``replay`` judges."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()

SIMULATE = [
    "simulate",
    "--players",
    "3",
    "--games",
    "4",
    "--bots",
    "greedy,random",
    "-o",
    "stock=3",
    "-o",
    "match_target=200",
]


def _run(args: list[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr; stderr with rich's line wrapping undone."""
    result = runner.invoke(app, args)
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


@pytest.mark.parametrize("as_json", [True, False])
def test_simulate_with_the_same_seed_gives_byte_identical_output(as_json: bool) -> None:
    args = [*SIMULATE, "--seed", "7", *(["--json"] if as_json else [])]
    first, second = _run(args), _run(args)
    assert first[0] == second[0] == 0, first[2]
    assert first[1] == second[1]
    assert first[1].strip()
    if as_json:
        summary = json.loads(first[1])
        assert summary["games"] == 4
        assert summary["options"]["stock_size"] == 3
        other = json.loads(_run([*SIMULATE, "--seed", "8", "--json"])[1])
        assert other != summary  # the seed matters


def test_simulate_records_are_byte_identical_and_replay(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        code, _, err = _run([*SIMULATE, "--seed", "3", "--json", "--records", str(folder)])
        assert code == 0, err
    files = sorted(p.name for p in one.iterdir())
    assert files == [f"game-{n:05d}.json" for n in range(1, 5)]
    for name in files:
        assert (one / name).read_bytes() == (two / name).read_bytes()
        code, out, err = _run(["replay", str(one / name)])
        assert code == 0, err
        assert "valid:" in out


def test_simulate_refuses_bad_options_with_exit_code_2() -> None:
    code, _, err = _run(["simulate", "--players", "3", "--teams", "--games", "1"])
    assert code == 2
    assert "teams of two need 4, 6 or 8 players" in err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    code, _, err = _run([*SIMULATE, "--games", "1", "--seed", "5", "--records", str(tmp_path)])
    assert code == 0, err
    return tmp_path / "game-00001.json"


def test_replay_refuses_an_edited_record_with_exit_code_2_and_a_reason(record_file: Path) -> None:
    record = json.loads(record_file.read_text())
    move = record["rounds"][0]["moves"][2]
    move["seat"] = (move["seat"] + 1) % 3
    record_file.write_text(json.dumps(record))
    code, out, err = _run(["replay", str(record_file)])
    assert code == 2
    assert "valid" not in out
    assert "refused:" in err
    assert "round 1, move 3" in err and "'s turn" in err


def test_replay_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    code, _, err = _run(["replay", str(path)])
    assert code == 2
    assert err.startswith("refused:") and "not JSON: Expecting property name" in err
    assert "line 1, column 2" in err and "docs/notation.md" in err and "rules" not in err


@pytest.mark.slow  # runs the installed program: make test, not test-fast
def test_replay_command_as_installed(record_file: Path) -> None:
    """The real ``cardroom`` entry point: exit codes and stderr as a shell sees them."""
    exe = Path(sys.executable).with_name("cardroom")
    if not exe.exists():
        pytest.skip("the cardroom console script is not installed in this environment")
    ok = subprocess.run([exe, "replay", record_file], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "valid:" in ok.stdout
    record = json.loads(record_file.read_text())
    record["result"]["scores"] = [s + 5 for s in record["result"]["scores"]]
    record_file.write_text(json.dumps(record))
    bad = subprocess.run([exe, "replay", record_file], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    err = " ".join(bad.stderr.split())
    assert "refused:" in err and "the record's scores" in err
    assert "valid" not in bad.stdout


def test_the_command_list_gives_each_summary_as_prose_not_as_the_docstring_breaks_it() -> None:
    """A docstring is wrapped at 100 columns; ``cardroom --help`` joins its lines again, so a
    summary never stops in mid-sentence at the end of a source line."""
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    calibrate = next(line for line in result.stdout.splitlines() if " calibrate " in line)
    assert "against each other on duplicate deals: OpenSkill ratings" in calibrate
    assert "Skyjo" in result.stdout
