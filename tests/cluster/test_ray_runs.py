"""Runs on a Ray cluster (``--cluster ray``, ``cardroom.batches``): a seed means the same games
there as on one process, byte for byte (the digest of every move), however the batches are
placed and even when a worker dies mid-run; Ctrl-C ends the workers; a program that never
answers its hello on a worker is refused there too, and leaves no process behind.

One local Ray of two CPUs serves the whole file (starting one takes seconds).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardroom.batches import RayCluster, run_batches
from cardroom.benchmarks.cluster import measure
from cardroom.bots import external
from cardroom.bots.value import self_play
from cardroom.cli import app
from cardroom.games.skip import Options
from cardroom.sim.calibration import calibrate
from cardroom.sim.tournament import Tournament, play_batch, run, schedule
from tests.resources import exited, processes_left

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "skip_bot.py"
QUICK = Options(players=2, match_target=None, stock_size=5)
TWO = RayCluster(workers=2)
SECRET = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module", autouse=True)
def ray_cluster() -> Iterator[None]:
    """A local Ray of two CPUs in a folder of its own, for every test of the file."""
    ray = pytest.importorskip("ray")
    folder = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's sockets live there
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        _temp_dir=folder,
    )
    yield
    ray.shutdown()
    shutil.rmtree(folder, ignore_errors=True)


def played(data: dict[str, Any]) -> dict[str, Any]:
    """A tournament's JSON without what the clock measured."""
    del data["seconds"]
    for stats in data["bots"].values():
        del stats["decision_ms_p50"], stats["decision_ms_p95"]
    return data


def test_a_seed_gives_the_same_tournament_on_ray_as_on_one_process(_bot_logs: Path) -> None:
    """The same command and seed (and, with a program, secret): the same games, move for move;
    the program's stderr comes back from the workers to the caller's log folder."""
    common = [
        "tournament",
        "--bots",
        f"greedy,random,cmd:{sys.executable} {EXAMPLE}",
        "--games",
        "6",
        "--seed",
        "3",
        "-o",
        "stock=5",
        "--timeout",
        "60",
        "--secret",
        SECRET,
        "--json",
    ]
    here = CliRunner().invoke(app, [*common, "--jobs", "1"])
    assert here.exit_code == 0, here.output
    local_logs = set(_bot_logs.iterdir())
    there = CliRunner().invoke(app, [*common, "--cluster", "ray", "--jobs", "2", "--batch", "2"])
    assert there.exit_code == 0, there.output
    one, ray = json.loads(here.stdout), json.loads(there.stdout)
    assert one["secret"] == ray["secret"] == SECRET
    assert played(one) == played(ray)
    came_back = set(_bot_logs.iterdir()) - local_logs
    assert came_back and any("won" in path.read_text() for path in came_back)


def test_a_worker_killed_mid_run_changes_no_game(caplog: pytest.LogCaptureFixture) -> None:
    """A worker's process is killed while the other plays: the batch it held is played again
    by a new worker, and every game is the one the seed deals."""
    bots = ["expert:samples=2:candidates=2", "greedy"]  # games slow enough to be mid-batch
    plan = schedule(bots, QUICK, games=4, seed=4)
    # A game a batch: when the first comes back the other worker is playing its own, and
    # batches still wait, so the dead worker is found whether or not it had finished.
    batches = [([game], QUICK, 5.0) for game in plan]
    workers: list[tuple[str, int]] = []
    killed: list[int] = []
    again = Tournament(QUICK, bots, 4, [tuple(bots)])
    with caplog.at_level(logging.WARNING, logger="cardroom.batches"):
        for done in run_batches(play_batch, batches, TWO, on_start=workers.extend):
            for result in done.result:
                again.add(result)
            if not killed:
                killed.append(next(pid for _, pid in workers if pid != done.pid))
                os.kill(killed[0], signal.SIGKILL)
    assert again.games == len(plan)
    assert "died" in caplog.text
    assert again.digest == run(bots, QUICK, games=4, seed=4).digest


