"""Same seeds, same games: digests of seeded bot matches, taken before the engine was made
faster (issue 16), must never change. A different digest means a rule, a bot or the order of
random draws changed: find out which before touching the golden value."""

from __future__ import annotations

import pytest

from cardroom.games.skip import Options
from cardroom.sim.digest import skip_digest, skyjo_digest
from cardroom.sim.play import play_match

GREEDY_200 = "a7848443901be9e21bd17f5a051b4dd77fc41337c316183b35d8f0d344fe15db"
GREEDY_200_RESULTS = "39944ad903d227d025758e55cbd380a1e396260e4c475c7fc0306f126c127ec1"
PLANNER_3 = "545f4d9a70307d4a0d14c32aa0164131c8e9e42f33d6babe6fc1dabd9d7dd785"
# The expert's changed on purpose when its weights gained ``cover`` (issue 35, 23ed383).
EXPERT_2_STOCK_3 = "bb15c76f9d24f378be46599369fa839d746c88d8aff793f28cee4d20c996bb5c"
RANDOM_20 = "f7ed4d11126e0fa236443662a0f9c06f4777225bbae480080c32c9e51633cf8a"
SKYJO_GREEDY_20 = "10e9a599e2304f4530817393bcd471326bf6ff8ea586b60805c86baf08105b7e"
SKYJO_COUNTER_2 = "fb9e0e1fdbf3dd4b63501ae26404c6ac67231a5ac9066faef5d66bfe6ddd5a3a"
SKYJO_SEARCH_1 = "1083676ec60e211387771a2deeb9365a862ca6fbeaf65933d27a7b42be2c319e"


def test_200_greedy_matches_play_the_same_moves() -> None:
    assert skip_digest(200) == GREEDY_200


def test_200_greedy_matches_end_the_same_without_a_move_log() -> None:
    def unrecorded(*args: object, **kwargs: object) -> object:
        return play_match(*args, record=False, **kwargs)  # type: ignore[arg-type]

    assert skip_digest(200, moves=False, play=unrecorded) == GREEDY_200_RESULTS


def test_random_bot_matches_play_the_same_moves() -> None:
    assert skip_digest(20, "random") == RANDOM_20


def test_planner_matches_play_the_same_moves() -> None:
    assert skip_digest(3, "planner") == PLANNER_3


@pytest.mark.slow
def test_expert_matches_play_the_same_moves() -> None:
    short = (Options(players=2, stock_size=3, match_target=None),)
    assert skip_digest(2, "expert", options=short) == EXPERT_2_STOCK_3


def test_skyjo_matches_play_the_same_moves() -> None:
    assert skyjo_digest(20) == SKYJO_GREEDY_20
    assert skyjo_digest(2, "counter") == SKYJO_COUNTER_2


@pytest.mark.slow
def test_a_skyjo_search_game_plays_the_same_moves() -> None:
    assert skyjo_digest(1, "search") == SKYJO_SEARCH_1
