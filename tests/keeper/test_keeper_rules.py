"""The score keeper's rules (S6.1-S6.4), each test named after the rule it checks, and the
keeper's refusals: each names the field to correct and leaves the kept game unchanged."""

from __future__ import annotations

import dataclasses

import pytest

import cardroom.games.skip.match as skip_match
import cardroom.games.skip.rules as skip_rules
import cardroom.games.skyjo.match as skyjo_match
import cardroom.games.skyjo.rules as skyjo_rules
from cardroom.games.skyjo.cards import COLUMNS, COPIES, ROWS
from cardroom.keeper import (
    HIGHEST_SUM,
    LOWEST_SUM,
    KeeperError,
    SkipRound,
    SkipSettings,
    SkyjoRound,
    new_game,
    sheet,
)

from .support import refused, skip, skyjo

# -- S6.1: un-doubled sums in, the keeper doubles -------------------------------------------


def test_S6_1_the_keeper_doubles_a_closer_who_is_not_strictly_the_lowest_and_says_why():
    game = skyjo(([14, 9, 21], "Ann"))
    line = game.sheet.lines[0]
    assert line.points == (28, 9, 21)
    assert line.doubled and line.why == "not_lowest"
    assert line.note == "Ann closed with 14, not the lowest (Bob 9): doubled to 28 (S4.3)"


def test_S6_1_a_tie_for_the_lowest_doubles_the_closer():
    line = skyjo(([12, 12, 30], "Bob")).sheet.lines[0]
    assert line.points == (12, 24, 30) and line.doubled and line.why == "tied"
    assert "tied for the lowest with Ann" in line.note


def test_S6_1_a_closer_with_the_strictly_lowest_sum_is_not_doubled():
    line = skyjo(([3, 17, 12], "Ann")).sheet.lines[0]
    assert line.points == (3, 17, 12) and not line.doubled and line.why == "lowest"
    assert line.note == "Ann closed with 3, strictly the lowest: not doubled (S4.3)"


@pytest.mark.parametrize("own", [0, -5])
def test_S6_1_zero_and_negative_sums_are_never_doubled(own):
    line = skyjo(([-9, own, 4], "Bob")).sheet.lines[0]
    assert line.points == (-9, own, 4) and not line.doubled and line.why == "not_positive"
    assert "zero and negative sums are never doubled" in line.note


def test_S6_1_the_keeper_scores_with_the_engines_own_functions():
    """One implementation: the keeper scores with the functions the matches score with,
    which each game gives it (``Game.keeper``)."""
    assert sheet.SKYJO.round_result is skyjo_rules.round_result
    assert sheet.SKYJO.game_winners is skyjo_match.game_winners
    assert sheet.SKIP.round_points is skip_rules.round_points
    assert sheet.SKIP.match_winners is skip_match.match_winners


def _extreme(best) -> int:
    """The lowest (``min``) or highest (``max``) sum of twelve cards of the deck holding at
    most two of a value per column, by a knapsack over the values (independent of the
    keeper's greedy choice)."""
    reach = {0: 0}  # cards taken -> extreme sum
    for value, copies in COPIES.items():
        step = dict(reach)
        for taken, total in reach.items():
            for more in range(1, min(copies, (ROWS - 1) * COLUMNS) + 1):
                if taken + more <= ROWS * COLUMNS:
                    candidate = total + more * value
                    old = step.get(taken + more)
                    step[taken + more] = candidate if old is None else best(old, candidate)
        reach = step
    return reach[ROWS * COLUMNS]


def test_S6_1_the_sums_twelve_cards_can_make_are_minus_17_to_140():
    assert (LOWEST_SUM, HIGHEST_SUM) == (-17, 140) == (_extreme(min), _extreme(max))
    # Both extremes are grids of the deck in which no column is removed (S3.1).
    low = [(-2, -2, -1), (-2, -1, -1), (-2, -1, -1), (-2, -1, -1)]
    high = [(12, 12, 11)] * COLUMNS
    for grid, total in ((low, LOWEST_SUM), (high, HIGHEST_SUM)):
        cards = [card for column in grid for card in column]
        assert len(cards) == ROWS * COLUMNS and sum(cards) == total
        assert all(len(set(column)) > 1 for column in grid)
        assert all(cards.count(card) <= COPIES[card] for card in set(cards))


