"""Every bad input to a command is refused in one line with a non-zero exit, never a
traceback; every option says what it does; one bot-spec syntax works in every command; the
tables fit 80 columns."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "skip_bot.py"
EXTERNAL = f'cmd:"{sys.executable} {EXAMPLE}"'
QUICK = ["-o", "stock=2"]


def _refused(args: list[str], code: int = 2, env: dict[str, str] | None = None) -> str:
    """Run the command; check it failed cleanly with ``code``; return its one stderr line."""
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "--games", "1", "--records", "/proc/nope"], "cannot write game records"),
        (["tournament", "--bots", "greedy,random", "--plot", "/proc/x.png"], "cannot write"),
        (["tournament", "--bots", "greedy,random", "--plot", "/tmp/x.txt"], ".png"),
        (["tournament", "--bots", "planner:foo=1,greedy"], "unknown planner weight(s): foo"),
        (["tournament", "--bots", "planner:defence=abc,greedy"], "defence='abc'"),
        (["tournament", "--bots", "greedy"], "2 or more different"),
        (["tournament", "--bots", "greedy,greedy"], "2 or more different"),
        (["tournament", "--bots", "greedy:depth=2,random"], "greedy takes no setting depth"),
        (["tournament", "--bots", "cmd:nonexistent-binary,greedy"], "no program"),
        (["simulate", "--bots", "cmd:nonexistent-binary"], "no program"),
        (["watch", "--bots", "wizard"], "unknown bot 'wizard'"),
        (["bench", "weights", "--focus", "nosuch"], "--focus is one of"),
        (["calibrate", "--levels", "easy,wizard"], "no level wizard; the levels are beginner"),
        (["calibrate", "--levels", "easy"], "at least two levels"),
        (["calibrate", "--levels", "easy,hard", "--write"], "leave --levels out"),
    ],
)
def test_bad_inputs_are_refused_in_one_line_before_anything_runs(
    args: list[str], says: str
) -> None:
    assert says in _refused(args)


@pytest.mark.parametrize(
    "args",
    [
        ["watch", "--pause", "-1"],
        ["tournament", "--jobs", "0"],
        ["simulate", "--games", "0"],
    ],
)
def test_out_of_range_numbers_are_usage_errors_without_a_traceback(args: list[str]) -> None:
    """Refused in one line like any other bad input, not in typer's box."""
    line = _refused(args)
    assert line.startswith("refused: invalid value for '--") and line.endswith(" --help")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "--nope"], "no such option: --nope"),
        (["simulate", "--games", "many"], "invalid value for '--games'"),
        (["replay"], "missing argument"),
        (["review", "x.json"], "missing option '--seat'"),
        (["bench", "weights", "--nope"], "no such option: --nope"),
        (["nosuch"], "no such command 'nosuch'"),
    ],
)
def test_usage_mistakes_are_refused_in_one_line_with_exit_code_2(
    args: list[str], says: str
) -> None:
    assert says in _refused(args)


def test_a_program_that_fails_its_first_exchange_is_refused_before_any_game() -> None:
    """It exists, but it exits at once: refused at its hello, before a game is played."""
    line = _refused(
        ["simulate", "--games", "1", "--bots", f'cmd:"{sys.executable} -c pass",greedy', *QUICK]
    )
    assert "failed its first exchange" in line and "before its hello" in line


def test_a_program_that_never_plays_fails_the_run(tmp_path: Path) -> None:
    """It says hello, then dies at every decision: losing every turn is not a game."""
    dies = tmp_path / "dies.py"
    dies.write_text(
        "import json, sys\nsys.stdin.readline()\nprint(json.dumps({'type': 'hello'}))\n"
    )
    line = _refused(
        ["simulate", "--games", "1", "--bots", f'cmd:"{sys.executable} {dies}",greedy', *QUICK],
        code=1,
    )
    assert "lost all" in line and "of its turns" in line


