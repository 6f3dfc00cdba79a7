"""Skyjo's rules, one test (or a few) per rule of docs/skyjo-rules.md, named after its id."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardroom.games.base import NEXT_ROUND, IllegalMove, OptionsError, Step
from cardroom.games.skyjo import (
    DRAW,
    HIDDEN,
    TIMEOUT,
    Action,
    Match,
    Options,
    RoundResult,
    apply,
    new_deck,
    new_round,
    view,
)
from cardroom.games.skyjo.actions import discard, exchange, reveal, take
from cardroom.games.skyjo.cards import GRID

from .skyjo_support import FILLER, assert_refused, at, make_state

# -- S1 Cards and setup ---------------------------------------------------------------------------


def test_S1_1_the_deck_is_150_cards_from_minus_two_to_twelve():
    deck = Counter(new_deck())
    assert sum(deck.values()) == 150
    assert deck[-2] == 5 and deck[-1] == 10 and deck[0] == 15
    assert all(deck[value] == 10 for value in range(1, 13))
    assert set(deck) == set(range(-2, 13))


def test_S1_1_every_round_is_dealt_from_the_whole_deck():
    state = new_round(Options(players=8), seed=3)
    assert Counter(state.all_cards()) == Counter(new_deck())


def test_S1_2_twelve_face_down_cards_each_and_one_card_starts_the_discard_pile():
    state = new_round(Options(players=3), seed=1)
    assert all(len([c for c in grid if c is not None]) == GRID for grid in state.cards)
    assert not any(any(up) for up in state.up)
    assert len(state.discard) == 1 and len(state.draw) == 150 - 36 - 1
    assert state.phase == "reveal" and state.current == 0


@pytest.mark.parametrize("players", [1, 9, True, "2"])
def test_S1_2_two_to_eight_players(players):
    with pytest.raises(OptionsError):
        Options(players=players)


def test_S1_2_every_player_turns_two_cards_in_seat_order_before_the_first_turn():
    state = new_round(Options(players=3), seed=2)
    order = []
    for _ in range(6):
        assert state.phase == "reveal"
        order.append(state.current)
        choice = view(state, state.current).legal_actions()[-1]
        assert choice.kind == "reveal"
        apply(state, choice, state.current)
    assert order == [0, 0, 1, 1, 2, 2]
    assert state.phase == "play"
    assert [sum(up) for up in state.up] == [2, 2, 2]


def test_S1_2_only_face_down_cards_are_turned_and_nothing_else_is_done_meanwhile():
    state = make_state(
        [["5", 1, 2], [3, 4, 6], [7, 8, 9], [10, 11, 12]], FILLER, phase="reveal", reveals=[1, 0]
    )
    assert_refused(state, reveal(at(1, 1)), "S1.2")
    assert_refused(state, DRAW, "S1.2")
    assert_refused(state, take(at(2, 2)), "S1.2")
    assert_refused(state, reveal(at(1, 2)), "S1.2", seat=1)
    apply(state, reveal(at(1, 2)), 0)
    assert state.current == 1


@pytest.mark.parametrize("where", [-1, 12, "1", None, True])
def test_S1_2_a_grid_has_twelve_places_and_no_other(where):
    state = make_state(phase="reveal", reveals=[0, 0])
    assert_refused(state, Action("reveal", where), "S1.2")
    apply(state, TIMEOUT, 0)
    assert_refused(state, Action("take", where), "S1.2")


def test_S1_2_a_timed_out_player_turns_the_first_two():
    state = new_round(Options(players=2), seed=5)
    apply(state, TIMEOUT, 0)
    assert [p for p in range(GRID) if state.up[0][p]] == [0, 1]
    assert state.current == 1 and state.phase == "reveal"


def test_S1_2_the_owner_does_not_see_their_own_face_down_cards():
    state = new_round(Options(players=2), seed=6)
    mine = view(state, 0)
    assert mine.grids[0] == (HIDDEN,) * GRID
    assert "drawn" in mine.to_json() and mine.drawn is None


def test_S1_3_the_highest_sum_of_the_two_cards_starts_the_first_round():
    state = make_state(
        FILLER, FILLER, FILLER, phase="reveal", starter=None, reveals=[2, 2, 1], current=2
    )
    state.up[0][at(4, 3)] = state.up[0][at(1, 1)] = True  # 12 + 1 = 13
    state.up[1][at(4, 2)] = state.up[1][at(4, 1)] = True  # 11 + 10 = 21
    state.up[2][at(4, 3)] = True  # 12, and 9 to come: 21, a tie with seat 1
    events = apply(state, reveal(at(3, 3)), 2)
    assert state.phase == "play" and state.starter == 1 and state.current == 1
    assert ("starts", 1) in [(e.kind, e.seat) for e in events]


def test_S1_3_play_goes_clockwise_and_nobody_plays_out_of_turn():
    state = make_state(FILLER, FILLER, FILLER, current=1)
    assert_refused(state, DRAW, "S1.3", seat=0)
    apply(state, DRAW, 1)
    apply(state, discard(at(1, 1)), 1)
    assert state.current == 2
    apply(state, DRAW, 2)
    apply(state, discard(at(1, 1)), 2)
    assert state.current == 0


# -- S2 A turn -----------------------------------------------------------------------------------


def test_S2_1_the_discard_is_exchanged_with_a_face_down_card_which_goes_face_up_on_the_pile():
    state = make_state(discard=(3, -2))
    events = apply(state, take(at(2, 1)), 0)
    assert state.cards[0][at(2, 1)] == -2 and state.up[0][at(2, 1)]
    assert state.discard == [3, 4]
    assert state.current == 1
    took = next(e for e in events if e.kind == "took")
    assert took.detail == {"position": at(2, 1), "card": -2, "replaced": 4}


def test_S2_1_a_face_up_card_can_be_exchanged_too():
    state = make_state([["9", 1, 2], [3, 4, 5], [6, 7, 8], [10, 11, 12]], FILLER, discard=(0,))
    apply(state, take(at(1, 1)), 0)
    assert state.cards[0][at(1, 1)] == 0 and state.discard == [9]


def test_S2_2_a_drawn_card_is_exchanged_or_discarded_with_a_card_turned():
    state = make_state(draw=(1, 2, -1))
    apply(state, DRAW, 0)
    assert state.drawn == -1 and state.current == 0
    assert_refused(state, DRAW, "S2.2")
    assert_refused(state, take(at(1, 1)), "S2.2")
    apply(state, exchange(at(3, 3)), 0)
    assert state.cards[0][at(3, 3)] == -1 and state.discard == [6, 9] and state.drawn is None
    apply(state, DRAW, 1)
    apply(state, discard(at(2, 2)), 1)
    assert state.discard == [6, 9, 2] and state.up[1][at(2, 2)] and state.cards[1][at(2, 2)] == 5


def test_S2_2_exchange_and_discard_need_a_drawn_card_and_a_discard_turns_a_face_down_one():
    state = make_state([["9", 1, 2], [3, 4, 5], [6, 7, 8], [10, 11, 12]], FILLER)
    assert_refused(state, exchange(at(1, 2)), "S2.2")
    assert_refused(state, discard(at(1, 2)), "S2.2")
    apply(state, DRAW, 0)
    assert_refused(state, discard(at(1, 1)), "S2.2")


def test_S2_2_the_drawn_card_is_seen_by_its_drawer_alone_until_it_is_placed():
    state = make_state(draw=(1, 2, 11))
    events = apply(state, DRAW, 0)
    assert all("card" not in e.detail for e in events)
    assert view(state, 0).drawn == 11
    assert view(state, 1).drawn is None and view(state, None).drawn is None
    assert view(state, 1).holding and view(state, 1).to_json()["drawn"] is None
    apply(state, discard(at(1, 1)), 0)
    assert view(state, 1).discard_top == 11


def test_S2_3_an_empty_draw_pile_is_refilled_from_the_discards_but_their_top():
    state = make_state(draw=(), discard=(1, 2, 3, 4, 12))
    events = apply(state, DRAW, 0)
    assert state.discard == [12]
    assert sorted([*state.draw, state.drawn]) == [1, 2, 3, 4]
    assert [e.kind for e in events] == ["reshuffled", "drew"]


# -- S3 Columns -----------------------------------------------------------------------------------


def test_S3_1_three_identical_face_up_cards_in_a_column_are_removed_onto_the_discards():
    state = make_state([["4", "4", 0], [1, 2, 3], [5, 6, 7], [8, 9, 10]], FILLER, discard=(2, 4))
    events = apply(state, take(at(1, 3)), 0)
    assert state.cards[0][:3] == [None, None, None]
    assert state.discard == [2, 0, 4, 4, 4]  # the replaced 0 first, the column on top of it
    assert ("column_removed", 0) in [(e.kind, e.seat) for e in events]
    assert view(state, 1).to_json()["grids"][0][0] == [None, None, None]
    apply(state, DRAW, 1)
    apply(state, discard(at(1, 1)), 1)
    assert_refused(state, take(at(1, 2)), "S3.1")


def test_S3_1_a_face_down_card_does_not_complete_a_column():
    state = make_state([["4", 4, 0], [1, 2, 3], [5, 6, 7], [8, 9, 10]], FILLER, discard=(4,))
    apply(state, take(at(1, 3)), 0)
    assert state.cards[0][:3] == [4, 4, 4]


def test_S3_1_no_column_is_removed_when_the_house_rule_is_off():
    state = make_state(
        [["4", "4", 0], [1, 2, 3], [5, 6, 7], [8, 9, 10]],
        FILLER,
        discard=(4,),
        column_removal=False,
    )
    apply(state, take(at(1, 3)), 0)
    assert state.cards[0][:3] == [4, 4, 4]


def test_S3_1_columns_are_removed_in_the_final_reveal_too():
    closer = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["10", "11", "12"]]
    other = [[9, 9, "9"], [1, 2, 3], [4, 5, 6], [7, 8, 10]]
    state = make_state(closer, other, current=1, closer=0)
    apply(state, DRAW, 1)
    events = apply(state, discard(at(2, 1)), 1)
    assert state.result is not None
    assert state.cards[1][:3] == [None, None, None]
    assert state.result.sums[1] == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 10
    kinds = [(e.kind, e.seat) for e in events]
    assert kinds.index(("turned_up", 1)) < kinds.index(("column_removed", 1))
    assert state.discard[-3:] == [9, 9, 9]


def test_S3_1_a_player_whose_cards_are_all_removed_has_every_card_face_up():
    columns = [["2", "2", 2], [None] * 3, [None] * 3, [None] * 3]
    state = make_state(columns, FILLER, discard=(2,))
    events = apply(state, take(at(1, 3)), 0)
    assert state.cards[0] == [None] * GRID
    assert state.closer == 0 and ("closed", 0) in [(e.kind, e.seat) for e in events]


# -- S4 End of a round --------------------------------------------------------------------------


def _closing_state(players: int = 3):
    """Seat 0 has one face-down card left and will turn it now."""
    almost = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["10", "11", 0]]
    return make_state(almost, *[FILLER] * (players - 1), draw=(5,) * 20)


def test_S4_1_after_a_full_reveal_each_other_player_takes_exactly_one_more_turn():
    state = _closing_state(3)
    events = apply(state, take(at(4, 3)), 0)
    assert state.closer == 0 and ("closed", 0) in [(e.kind, e.seat) for e in events]
    turns = []
    while state.result is None:
        turns.append(state.current)
        apply(state, DRAW, state.current)
        apply(state, discard(state.face_down(state.current)[0]), state.current)
    assert turns == [1, 2]
    assert all(state.all_up(seat) for seat in range(3))


def test_S4_1_the_last_turns_are_announced_and_the_closer_plays_no_more():
    state = _closing_state(2)
    events = apply(state, take(at(4, 3)), 0)
    turn = next(e for e in events if e.kind == "turn")
    assert turn.seat == 1 and turn.detail.get("last") is True
    apply(state, take(at(1, 1)), 1)
    assert state.result is not None and state.phase == "over"
    assert_refused(state, DRAW, "S4.1")


def test_S4_2_a_round_score_is_the_sum_of_the_remaining_cards():
    state = _closing_state(2)
    apply(state, take(at(4, 3)), 0)  # a 6 from the discards replaces the 0
    apply(state, take(at(1, 1)), 1)  # the 0 replaces the 1
    assert state.result is not None
    assert state.result.sums == (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 6, 77)


def _score_with(closer_cards: list[int], other_cards: list[int], **options):
    """Seat 0 closes with ``closer_cards`` against seat 1's ``other_cards`` (12 each)."""
    first = [[str(c) for c in closer_cards[i : i + 3]] for i in (0, 3, 6, 9)]
    first[3][2] = closer_cards[11]  # face down: turned by the closing discard
    second = [[str(c) for c in other_cards[i : i + 3]] for i in (0, 3, 6, 9)]
    second[0][0] = other_cards[0]
    state = make_state(first, second, draw=(7, 7, 7, 7), **options)
    apply(state, DRAW, 0)
    apply(state, discard(at(4, 3)), 0)
    apply(state, DRAW, 1)
    apply(state, discard(at(1, 1)), 1)
    assert state.result is not None and state.result.closer == 0
    return state.result


