"""The compiled engine (``make compiled``, mypyc) plays exactly the games of pure Python: the
200-match digest of ``test_match_digest`` in both builds, each in its own process, and the
planner's and the expert's matches (their search is compiled too), and Skyjo's counter and
search games (its rules and the search's rollouts are compiled). Skipped when no compiled
build is present."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardroom import build

from .test_match_digest import (
    EXPERT_2_STOCK_3,
    GREEDY_200,
    GREEDY_200_RESULTS,
    PLANNER_3,
    SKYJO_COUNTER_2,
    SKYJO_SEARCH_1,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not build.present_modules(), reason="no compiled build (make compiled)"),
]

PLAY = """
from cardroom.build import running
from cardroom.games.skip import Options
from cardroom.sim.digest import skip_digest, skyjo_digest
from cardroom.sim.play import play_match
def unrecorded(*args, **kwargs):
    return play_match(*args, record=False, **kwargs)
short = (Options(players=2, stock_size=3, match_target=None),)
print(
    running(),
    skip_digest(200),
    skip_digest(200, moves=False, play=unrecorded),
    skip_digest(3, "planner"),
    skip_digest(2, "expert", options=short),
    skyjo_digest(2, "counter"),
    skyjo_digest(1, "search"),
)
"""


def _play(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_PURE"}
    if pure:
        env["CARDROOM_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.rsplit(maxsplit=6)


def test_a_compiled_build_is_fresh_or_set_aside() -> None:
    assert not build.stale_modules(), "sources changed since make compiled: run it again"


GOLDEN = [
    GREEDY_200,
    GREEDY_200_RESULTS,
    PLANNER_3,
    EXPERT_2_STOCK_3,
    SKYJO_COUNTER_2,
    SKYJO_SEARCH_1,
]


def test_the_compiled_build_plays_the_same_matches() -> None:
    name, *digests = _play(pure=False)
    assert name.endswith("compiled")
    assert digests == GOLDEN


def test_pure_python_beside_a_compiled_build_plays_the_same_matches() -> None:
    name, *digests = _play(pure=True)
    assert name.endswith("Python")
    assert digests == GOLDEN