@pytest.mark.parametrize("value", [-18, 141, 2.5, True, "3", None])
def test_S6_1_a_sum_the_deck_cannot_make_is_refused(value):
    game = skyjo(([5, 6, 7], "Ann"))
    before = game
    entry = SkyjoRound((1, value, 3), 0)  # type: ignore[arg-type]
    refused(lambda: game.add_round(entry), "sums.Bob", "-17", "140", "S6.1", round=2)
    assert game == before and len(game.rounds) == 1


def test_S6_1_a_closer_who_is_not_a_player_is_refused():
    game = skyjo()
    refused(lambda: game.skyjo_round({"Ann": 1, "Bob": 2, "Cy": 3}, "Zed"), "closer", "'Zed'")
    refused(lambda: game.add_round(SkyjoRound((1, 2, 3), 3)), "closer", "S6.1", round=1)
    assert game.rounds == ()


def test_S6_1_every_player_has_a_sum_and_only_players_do():
    game = skyjo()
    refused(lambda: game.skyjo_round({"Ann": 1, "Bob": 2}, "Ann"), "sums.Cy", "missing")
    refused(
        lambda: game.skyjo_round({"Ann": 1, "Bob": 2, "Cy": 3, "Dot": 4}, "Ann"), "sums", "'Dot'"
    )


def test_S6_1_a_skip_round_is_not_a_skyjo_round():
    game = skyjo()
    refused(lambda: game.skip_round("Ann", {}), "round", "Skyjo game")
    refused(lambda: game.add_round(SkipRound(0, (0, 1, 2))), "round", "skyjo", round=1)


# -- S6.2: totals, leader, the end and the winners -------------------------------------------


def test_S6_2_the_totals_run_the_leader_is_the_lowest_and_rounds_are_counted():
    game = skyjo(([14, 9, 21], "Ann"), ([3, 17, 12], "Ann"))
    assert [line.totals for line in game.sheet.lines] == [(28, 9, 21), (31, 26, 33)]
    assert game.sheet.totals == (31, 26, 33)
    assert game.sheet.leaders == (1,) and game.sheet.rounds_played == 2
    assert not game.over and game.sheet.winners is None
    assert game.sheet.outcome == "After 2 round(s), Bob leads."
    assert new_game("skyjo", ["A", "B"]).sheet.outcome == "No round entered yet."


def test_S6_2_the_game_ends_when_a_total_reaches_the_end_score_and_the_lowest_wins():
    game = skyjo(([40, 30, 60], "Bob"), ([1, 2, 40], "Ann"))
    assert game.over and game.sheet.ended_at == 2 and game.sheet.lines[-1].ends
    assert game.sheet.totals == (41, 32, 100)
    assert game.sheet.winners == (1,)
    assert game.sheet.outcome == "Game over after round 2: Bob wins."


def test_S6_2_tied_lowest_totals_share_the_win():
    game = skyjo(([20, 20, 100], "Cy"))
    assert game.sheet.winners == (0, 1)
    assert game.sheet.outcome == "Game over after round 1: Ann and Bob share the win."


def test_S6_2_no_round_is_taken_after_the_end():
    game = skyjo(([20, 30, 120], "Ann"))
    entry = game.skyjo_round({"Ann": 1, "Bob": 1, "Cy": 1}, "Ann")
    refused(lambda: game.add_round(entry), "round", "ended at round 1", "Ann", "S6.4", round=2)
    assert len(game.rounds) == 1


