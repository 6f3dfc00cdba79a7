"""Every ``cardroom`` command shown in README.md and docs/*.md works, as documented.

Commands in fenced code blocks are run through the installed ``cardroom`` script from the
project's root, as a newcomer would paste them, with small sizes substituted (``SIZES``) so the
whole file takes well under a minute on an idle machine; ``/tmp/...`` paths go to a
temporary folder. Commands named in running text (inline code) are references: their
subcommand must exist and every option they show must be one it takes.

``serve`` runs until stopped, so documented ``serve`` lines are not run as they stand: their
options are checked, and ``test_the_documented_server_starts_and_answers`` starts it once (on
SQLite and a free port), waits for ``/healthz`` and stops it. The PostgreSQL and Redis forms
(docs/scaling.md) are covered by tests/server. Likewise ``bench server`` and ``bench abuse``,
whose code tests/server runs and checks more closely (``RUN_ELSEWHERE``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import typer

from cardroom.cli import app
from tests.resources import free_port, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CARDROOM = Path(sys.executable).with_name("cardroom")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)

# What replaces a documented size (option -> value), and what is added when absent, per
# subcommand: the same code paths, a fraction of the work.
SIZES = {"--games": "2", "--tables": "2", "--decisions": "8", "--tickets": "300"}
EXTRA = {
    ("watch",): ["--pause", "0"],
    ("bench", "engine"): ["--seconds", "0.1"],
    ("bench", "bots"): ["--decisions", "8"],
    ("bench", "weights"): ["--games", "2", "--jobs", "1", "--focus", "wild"],
    ("bench", "review"): ["--rounds", "1"],
    ("calibrate",): ["--levels", "beginner,easy"],  # the quick end of the ladder
}
SMALLER_BOTS = {"expert": "expert:samples=2"}  # the expert's search, on a smaller budget
RUN_ELSEWHERE = {
    ("bench", "server"): ("tests/server/test_server_bench.py", "server_load.main("),
    ("bench", "abuse"): ("tests/server/test_abuse.py", "abuse.main("),
}
"""Commands whose code another test runs (``main``, in process, small) and checks more closely:
here only their options are checked, as for ``serve``."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CARDROOM.exists(), reason="cardroom is not installed"),
]


def _is_command(text: str) -> bool:
    words = text.split()
    return len(words) > 1 and (words[0] == "cardroom" or words[0].endswith("/cardroom"))


def documented(document: Path) -> tuple[list[str], list[str]]:
    """(commands in code blocks, commands in inline code) of one document, in order."""
    text = document.read_text()
    blocks = [line.strip() for block in FENCE.findall(text) for line in block.splitlines()]
    prose = FENCE.sub("", text)
    inline = [span.strip() for span in re.findall(r"`([^`\n]+)`", prose)]
    return [c for c in blocks if _is_command(c)], [c for c in inline if _is_command(c)]


def _words(command: str) -> list[str]:
    """The command as a shell would pass it: ``[--x y]`` (optional) taken, ``&`` and
    comments dropped."""
    command = re.sub(r"\[(--[^\]]*)\]", r"\1", command)
    words = shlex.split(command, comments=True)
    return [w for w in words if w != "&"][1:]


def _subcommand(words: list[str]) -> tuple[str, ...]:
    return tuple(words[:2]) if words[0] == "bench" else (words[0],)


