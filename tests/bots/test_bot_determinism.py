"""A seed means one game: every bot plays the same moves however slow the machine is.

Outside live play, search budgets are samples and nodes, never seconds. The proof: each bot
plays the same seeded match twice, once with a clock that runs normally and once with a
clock that leaps ahead 5 seconds at every reading (a machine so busy that any wall-clock cap
would strike at once), and the two game records must be byte-identical.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest

from cardroom.bots import BOTS
from cardroom.bots.levels import LEVELS, LIVE_TIME_CAP
from cardroom.games.skip import Options
from cardroom.sim.simulate import simulate

# Stock 1: every stock is within the expert's endgame from the first turn, so it searches at
# every decision, where a clock could change what it plays.
OPTIONS = Options(players=2, match_target=None, stock_size=1)
SPECS = [*sorted(BOTS), "hard"]


def _records(folder: Path, spec: str, options: Options = OPTIONS) -> list[bytes]:
    simulate(options, [spec, "planner"], games=1, seed=2, records=folder)
    return [path.read_bytes() for path in sorted(folder.iterdir())]


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock the bots could read jumps 5 s per reading."""
    ticks = itertools.count()
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        real = getattr(time, name)
        monkeypatch.setattr(time, name, lambda real=real: real() + 5.0 * next(ticks), raising=True)


@pytest.mark.parametrize("spec", SPECS)
def test_the_same_seed_gives_the_same_records_on_a_slow_clock(
    spec: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    normal = _records(tmp_path / "normal", spec)
    request.getfixturevalue("slow_clock")
    slowed = _records(tmp_path / "slowed", spec)
    assert len(normal) == 1
    assert normal == slowed


def test_a_time_cap_would_show_on_the_slow_clock(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The check above has teeth: the live cap, asked for, changes the expert's game (compared
    with no cap at all, not with the cap on the real clock: on a busy machine that one may
    strike too)."""
    options = OPTIONS.replace(stock_size=2)
    normal = _records(tmp_path / "normal", "expert", options)
    request.getfixturevalue("slow_clock")
    assert _records(tmp_path / "slowed", f"expert:time_cap={LIVE_TIME_CAP}", options) != normal


def test_only_live_play_asks_for_a_time_cap() -> None:
    """Levels build the same deterministic bots as the commands; ``live=True`` (the server's
    choice) adds the cap, and only to the bots that search."""
    assert LEVELS["master"].make(1).time_cap is None  # type: ignore[attr-defined]
    assert LEVELS["master"].make(1, live=True).time_cap == LIVE_TIME_CAP  # type: ignore[attr-defined]
    assert LEVELS["medium"].make(1, live=True).name == "greedy"
    assert LEVELS["easy"].make(1, live=True).name == "casual"
