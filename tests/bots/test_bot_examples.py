"""The example bots in ``examples/`` play through the real command line, as their authors
would run them: Python and JavaScript (Node) for Skip, Python for Skyjo."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PYTHON_BOT = f'cmd:"{sys.executable} {EXAMPLES / "skip_bot.py"}"'
NODE_BOT = f'cmd:"node {EXAMPLES / "skip_bot.js"}"'
pytestmark = pytest.mark.slow  # real programs, started by the real command line
needs_node = pytest.mark.skipif(
    shutil.which("node") is None, reason="no node (make test installs it)"
)


# Seconds per decision: generous, so that a lost turn means a wrong program, never a busy
# machine (the programs answer in milliseconds when the machine is idle).
PATIENT = "600"


def tournament(bots: str, *extra: str) -> dict:
    args = ["tournament", "--bots", bots, "--games", "2", "-o", "stock=5", "--json"]
    result = CliRunner().invoke(app, [*args, "--timeout", PATIENT, *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@needs_node
def test_the_python_and_javascript_examples_play_a_tournament_without_losing_a_turn(
    _bot_logs: Path,
) -> None:
    """Worker processes, each program serving its games; each named by its hello; each
    program's stderr (its results, told by ``over``) in a log file of its own."""
    data = tournament(f"planner,{NODE_BOT},{PYTHON_BOT}", "--jobs", "2")
    names = {stats["name"]: stats for stats in data["bots"].values()}
    assert set(names) == {"planner", "Stock first (JS)", "Stock first (Python)"}
    for stats in names.values():
        assert stats["games"] == 4 and stats["turns_lost"] == 0
    logs = {path.name: path.read_text() for path in _bot_logs.iterdir()}
    assert any("won" in text or "lost" in text for name, text in logs.items() if "node" in name)
    assert any("won" in text for name, text in logs.items() if "python" in name)


@needs_node
def test_a_name_given_in_the_spec_wins_over_the_hello() -> None:
    data = tournament(f"greedy,name=Nodey:{NODE_BOT}", "--jobs", "1")
    assert {stats["name"] for stats in data["bots"].values()} == {"greedy", "Nodey"}


def test_the_skyjo_example_plays_through_the_command_line() -> None:
    bot = f'cmd:"{sys.executable} {EXAMPLES / "skyjo_bot.py"}"'
    result = CliRunner().invoke(
        app,
        ["simulate", "--game", "skyjo", "--bots", f"{bot},greedy", "--games", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bots"][bot]["seats_played"] == 1  # a program that never played fails the run


def test_a_command_quoted_inside_a_list_of_bots_starts() -> None:
    """The issue's line, ``planner,cmd:"node a.js"``: the quotes delimit, they are not run."""
    data = tournament(f"planner,{PYTHON_BOT}", "--jobs", "1")
    assert [stats["turns_lost"] for stats in data["bots"].values()] == [0, 0]
