"""The compiled engine (``make compiled``, mypyc) plays exactly the games of pure Python: the
200-match digest of ``test_match_digest`` in both builds, each in its own process. Skipped
when no compiled build is present."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cardroom import build

from .test_match_digest import GREEDY_200, GREEDY_200_RESULTS

pytestmark = pytest.mark.skipif(
    not build.present_modules(), reason="no compiled build (make compiled)"
)

PLAY = """
from cardroom.build import running
from cardroom.sim.digest import skip_digest
from cardroom.sim.play import play_match
def unrecorded(*args, **kwargs):
    return play_match(*args, record=False, **kwargs)
print(running(), skip_digest(200), skip_digest(200, moves=False, play=unrecorded))
"""


def _play(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_PURE"}
    if pure:
        env["CARDROOM_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.rsplit(maxsplit=2)


def test_a_compiled_build_is_fresh_or_set_aside() -> None:
    assert not build.stale_modules(), "sources changed since make compiled: run it again"


def test_the_compiled_build_plays_the_same_200_matches() -> None:
    name, moves, results = _play(pure=False)
    assert name.endswith("compiled")
    assert (moves, results) == (GREEDY_200, GREEDY_200_RESULTS)


def test_pure_python_beside_a_compiled_build_plays_the_same_200_matches() -> None:
    name, moves, results = _play(pure=True)
    assert name.endswith("Python")
    assert (moves, results) == (GREEDY_200, GREEDY_200_RESULTS)
