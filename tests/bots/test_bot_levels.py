"""Levels for people: each names a bot and its settings; every one of them plays."""

from __future__ import annotations

import pytest

from cardroom.bots import BOTS, make_bot
from cardroom.bots.levels import LEVELS, level
from cardroom.games.skip import Options, new_round, view


def test_levels_run_from_beginner_to_master() -> None:
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "master"]
    assert [LEVELS[i].bot for i in LEVELS] == ["casual", "casual", "greedy", "planner", "expert"]
    assert LEVELS["beginner"].settings["slip"] > LEVELS["easy"].settings["slip"]
    for entry in LEVELS.values():
        assert entry.name and entry.description.endswith(".")


@pytest.mark.parametrize("level_id", list(LEVELS))
def test_every_level_makes_a_bot_that_plays(level_id: str) -> None:
    state = new_round(Options(players=2, match_target=None), 1)
    seen = view(state, state.current)
    assert level(level_id).make(seed=7).choose(seen) in seen.legal_actions()


@pytest.mark.parametrize("name", sorted(BOTS))
def test_make_bot_by_name_and_seed_still_works(name: str) -> None:
    assert make_bot(name, 3).name == name


def test_unknown_levels_and_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        level("grandmaster")
    with pytest.raises(ValueError, match="unknown planner weight"):
        make_bot("planner", 1, {"courage": 1})