def test_the_tournament_runs_with_its_default_jobs() -> None:
    """The README's line has no --jobs: the default (one worker per core) must work."""
    result = runner.invoke(
        app, ["tournament", "--bots", "greedy,random", "--games", "2", "--json", *QUICK]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2


@pytest.mark.parametrize("command", ["simulate", "watch", "tournament"])
def test_every_command_takes_the_same_bot_specs(command: str) -> None:
    """Names, levels, settings and programs, in simulate, watch and tournament alike."""
    bots = f"planner:defence=20,easy,{EXTERNAL}"
    args = {
        "simulate": ["simulate", "--players", "3", "--games", "1"],
        "watch": ["watch", "--players", "3", "--pause", "0"],
        "tournament": ["tournament", "--games", "2", "--jobs", "1"],
    }[command]
    result = runner.invoke(app, [*args, "--bots", bots, *QUICK])
    assert result.exit_code == 0, result.output
    assert "planner:defence=20" in result.stdout and "easy" in result.stdout


def _options(command: Any, path: str = "") -> list[tuple[str, Any]]:
    """(command path, option) for every option of every command (typer bundles its own click,
    so this goes by attributes, not by click's classes)."""
    found = []
    for name, sub in getattr(command, "commands", {}).items():
        found += _options(sub, f"{path} {name}")
    if not hasattr(command, "commands"):
        found += [(path, p) for p in command.params if p.param_type_name == "option"]
    return found


def test_every_option_of_every_command_says_what_it_does() -> None:
    options = _options(typer.main.get_command(app))
    assert len(options) > 30  # the walk found them all (simulate alone has 8)
    missing = [f"{path} {param.opts[0]}" for path, param in options if not param.help]
    assert missing == []
    result = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "200"})
    assert "(default: one per core, or per CPU of the cluster)" in result.stdout  # not markup


def test_the_tournament_tables_fit_80_columns_without_cutting_anything() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "planner:defence=20:refill=11:empty_pile=0,planner,greedy",
            "--games",
            "2",
            "--jobs",
            "1",
            *QUICK,
        ],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "0.0%–" in result.stdout or "50.0%–" in result.stdout or "100.0%" in result.stdout


# -- replay: records of the wrong shape ------------------------------------------------------


@pytest.fixture
def record(tmp_path: Path) -> dict[str, object]:
    result = runner.invoke(app, ["simulate", "--games", "1", "--records", str(tmp_path), *QUICK])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "game-00001.json").read_text())


def _break(record: dict, change: str) -> dict:
    if change == "no seed":
        del record["seed"]
    elif change == "result null":
        record["result"] = None
    elif change == "moves null":
        record["rounds"][0]["moves"] = None
    elif change == "rounds [1]":
        record["rounds"] = [1]
    elif change == "first_dealer x":
        record["first_dealer"] = "x"
    elif change == "seats null":
        record["seats"] = None
    elif change == "options null":
        record["options"] = None
    return record


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("no seed", "missing required field `seed`"),
        ("result null", "got `null` - at `$.result`"),
        ("moves null", "got `null` - at `$.rounds[0].moves`"),
        ("rounds [1]", "got `int` - at `$.rounds[0]`"),
        ("first_dealer x", "got `str` - at `$.first_dealer`"),
        ("seats null", "got `null` - at `$.seats`"),
        ("options null", "got `null` - at `$.options`"),
    ],
)
def test_replay_refuses_a_record_of_the_wrong_shape_in_one_line(
    record: dict, change: str, says: str, tmp_path: Path
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_break(record, change)))
    line = _refused(["replay", str(path)])
    assert line.startswith("refused:") and says in line
    assert "docs/notation.md" in line and "rules" not in line  # the form, not a rule


def test_replay_refuses_a_file_it_cannot_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert "is UTF-16 text" in _refused(["replay", str(path)])
    path.write_bytes(b"\x80garbage")
    assert "not UTF-8 text: byte 0x80 at line 1, column 1" in _refused(["replay", str(path)])


# -- serve: settings, database and Redis checked before serving -----------------------------


@pytest.mark.parametrize(
    ("args", "env", "code", "says"),
    [
        ([], {"CARDROOM_PORT": "abc"}, 2, "CARDROOM_PORT='abc'"),
        ([], {"CARDROOM_BOT_EXECUTOR": "gpu"}, 2, "CARDROOM_BOT_EXECUTOR='gpu'"),
        ([], {"CARDROOM_GC_THRESHOLDS": "1,2"}, 2, "three whole numbers"),
        (["--db", "nonsense://"], {}, 2, "is not a database URL"),
        (["--db", "postgresql://x@127.0.0.1:1/x"], {}, 1, "cannot reach the database"),
        (["--db", "postgresql://x:hunter2@127.0.0.1:1/x"], {}, 1, "x:***@127.0.0.1"),
        (["--db", "sqlite:////proc/nope/cardroom.db"], {}, 1, "cannot make the folder"),
        (["--redis", "redis://127.0.0.1:1/0"], {}, 1, "cannot reach Redis"),
        (["--redis", "http://127.0.0.1/0"], {}, 2, "is not a Redis URL"),
    ],
)
def test_serve_refuses_bad_settings_and_unreachable_services_at_start(
    args: list[str], env: dict[str, str], code: int, says: str, tmp_path: Path
) -> None:
    if "--db" not in args:
        args = [*args, "--db", f"sqlite:///{tmp_path}/cardroom.db"]
    line = _refused(["serve", *args], code=code, env=env)
    assert says in line
    assert "hunter2" not in line