def _runnable(words: list[str], tmp: Path) -> list[str]:
    """The documented words with small sizes, temporary paths and the additions of EXTRA."""
    out: list[str] = []
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        if before in SIZES:
            word = SIZES[before]
        elif before == "--bots":
            word = ",".join(SMALLER_BOTS.get(bot, bot) for bot in word.split(","))
        elif word.startswith("/tmp/"):
            word = str(tmp / word.removeprefix("/tmp/"))
        out.append(word)
    for extra in EXTRA.get(_subcommand(words), []):
        if extra.startswith("--") and extra in out:
            return out  # the document gives its own sizes: keep them (already shrunk)
    return out + EXTRA.get(_subcommand(words), [])


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run(
        [str(CARDROOM), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def _options_exist(words: list[str]) -> None:
    """Every option a documented command shows is one its subcommand takes."""
    sub = _subcommand(words)
    command = typer.main.get_command(app)  # typer's own click: look, do not isinstance
    for name in sub:
        assert name in getattr(command, "commands", {}), (
            f"`cardroom {' '.join(words)}`: there is no command {' '.join(sub)}"
        )
        command = command.commands[name]  # type: ignore[attr-defined]
    takes = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    for word in words[len(sub) :]:
        if word.startswith("--"):
            name = word.split("=")[0]
            assert name in takes, (
                f"`cardroom {' '.join(words)}` shows {name}, which {' '.join(sub)} does not take"
            )


def test_the_readme_documents_the_commands_this_test_runs() -> None:
    """Guards the extraction: if it found nothing, every test below would pass vacuously."""
    blocks, inline = documented(ROOT / "README.md")
    subcommands = {_subcommand(_words(c)) for c in blocks}
    assert {("simulate",), ("replay",), ("watch",), ("tournament",)} <= subcommands
    assert {("bench", "engine"), ("bench", "weights"), ("bench", "server")} <= subcommands
    assert any(_words(c)[0] == "serve" for c in inline)


def test_the_commands_run_elsewhere_are_run_there() -> None:
    for path, call in RUN_ELSEWHERE.values():
        assert call in (ROOT / path).read_text(), f"{path} does not call {call}"


def chains(document: Path) -> list[list[str]]:
    """A document's code-block commands in runs that share files: a command joins the run of
    an earlier one that names the same ``/tmp/...`` path (the README's replay reads the records
    its simulate wrote); the others stand alone, so the runs spread over test workers."""
    runs: list[tuple[set[str], list[str]]] = []
    for command in documented(document)[0]:
        paths = {w.split("/")[2] for w in _words(command) if w.startswith("/tmp/")}
        joined = next((run for run in runs if run[0] & paths), None)
        if joined is None:
            runs.append((paths, [command]))
        else:
            joined[0].update(paths)
            joined[1].append(command)
    return [commands for _paths, commands in runs]


RUNS = [(document, run) for document in DOCUMENTS for run in chains(document)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "commands",
    [run for _document, run in RUNS],
    ids=[f"{document.name}:{' '.join(_words(run[0])[:2])}" for document, run in RUNS],
)
def test_every_documented_command_runs(commands: list[str], tmp_path: Path) -> None:
    """In document order within a run, since a later command may read what an earlier one
    wrote."""
    for command in commands:
        words = _words(command)
        _options_exist(words)
        if words[0] == "serve":
            continue  # runs until stopped: see test_the_documented_server_starts_and_answers
        if _subcommand(words) in RUN_ELSEWHERE:
            continue
        done = _run(_runnable(words, tmp_path))
        assert done.returncode == 0, f"`{command}` failed:\n{done.stdout[-2000:]}{done.stderr}"
        assert "Traceback" not in done.stderr, f"`{command}`:\n{done.stderr}"


@pytest.mark.slow
def test_the_documented_server_starts_and_answers(tmp_path: Path) -> None:
    """README: ``cardroom serve [--host 127.0.0.1] [--port 8000] [--db URL]``, with a free
    port and a SQLite file of its own; it must answer /healthz, then it is stopped."""
    port = free_port()
    args = ["serve", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--db", f"sqlite:///{tmp_path}/cardroom.db"]
    log = (tmp_path / "serve.log").open("w")
    env = {**os.environ, "CARDROOM_LOG_LEVEL": "warning"}
    server = subprocess.Popen([str(CARDROOM), *args], cwd=tmp_path, env=env, stdout=log, stderr=log)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(url, server, tmp_path / "serve.log")
        answer = httpx.get(f"{url}/healthz", timeout=10)
        assert answer.status_code == 200 and answer.json()["ok"] is True
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