@pytest.mark.parametrize("end_score", [9, 1001, 50.5, "100"])
def test_S6_2_the_end_score_is_a_whole_number_from_10_to_1000(end_score):
    refused(lambda: skyjo(end_score=end_score), "end_score", "S5.1")
    assert skyjo(([5, 6, 12], "Ann"), end_score=10).over


# -- S6.3: Skip rounds -------------------------------------------------------------------------


def test_S6_3_R6_2_who_went_out_scores_25_plus_5_for_every_card_left():
    game = skip(("Ann", {"Bob": 4, "Cy": 7}))
    line = game.sheet.lines[0]
    assert line.points == (25 + 5 * 11, 0, 0) and not line.doubled and line.why is None
    assert line.note == "Ann went out: 25 + 5 × 11 cards left = 80 (R6.2)"
    assert game.sheet.leaders == (0,)


def test_S6_3_R6_2_teams_score_together_for_the_other_teams_cards():
    players = ("Ann", "Bob", "Cy", "Dan")
    game = skip(
        ("Cy", {"Bob": 6, "Dan": 9}),
        players=players,
        teams=(("Ann", "Cy"), ("Bob", "Dan")),
        match_target=200,
    )
    assert game.sheet.lines[0].points == (100, 0, 100, 0)
    assert "Ann and Cy score 25 + 5 × 15 cards left = 100 each" in game.sheet.lines[0].note
    assert game.sheet.outcome == "After 1 round(s), Ann & Cy lead."
    game = game.add_round(game.skip_round("Dan", {"Ann": 30, "Cy": 0}))
    assert game.sheet.totals == (100, 175, 100, 175)
    game = game.add_round(game.skip_round("Bob", {"Ann": 1, "Cy": 0}))
    assert game.sheet.winners == (1, 3)
    assert game.sheet.outcome == "Game over after round 3: Bob & Dan win."


def test_S6_3_R6_3_the_first_to_reach_the_target_wins():
    game = skip(("Ann", {"Bob": 20, "Cy": 20}), match_target=200)
    assert game.sheet.totals == (225, 0, 0) and game.sheet.winners == (0,)
    assert not skip(("Ann", {"Bob": 2, "Cy": 2}), match_target=200).over


def test_S6_3_R6_3_with_a_single_round_the_first_round_someone_wins_ends_the_match():
    game = skip((None, {"Ann": 1, "Bob": 1, "Cy": 4}), match_target=None)
    assert not game.over  # R6.4: a round nobody won never ends it
    assert game.sheet.lines[0].points == (0, 0, 0)
    assert game.sheet.lines[0].note == "nobody won the round: no points (R6.4)"
    game = game.add_round(game.skip_round("Cy", {"Ann": 1, "Bob": 0}))
    assert game.over and game.sheet.winners == (2,) and game.sheet.ended_at == 2


@pytest.mark.parametrize(
    ("players", "stock_size", "limit"),
    [(("A", "B", "C", "D"), None, 30), (("A", "B", "C", "D", "E"), None, 20), (("A", "B"), 10, 10)],
)
def test_S6_3_a_stock_count_above_the_stock_size_is_refused(players, stock_size, limit):
    game = skip(players=players, stock_size=stock_size)
    others = {name: limit for name in players[1:]}
    assert game.add_round(game.skip_round("A", others)).sheet.totals[0] == 25 + 5 * limit * (
        len(players) - 1
    )
    entry = game.skip_round("A", {**others, players[-1]: limit + 1})
    refused(lambda: game.add_round(entry), f"stocks.{players[-1]}", f"0 to {limit}", round=1)
    entry = game.skip_round("A", {**others, players[1]: -1})
    refused(lambda: game.add_round(entry), f"stocks.{players[1]}", round=1)
    assert game.rounds == ()