NO_COLUMN = [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]  # sums to 24, no column of three alike


def test_S4_3_a_closer_without_the_lowest_score_is_doubled():
    result = _score_with(NO_COLUMN, [0, 1, 2] * 4)  # 24 against 12
    assert result.sums == (24, 12) and result.points == (48, 12) and result.doubled


def test_S4_3_a_tie_for_the_lowest_score_doubles_the_closer():
    result = _score_with(NO_COLUMN, [2, 3, 1] * 4)  # 24 against 24
    assert result.points == (48, 24) and result.doubled


def test_S4_3_a_closer_with_the_strictly_lowest_score_is_not_doubled():
    result = _score_with(NO_COLUMN, [3, 4, 5] * 4)
    assert result.points == (24, 48) and not result.doubled


def test_S4_3_zero_and_negative_scores_are_never_doubled():
    zero = [2, -2, 0, -2, 2, 0, 1, -1, 0, -1, 1, 0]
    negative = [-2, -1, 0, -2, -1, 0, -2, -1, 0, -1, 0, 1]
    assert _score_with(zero, [-2, -1, 0] * 4).points == (0, -12)
    assert _score_with(negative, [-2, -1, 0] * 4).points == (-9, -12)


def test_S4_3_the_doubling_house_rule_can_be_switched_off():
    result = _score_with(NO_COLUMN, [0, 1, 2] * 4, closer_doubling=False)
    assert result.points == (24, 12) and not result.doubled


