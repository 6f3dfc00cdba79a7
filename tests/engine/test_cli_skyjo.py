"""The ``cardroom`` commands with ``--game skyjo``: the same commands, Skyjo's rules and bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()

SIMULATE = ["simulate", "--game", "skyjo", "--players", "3", "--games", "3"]
SIMULATE += ["--bots", "counter,greedy,random", "-o", "end_score=40"]


def _run(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, args)
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def test_skyjo_simulate_is_reproducible_and_its_records_replay(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    outputs = []
    for folder in (one, two):
        code, out, err = _run([*SIMULATE, "--seed", "4", "--json", "--records", str(folder)])
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]
    summary = json.loads(outputs[0])
    assert summary["games"] == 3 and summary["options"]["end_score"] == 40
    assert set(summary["bots"]) == {"counter", "greedy", "random"}
    for name in sorted(p.name for p in one.iterdir()):
        assert (one / name).read_bytes() == (two / name).read_bytes()
        record = json.loads((one / name).read_text())
        assert record["game"] == "skyjo"
        code, out, err = _run(["replay", str(one / name)])
        assert code == 0, err
        assert "valid:" in out and "Scores" in out


def test_replay_refuses_an_altered_skyjo_record_naming_the_skyjo_rules(tmp_path: Path) -> None:
    code, _, err = _run([*SIMULATE, "--games", "1", "--records", str(tmp_path)])
    assert code == 0, err
    path = tmp_path / "game-00001.json"
    record = json.loads(path.read_text())
    record["result"]["scores"][0] += 1
    path.write_text(json.dumps(record))
    code, _, err = _run(["replay", str(path)])
    assert code == 2
    assert "docs/skyjo-rules.md" in err


def test_skyjo_simulate_prints_a_table() -> None:
    code, out, err = _run([*SIMULATE, "--games", "2"])
    assert code == 0, err
    assert "Skyjo games, 3 players, to 40" in out and "counter" in out


def test_skyjo_tournament_plays_duplicate_deals() -> None:
    args = ["tournament", "--game", "skyjo", "--bots", "counter,greedy", "--games", "2"]
    code, out, err = _run([*args, "--jobs", "1", "--json", "-o", "end_score=30"])
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 2 and data["options"]["end_score"] == 30
    assert {"counter", "greedy"} == set(data["bots"])
    assert data["bots"]["counter"]["decision_ms_p95"] >= 0
    code, out, err = _run([*args, "--jobs", "1"])
    assert code == 0, err
    assert "duplicate deals" in out and "95% interval" in out


def test_skyjo_bench_engine_runs() -> None:
    code, out, err = _run(["bench", "engine", "--game", "skyjo", "--seconds", "0.1"])
    assert code == 0, err
    assert "reference loop" in out and "Skyjo games" in out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["simulate", "--game", "chess"], "unknown game 'chess'; choose one of skip, skyjo"),
        (["tournament", "--game", "chess"], "unknown game 'chess'"),
        (["bench", "engine", "--game", "chess"], "unknown game 'chess'"),
        (["simulate", "--game", "skyjo", "--bots", "expert"], "unknown bot 'expert'"),
        (["simulate", "--game", "skyjo", "--teams", "--players", "4"], "Skyjo has no teams"),
        (["simulate", "--game", "skyjo", "-o", "end_score=5"], "(S5.1)"),
        (["simulate", "--game", "skyjo", "-o", "stock=3"], "unknown option(s): stock"),
        (["tournament", "--game", "skyjo", "--players", "9"], "2 to 8 players"),
    ],
)
def test_bad_skyjo_input_is_refused_in_one_line(args: list[str], reason: str) -> None:
    code, out, err = _run(args)
    assert code == 2, out
    assert reason in err
    assert "Traceback" not in err


def test_skyjo_watch_shows_every_round_and_the_winner() -> None:
    args = ["watch", "--game", "skyjo", "--players", "2", "--bots", "counter,greedy"]
    code, out, err = _run([*args, "--pause", "0", "-o", "end_score=20"])
    assert code == 0, err
    assert "Round 1: closed by" in out and "Won by" in out