def test_S6_3_every_other_stock_is_entered_and_the_winning_sides_are_empty():
    game = skip()
    refused(lambda: game.skip_round("Ann", {"Bob": 3}), "stocks.Cy", "S6.3")
    refused(lambda: game.skip_round("Zed", {"Bob": 3}), "went_out", "'Zed'")
    refused(lambda: game.skip_round(None, {"Bob": 3, "Cy": 1}), "stocks.Ann")
    entry = game.skip_round("Ann", {"Ann": 2, "Bob": 3, "Cy": 1})
    refused(lambda: game.add_round(entry), "stocks.Ann", "R6.1", round=1)
    assert game.skip_round("Ann", {"Ann": 0, "Bob": 3, "Cy": 1}).stocks == (0, 3, 1)


@pytest.mark.parametrize(
    ("players", "teams", "words"),
    [
        (("A", "B", "C"), (("A", "B"),), "4, 6 or 8 players"),
        (("A", "B", "C", "D"), (("A", "B", "C"), ("D",)), "two players"),
        (("A", "B", "C", "D"), (("A", "B"), ("C", "Z")), "'Z'"),
        (("A", "B", "C", "D"), (("A", "B"), ("B", "C")), "B is in two teams"),
        (("A", "B", "C", "D", "E", "F"), (("A", "B"), ("C", "D")), "E, F has none"),
    ],
)
def test_S6_3_R2_3_teams_are_pairs_of_the_players(players, teams, words):
    refused(lambda: skip(players=players, teams=teams), "teams", words)


@pytest.mark.parametrize(
    ("field", "value"), [("match_target", 300), ("match_target", "500"), ("stock_size", 0)]
)
def test_S6_3_the_match_target_and_the_stock_size_are_a_tables(field, value):
    refused(lambda: skip(**{field: value}), field)


def test_S6_3_a_skyjo_round_is_not_a_skip_round():
    game = skip()
    refused(lambda: game.skyjo_round({"Ann": 1}, "Ann"), "round", "Skip game")
    refused(lambda: game.add_round(SkyjoRound((1, 2, 3), 0)), "round", round=1)


# -- S6.4: corrections -------------------------------------------------------------------------


def test_S6_4_a_corrected_round_changes_the_totals_that_follow():
    game = skyjo(([14, 9, 21], "Ann"), ([3, 17, 12], "Ann"))
    fixed = game.edit_round(1, game.skyjo_round({"Ann": 4, "Bob": 9, "Cy": 21}, "Ann"))
    assert fixed.sheet.lines[0].points == (4, 9, 21) and not fixed.sheet.lines[0].doubled
    assert fixed.sheet.totals == (7, 26, 33)
    assert fixed.rounds[1] == game.rounds[1]
    assert game.sheet.totals == (31, 26, 33)  # the value it was made from is unchanged


def test_S6_4_a_correction_that_would_end_the_game_before_a_later_round_is_refused():
    game = skyjo(([30, 20, 50], "Bob"), ([10, 10, 10], "Ann"))
    entry = game.skyjo_round({"Ann": 30, "Bob": 20, "Cy": 100}, "Bob")
    refused(lambda: game.edit_round(1, entry), "round", "before round 2", "undo the later", round=1)
    assert not game.over and game.rounds[0].sums == (30, 20, 50)


def test_S6_4_a_correction_may_end_the_game_at_the_last_round():
    game = skyjo(([30, 20, 50], "Bob"), ([10, 10, 10], "Ann"))
    ended = game.edit_round(2, game.skyjo_round({"Ann": 10, "Bob": 10, "Cy": 50}, "Ann"))
    assert ended.over and ended.sheet.winners == (1,)


def test_S6_4_a_correction_that_un_ends_the_game_reopens_it():
    game = skyjo(([30, 20, 50], "Bob"), ([10, 10, 60], "Ann"))
    assert game.over
    reopened = game.edit_round(2, game.skyjo_round({"Ann": 10, "Bob": 10, "Cy": 6}, "Ann"))
    assert not reopened.over and reopened.sheet.winners is None
    more = reopened.add_round(reopened.skyjo_round({"Ann": 1, "Bob": 2, "Cy": 3}, "Ann"))
    assert more.sheet.rounds_played == 3


