"""Measured levels: ``cardroom calibrate`` rates a ladder of bots on duplicate deals with the
league's model, and the shipped ratings are those of the levels as they play now."""

from __future__ import annotations

import pytest

from cardroom.bots.calibrated import calibration_of, rating_of, spec_of
from cardroom.bots.levels import LEVELS_BY_GAME
from cardroom.games.skip import Options
from cardroom.sim.calibration import SPACING, calibrate, mode_of, pairings_of

TWO = Options(players=2, stock_size=5, match_target=None)


@pytest.fixture(scope="module")
def small() -> dict:
    """A quick ladder: random, a slipping greedy, greedy (cheap bots, short stocks)."""
    result = calibrate("skip", ["random", "casual:slip=0.25", "greedy"], TWO, 24, seed=3)
    return {"result": result, "json": result.to_json()}


def test_a_ladder_is_played_against_its_neighbours_only(small) -> None:
    result = small["result"]
    assert result.games == 2 * 24
    assert [(s.lower, s.upper) for s in result.steps] == [
        ("random", "casual:slip=0.25"),
        ("casual:slip=0.25", "greedy"),
    ]
    assert all(s.games == 24 for s in result.steps)
    assert pairings_of(["a", "b", "c"], Options(players=3)) == [("a", "b", "a"), ("b", "c", "b")]


def test_ratings_follow_strength_and_each_sits_inside_its_interval(small) -> None:
    levels = {r.level: r for r in small["result"].levels}
    assert levels["greedy"].ordinal > levels["casual:slip=0.25"].ordinal > levels["random"].ordinal
    for rated in levels.values():
        assert rated.low <= rated.high
        assert 0 < rated.sigma < 8.34  # the bootstrap's spread: surer than a newcomer
    # OpenSkill's updates move mu between the sides: the levels' mean stays at the default.
    assert sum(r.mu for r in levels.values()) / 3 == pytest.approx(25, abs=1.5)
    assert small["result"].steps[0].rate > SPACING[1]  # random is no match for anyone


def test_the_same_seed_gives_the_same_calibration(small) -> None:
    again = calibrate("skip", ["random", "casual:slip=0.25", "greedy"], TWO, 24, seed=3)
    assert again.to_json() == small["json"]


def test_levels_rates_a_part_of_the_ladder_in_its_order() -> None:
    """``cardroom calibrate --levels``: the named levels only, ordered as the ladder is."""
    import json

    from typer.testing import CliRunner

    from cardroom.cli import app

    args = ["calibrate", "--games", "2", "--jobs", "1", "--json", "--levels", "easy,beginner"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rated = json.loads(result.stdout)
    assert [(s["lower"], s["upper"]) for s in rated["steps"]] == [("beginner", "easy")]
    assert set(rated["levels"]) == {"beginner", "easy"}


def test_modes_are_the_league_s() -> None:
    assert mode_of(Options(players=2)) == "2p"
    assert mode_of(Options(players=3)) == "3p+"
    assert mode_of(Options(players=4, teams=True)) == "teams"


@pytest.mark.parametrize("game", sorted(LEVELS_BY_GAME))
def test_the_shipped_ratings_are_of_the_levels_as_they_play_now(game: str) -> None:
    """Change a level's bot or settings and this fails until ``cardroom calibrate --game
    GAME --write`` has measured it again."""
    calibration = calibration_of(game)
    assert calibration is not None, f"no calibration shipped for {game}"
    levels = LEVELS_BY_GAME[game]
    assert calibration["specs"] == {lv: spec_of(levels[lv]) for lv in levels}
    for level_id in levels:
        rating = rating_of(game, level_id)
        assert rating is not None
        assert rating["low"] <= rating["high"] and rating["sigma"] > 0
    ladder = list(levels)
    weakest, strongest = rating_of(game, ladder[0]), rating_of(game, ladder[-1])
    assert weakest and strongest and weakest["mu"] < strongest["mu"], "weakest first"