def test_ctrl_c_ends_every_worker_at_once() -> None:
    """Ctrl-C (a ``KeyboardInterrupt`` while the batches come back) ends the run's workers,
    not only the caller: no worker process is left playing."""
    plan = schedule(["greedy", "random"], QUICK, games=8, seed=6)
    batches = [([game], QUICK, 5.0) for game in plan]
    workers: list[tuple[str, int]] = []
    with pytest.raises(KeyboardInterrupt):
        for _ in run_batches(play_batch, batches, TWO, on_start=workers.extend):
            raise KeyboardInterrupt
    assert len(workers) == 2
    assert all(ended(pid) for _, pid in workers)


def ended(pid: int, within: float = 30.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``within`` seconds: Ray ends a
    killed worker's process a moment after ``ray.kill`` returns."""
    return exited(pid, within)


def test_a_calibration_is_the_same_on_ray() -> None:
    ladder = ["random", "casual:slip=0.25", "greedy"]
    here = calibrate("skip", ladder, QUICK, 8, seed=3)
    there = calibrate("skip", ladder, QUICK, 8, seed=3, cluster=TWO, batch=3)
    assert here.to_json() == there.to_json()
    assert here.tournament.digest == there.tournament.digest


def test_a_simulation_and_its_records_are_the_same_on_ray(tmp_path: Path) -> None:
    command = ["simulate", "--bots", "greedy,random", "--games", "6", "--seed", "2", "--json"]
    command += ["-o", "stock=5"]
    here = CliRunner().invoke(app, [*command, "--records", str(tmp_path / "here")])
    there = CliRunner().invoke(
        app,
        [*command, "--records", str(tmp_path / "there"), "--cluster", "ray", "--batch", "2"],
    )
    assert here.exit_code == there.exit_code == 0, here.output + there.output
    assert json.loads(here.stdout) == json.loads(there.stdout)
    records = sorted((tmp_path / "here").iterdir())
    assert len(records) == 6
    for record in records:
        assert (tmp_path / "there" / record.name).read_bytes() == record.read_bytes()


def test_the_cluster_bench_measures_the_same_games_both_ways() -> None:
    """``cardroom bench cluster`` (a benchmark, not a timed test): its figures are there and
    the Ray run played the games of the --jobs 2 one."""
    figures, note = measure(games=2, seed=1)
    values = {figure.what: figure.value for figure in figures}
    assert values["the same games, move for move (digest)"] == "yes"
    assert "× the reference" in values["local Ray, 2 workers: games/s"]
    assert "N machines" in note


def test_the_value_fits_self_play_is_the_same_on_ray() -> None:
    assert self_play(2, 5, TWO) == self_play(2, 5)


def test_a_program_that_never_answers_on_a_worker_is_refused_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It answers its hello here (the spec's check) and never on a worker: refused with the
    documented error and exit code 2, no process of it left on any worker."""
    monkeypatch.setattr(external, "START_TIMEOUT", 0.5)  # the documented 10 s, shortened
    marker = f"{200_000 + os.getpid()}.{len(str(tmp_path))}"
    once = tmp_path / "once.sh"
    answered = tmp_path / "answered"
    once.write_text(
        "#!/bin/sh\n"
        f'if [ -e "{answered}" ]; then sleep {marker}; exit; fi\n'
        f'touch "{answered}"\n'
        "read line\n"
        'echo \'{"type": "hello", "name": "Once"}\'\n'
    )
    once.chmod(0o755)
    outcome = CliRunner().invoke(
        app, ["tournament", "--bots", f"greedy,cmd:{once}", "--games", "2", "--cluster", "ray"]
    )
    assert outcome.exit_code == 2, outcome.output
    assert "refused: on a worker:" in outcome.stderr
    assert "did not answer the hello within 0.5 s" in outcome.stderr
    assert processes_left("sleep", marker) == []