def test_S6_4_undo_takes_back_the_last_round_and_reopens_a_finished_game():
    game = skyjo(([30, 20, 50], "Bob"), ([10, 10, 60], "Ann"))
    undone = game.undo()
    assert undone.rounds == game.rounds[:1] and not undone.over
    assert undone.sheet.totals == (30, 20, 50)
    assert undone.undo().rounds == ()
    refused(lambda: undone.undo().undo(), "round", "no round to undo")


def test_S6_4_a_bad_correction_names_its_round_and_field_and_changes_nothing():
    game = skyjo(([30, 20, 50], "Bob"), ([10, 10, 10], "Ann"))
    refused(lambda: game.edit_round(1, SkyjoRound((1, 200, 3), 0)), "sums.Bob", round=1)
    for number in (0, 3, "1"):
        refused(lambda n=number: game.edit_round(n, game.rounds[0]), "round", "no round")
    assert game.sheet.totals == (50, 30, 60)


def test_S6_4_skip_corrections_follow_the_same_rules():
    game = skip(("Ann", {"Bob": 2, "Cy": 3}), ("Bob", {"Ann": 1, "Cy": 0}), match_target=200)
    refused(
        lambda: game.edit_round(1, game.skip_round("Ann", {"Bob": 20, "Cy": 20})),
        "round",
        "would end the game at round 1",
        round=1,
    )
    assert game.edit_round(2, game.skip_round("Ann", {"Bob": 30, "Cy": 30})).over


# -- players -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Ann"], "2 to 8 players"),
        ([f"P{n}" for n in range(9)], "2 to 8 players"),
        (["Ann", "Bob", "ann"], "twice"),
        (["Ann", " Bob", "Bob "], "twice"),
        (["Ann", ""], "non-empty"),
        (["Ann", 7], "non-empty"),
        (["Ann", "x" * 25], "at most 24"),
        (["Ann", "B\nob"], "printable"),
    ],
)
def test_players_are_two_to_eight_different_names(names, words):
    refused(lambda: new_game("skyjo", names), "players", words)


def test_a_game_is_skyjo_or_skip():
    refused(lambda: new_game("poker", ["A", "B"]), "game", "skyjo, skip")
    refused(lambda: new_game("skip", ["A", "B"], skyjo().settings), "game")


def test_reordering_the_players_keeps_every_players_rounds():
    game = skyjo(([14, 9, 21], "Ann"), ([3, 17, 12], "Cy"))
    moved = game.reorder(["Cy", "Ann", "Bob"])
    assert moved.players == ("Cy", "Ann", "Bob")
    assert moved.sheet.totals == (45, 31, 26) and game.sheet.totals == (31, 26, 45)
    assert moved.rounds[1].closer == 0
    assert moved.reorder(["Ann", "Bob", "Cy"]) == game
    refused(lambda: game.reorder(["Ann", "Bob"]), "players", "same players")
    refused(lambda: game.reorder(["Ann", "Bob", "Dot"]), "players", "same players")
    teams = skip(
        ("Cy", {"Bob": 6, "Dan": 9}),
        players=("Ann", "Bob", "Cy", "Dan"),
        teams=(("Ann", "Cy"), ("Bob", "Dan")),
    )
    assert teams.reorder(["Bob", "Dan", "Ann", "Cy"]).sheet.totals == (0, 0, 100, 100)


def test_a_kept_game_is_an_immutable_value():
    game = skyjo(([14, 9, 21], "Ann"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.rounds = ()  # type: ignore[misc]
    assert game == skyjo(([14, 9, 21], "Ann")) and hash(game.rounds) == hash(game.rounds)


def test_a_keeper_error_names_its_field_and_round():
    error = KeeperError("sums.Bob", "too high", round=3)
    assert str(error) == "round 3, sums.Bob: too high"
    assert (error.field, error.message, error.round) == ("sums.Bob", "too high", 3)
    assert str(KeeperError("players", "too few")) == "players: too few"
    assert isinstance(error, ValueError)
    assert SkipSettings().stock(5) == 20