def test_S4_4_the_closer_starts_the_next_round():
    match = Match(Options(players=3), seed=11)
    rng = random.Random(4)
    while match.current is not None:
        match.apply(rng.choice(match.view(match.current).legal_actions()), match.current)
    closer = match.state.result.closer
    events = match.apply_step(Step(NEXT_ROUND))
    assert events[0].kind == "dealt"
    assert match.round_started() == {"round": 2, "starter": closer, "rule": "S4.4"}
    while match.state.phase == "reveal":
        match.apply(TIMEOUT, match.current)
    assert match.current == closer and match.state.starter == closer


# -- S5 End of the game ---------------------------------------------------------------------------


def _finish_round(match: Match, points: tuple[int, ...], closer: int = 0) -> None:
    """Score the match's round as if it had ended with ``points``."""
    match.state.result = RoundResult(closer, points, points, False)
    match.state.phase = "over"
    match._add_up(match.state.result)


def test_S5_1_the_game_ends_when_a_total_reaches_the_end_score_and_the_lowest_wins():
    match = Match(Options(players=3), seed=1)
    _finish_round(match, (60, 30, 50))
    assert not match.over and match.between_rounds
    match.next_round()
    _finish_round(match, (40, 20, 10))
    assert match.over and match.scores == [100, 50, 60] and match.winners == (1,)
    assert match.current is None and not match.between_rounds
    with pytest.raises(IllegalMove):
        match.next_round()


def test_S5_1_tied_lowest_totals_share_the_win():
    match = Match(Options(players=3, end_score=50), seed=1)
    _finish_round(match, (55, 20, 20))
    assert match.over and match.winners == (1, 2)


@pytest.mark.parametrize("end_score", [0, 9, 1001, True, "100", 99.5])
def test_S5_1_the_end_score_is_a_whole_number_from_10_to_1000(end_score):
    with pytest.raises(OptionsError):
        Options(end_score=end_score)


def test_S5_1_a_whole_match_ends_with_its_totals_at_or_over_the_end_score():
    match = Match(Options(players=4, end_score=30), seed=8)
    rng = random.Random(8)
    while not match.over:
        if match.between_rounds:
            match.next_round()
            continue
        seat = match.current
        match.apply(rng.choice(match.view(seat).legal_actions()), seat)
    assert max(match.scores) >= 30
    assert match.winners == tuple(s for s in range(4) if match.scores[s] == min(match.scores))
