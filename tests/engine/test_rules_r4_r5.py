"""R4 a turn, R5 building piles."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.games.skip import PASS, Action, apply, legal_actions, view
from cardroom.games.skip.actions import (
    discard,
    play_discard,
    play_hand,
    play_partner_discard,
    play_partner_stock,
    play_stock,
)

from .support import W, assert_refused, make_state

# -- R4 A turn -----------------------------------------------------------------------------------


def test_R4_1_turn_starts_by_drawing_until_the_hand_holds_5() -> None:
    state = make_state(hands=[[9], [2, 3]], draw=[11, 10, 8, 7, 6], current=0)
    apply(state, discard(9, 0))
    assert state.current == 1
    assert state.hands[1] == [2, 3, 6, 7, 8]  # the top of the draw pile is its last card
    assert state.draw == [11, 10]


def test_R4_1_a_full_hand_draws_nothing() -> None:
    state = make_state(hands=[[9], [2, 3, 4, 5, 6]], draw=[11, 10], current=0)
    apply(state, discard(9, 0))
    assert state.hands[1] == [2, 3, 4, 5, 6]
    assert state.draw == [11, 10]


def test_R4_1_when_nothing_is_left_to_draw_the_hand_holds_fewer() -> None:
    state = make_state(hands=[[9], [2]], draw=[7, 6], current=0)
    apply(state, discard(9, 0))
    assert sorted(state.hands[1]) == [2, 6, 7]
    assert state.draw == []


def test_R4_2_cards_come_from_hand_stock_and_own_discard_tops() -> None:
    state = make_state(
        hands=[[1, 9, 9, 9, 9], []],
        stocks=[[7, 2], [5]],
        discards=[[(8, 3)], [(4,)]],
        draw=[10] * 10,
    )
    apply(state, play_hand(1, 0))
    apply(state, play_stock(0))
    apply(state, play_discard(0, 0))
    assert state.building[0] == (1, 2, 3)
    assert state.stocks[0] == [7]
    assert state.discards[0][0] == (8,)
    # the opponent's discard top (a 4) is not a source for seat 0
    plays = [a for a in legal_actions(state) if a.is_play]
    assert all(a.source in ("hand", "stock", "discard") for a in plays)
    assert not any(a.source == "discard" and a.to == 0 for a in plays)


def test_R4_2_a_card_not_in_hand_cannot_be_played() -> None:
    state = make_state(hands=[[9, 9, 9, 9, 9], []])
    assert_refused(state, play_hand(1, 0), "R4.2", "you hold no 1")
    assert_refused(state, play_hand(W, 0), "R4.2", "you hold no W")


def test_R4_2_partners_stock_and_discard_tops_are_playable_in_team_play() -> None:
    state = make_state(
        players=4,
        teams=True,
        hands=[[9, 9, 9, 9, 9], [], [], []],
        stocks=[[7], [1], [11, 2], [1]],
        discards=[[], [(1,)], [(5, 3)], [(1,)]],
        draw=[10] * 10,
    )
    assert state.partner(0) == 2
    legal = legal_actions(state)
    assert play_partner_stock(0) not in legal  # partner's top is a 2: nothing to build on yet
    assert all(a.source != "partner_discard" for a in legal)  # partner's top is a 3
    assert_refused(state, play_partner_stock(0), "R5.1", "only a 1 or a wild")
    state.building[0], state.values[0] = (1,), 1
    assert play_partner_stock(0) in legal_actions(state)
    apply(state, play_partner_stock(0))
    apply(state, play_partner_discard(0, 0))
    assert state.building[0] == (1, 2, 3)
    assert state.stocks[2] == [11]
    assert state.discards[2][0] == (5,)


def test_R4_2_opponents_piles_are_never_playable_in_team_play() -> None:
    # seats 1 and 3 are opponents of seat 0: their 1s on top are never offered
    state = make_state(
        players=4,
        teams=True,
        hands=[[9, 9, 9, 9, 9], [], [], []],
        stocks=[[7], [1], [8], [1]],
        discards=[[], [(1,)], [], [(1,)]],
    )
    legal = legal_actions(state)
    assert not any(a.is_play for a in legal)


def test_R4_2_partner_sources_are_refused_without_teams() -> None:
    state = make_state(hands=[[9, 9, 9, 9, 9], []], stocks=[[7], [1]], discards=[[], [(1,)]])
    words = "only partners in team play"
    assert_refused(state, play_partner_stock(0), "R4.2", words)
    assert_refused(state, play_partner_discard(0, 0), "R4.2", words)


def test_R4_2_an_empty_stock_cannot_be_played_from() -> None:
    state = make_state(hands=[[9], []], stocks=[[], [3]])
    assert_refused(state, play_stock(0), "R4.2", "your stock is empty")
    team = make_state(players=4, teams=True, hands=[[9], [], [], []], stocks=[[3], [3], [], [3]])
    assert_refused(team, play_partner_stock(0), "R4.2", "your partner's stock is empty")


def test_R4_2_any_number_of_plays_in_any_order() -> None:
    state = make_state(hands=[[3, 1, 2, 1, 9], []], draw=[10] * 10)
    for card, to in [(1, 0), (1, 1), (2, 1), (3, 1)]:
        apply(state, play_hand(card, to))
        assert state.current == 0
    assert state.values == [1, 3, 0, 0]


def test_R4_3_empty_hand_draws_five_more() -> None:
    state = make_state(hands=[[1], []], draw=[4, 5, 6, 7, 8, 9, 10], current=0)
    events = apply(state, play_hand(1, 0))
    assert state.current == 0  # the turn goes on
    assert sorted(state.hands[0]) == [6, 7, 8, 9, 10]
    assert state.draw == [4, 5]
    assert ("drew", 0, {"cards": 5}) in [tuple(e) for e in events]


def test_R4_3_empty_hand_with_nothing_left_to_draw_stays_empty_and_may_pass() -> None:
    state = make_state(hands=[[1], [5]], draw=[], completed=[], current=0)
    events = apply(state, play_hand(1, 0))
    assert state.hands[0] == []
    assert state.current == 0
    assert not any(e.kind == "drew" for e in events)
    assert PASS in legal_actions(state)


def test_R4_3_an_empty_hand_draws_from_a_pile_it_just_completed() -> None:
    """The turn began with nothing to draw; completing a pile gives the draw pile cards (R5.4),
    so the empty hand draws five and the turn goes on instead of passing."""
    eleven = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
    state = make_state(
        hands=[[], [5]], stocks=[[7, 12], [9]], building=[eleven], draw=[], completed=[]
    )
    assert sorted(legal_actions(state)) == sorted([play_stock(0), PASS])  # nothing to draw yet
    events = apply(state, play_stock(0))
    kinds = [e.kind for e in events]
    assert kinds == ["played", "completed", "reshuffled", "drew"]
    assert state.current == 0 and len(state.hands[0]) == 5
    assert len(state.draw) == 12 - 5 and state.completed == []
    assert PASS not in legal_actions(state)
    assert any(a.kind == "discard" for a in legal_actions(state))


def test_R4_3_a_hand_emptied_by_completing_a_pile_draws_the_completed_cards() -> None:
    eleven = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
    state = make_state(hands=[[12], [5]], building=[eleven], draw=[], completed=[])
    apply(state, play_hand(12, 0))
    assert len(state.hands[0]) == 5 and len(state.draw) == 7 and state.current == 0


def test_R4_3_R4_5_an_empty_hand_may_not_pass_while_cards_can_be_drawn() -> None:
    """Only a hand-built position can hold an empty hand with cards to draw; pass is still
    refused there, because R4.5 is for when nothing can be drawn."""
    state = make_state(hands=[[], [5]], stocks=[[9], [9]], draw=[], completed=[4] * 12)
    assert PASS not in legal_actions(state)
    assert PASS not in view(state, 0).legal_actions()
    assert_refused(state, PASS, "R4.5", "nothing can be drawn")


def test_R4_4_turn_ends_by_discarding_one_hand_card_on_any_own_pile() -> None:
    for pile in range(4):
        state = make_state(
            hands=[[9, 4, 9, 9, 9], [5] * 5],
            discards=[[(2,), (12,), (), (7, 6)], []],
            draw=[10] * 5,
        )
        apply(state, discard(4, pile))
        assert state.current == 1
        assert state.discards[0][pile][-1] == 4  # empty or not, in any order
        assert Counter(state.hands[0]) == Counter({9: 4})


def test_R4_4_discarding_a_card_not_held_or_to_a_fifth_pile_is_refused() -> None:
    state = make_state(hands=[[9, 4, 9, 9, 9], [5]])
    assert_refused(state, discard(3, 0), "R4.4", "you hold no 3 to discard")
    assert_refused(state, discard(4, 4), "R4.4", "discard piles are numbered 1 to 4")
    assert_refused(state, discard(4, -1), "R4.4", "discard piles are numbered 1 to 4")


def test_R4_4_discarding_onto_the_partner_needs_the_team_discards_house_rule() -> None:
    hands = [[9, 4], [5], [6], [7]]
    plain = make_state(players=4, teams=True, hands=hands)
    assert_refused(plain, discard(4, 0, partner=True), "R4.4", "team discards house rule")
    assert all(not a.partner for a in legal_actions(plain))
    solo = make_state(players=4, hands=hands)
    assert_refused(solo, discard(4, 0, partner=True), "R4.4", "team discards house rule")


def test_R4_4_team_discards_house_rule() -> None:
    state = make_state(
        players=4,
        teams=True,
        team_discards=True,
        hands=[[9, 4], [5], [6], [7]],
        discards=[[], [], [(8,)], []],
        draw=[10] * 10,
    )
    legal = legal_actions(state)
    assert {(a.card, a.pile) for a in legal if a.partner} == {
        (c, p) for c in (4, 9) for p in range(4)
    }
    apply(state, discard(4, 0, partner=True))
    assert state.discards[2][0] == (8, 4)
    assert state.discards[0] == [(), (), (), ()]
    assert state.current == 1


def test_R4_4_no_wild_discards_house_rule() -> None:
    state = make_state(hands=[[W, 9], [5]], no_wild_discards=True)
    assert_refused(state, discard(W, 0), "R4.4", "a wild may not be discarded")
    assert all(a.card != W for a in legal_actions(state) if a.kind == "discard")
    only_wilds = make_state(hands=[[W, W], [5]], no_wild_discards=True, draw=[3] * 5)
    assert discard(W, 2) in legal_actions(only_wilds)
    apply(only_wilds, discard(W, 2))
    assert only_wilds.discards[0][2] == (W,)


def test_R4_4_wilds_may_be_discarded_without_the_house_rule() -> None:
    state = make_state(hands=[[W, 9], [5]], draw=[3] * 5)
    assert discard(W, 0) in legal_actions(state)
    apply(state, discard(W, 0))
    assert state.discards[0][0] == (W,)


def test_R4_5_pass_only_with_empty_hand() -> None:
    state = make_state(hands=[[9], [5]])
    assert PASS not in legal_actions(state)
    assert_refused(state, PASS, "R4.5", "you may only pass with an empty hand")


def test_R4_5_a_player_with_no_card_to_discard_passes() -> None:
    state = make_state(hands=[[], [5]], stocks=[[9], [9]], draw=[])
    legal = legal_actions(state)
    assert PASS in legal
    assert not any(a.kind == "discard" for a in legal)
    apply(state, PASS)
    assert state.current == 1
    assert state.discards[0] == [(), (), (), ()]


def test_R4_6_player_with_empty_stock_keeps_taking_turns_while_the_team_has_cards() -> None:
    state = make_state(
        players=4,
        teams=True,
        hands=[[9], [9], [9], [9]],
        stocks=[[], [8], [1], [8]],
        draw=[10] * 20,
        current=3,
    )
    apply(state, discard(9, 0))
    assert state.result is None
    assert state.current == 0  # seat 0 is not skipped
    assert play_partner_stock(0) in legal_actions(state)
    apply(state, play_partner_stock(0))
    assert state.result is not None and state.result.winners == (0, 2)


def test_R4_7_only_the_top_card_of_a_discard_pile_may_be_played() -> None:
    state = make_state(
        hands=[[9], []], discards=[[(3, 9), (), (2, 5)], []], building=[(1, 2)], draw=[10] * 5
    )
    assert not any(a.source == "discard" for a in legal_actions(state))
    assert_refused(state, play_discard(0, 0), "R5.2", "a 9 cannot go on a pile showing 2")
    assert_refused(state, play_discard(1, 0), "R4.7", "your discard pile 2 is empty")
    assert_refused(state, play_discard(4, 0), "R4.7", "discard piles are numbered 1 to 4")
    state.building[1], state.values[1] = (1, 2, 3, 4), 4
    apply(state, play_discard(2, 1))  # the 5 on top, not the 2 below it
    assert state.discards[0][2] == (2,)
    assert state.building[1][-1] == 5


# -- R5 Building piles ---------------------------------------------------------------------------


def test_R5_1_at_most_four_building_piles() -> None:
    state = make_state(hands=[[1, 9], []])
    assert {a.to for a in legal_actions(state) if a.is_play} == {0, 1, 2, 3}
    for to in (4, -1, 9):
        assert_refused(state, play_hand(1, to), "R5.1", "building piles are numbered 1 to 4")


def test_R5_1_an_empty_slot_is_started_only_by_a_1_or_a_wild() -> None:
    state = make_state(hands=[[5, 1, W], []], draw=[10] * 5)
    error = assert_refused(state, play_hand(5, 2), "R5.1")
    assert error.message == "a 5 cannot start a building pile; only a 1 or a wild can"
    assert {a.card for a in legal_actions(state) if a.source == "hand"} == {1, W}
    apply(state, play_hand(1, 2))
    assert state.values[2] == 1


def test_R5_2_card_must_be_one_higher_or_wild() -> None:
    state = make_state(hands=[[7, 5, W, 9], []], building=[(1, 2, 3, 4)], draw=[10] * 5)
    error = assert_refused(state, play_hand(7, 0), "R5.2")
    assert error.message == "a 7 cannot go on a pile showing 4"
    assert str(error) == "a 7 cannot go on a pile showing 4 (R5.2)"
    assert {a.card for a in legal_actions(state) if a.source == "hand" and a.to == 0} == {5, W}
    apply(state, play_hand(5, 0))
    assert state.values[0] == 5
    assert_refused(state, play_stock(0), "R5.2", "a 5 cannot go on a pile showing 5")


def test_R5_2_wild_on_empty_pile_counts_as_one() -> None:
    state = make_state(hands=[[W, 2, 9], []], draw=[10] * 5)
    events = apply(state, play_hand(W, 3))
    assert state.values[3] == 1
    assert state.building[3] == (W,)
    assert events[0].detail["value"] == 1
    apply(state, play_hand(2, 3))
    assert state.values[3] == 2


def test_R5_2_wild_takes_the_value_one_higher() -> None:
    state = make_state(hands=[[W, 6, 9], []], building=[(), (1, 2, 3, 4)], draw=[10] * 5)
    apply(state, play_hand(W, 1))
    assert state.values[1] == 5
    assert state.building[1] == (1, 2, 3, 4, W)
    assert_refused(state, play_hand(9, 1), "R5.2", "a 9 cannot go on a pile showing 5")
    apply(state, play_hand(6, 1))
    assert state.values[1] == 6


def test_R5_3_a_pile_reaching_12_is_completed_and_its_slot_empties() -> None:
    pile = tuple(range(1, 12))
    state = make_state(hands=[[12, 9], []], building=[(), pile], draw=[10] * 5)
    events = apply(state, play_hand(12, 1))
    assert state.building[1] == ()
    assert state.values[1] == 0
    assert state.completed == [*pile, 12]
    assert ("completed", 0, {"to": 1}) in [tuple(e) for e in events]
    assert play_hand(12, 1) not in legal_actions(state)


def test_R5_3_a_wild_may_be_the_12() -> None:
    pile = (1, 2, W, 4, 5, 6, 7, 8, 9, 10, 11)
    state = make_state(hands=[[W, 9], []], building=[pile], draw=[10] * 5)
    apply(state, play_hand(W, 0))
    assert state.building[0] == ()
    assert state.values[0] == 0
    assert state.completed == [*pile, W]


def test_R5_4_completed_piles_reshuffled_when_draw_runs_out() -> None:
    completed = list(range(1, 13))
    state = make_state(hands=[[9], [3]], draw=[7], completed=completed, current=0)
    events = apply(state, discard(9, 0))
    assert state.current == 1
    assert len(state.hands[1]) == 5
    assert state.hands[1] == sorted(state.hands[1])  # hands are kept sorted
    assert state.completed == []
    assert len(state.draw) == 12 - 3
    # The last draw card first (the 12 completed cards alone are reshuffled), then 3 of them.
    assert ("reshuffled", 1, {"cards": 12}) in [tuple(e) for e in events]
    assert Counter(state.draw + state.hands[1]) == Counter(completed) + Counter([3, 7])


def test_R5_4_completed_piles_are_not_touched_while_the_draw_pile_lasts() -> None:
    state = make_state(hands=[[9], [3]], draw=[7, 7, 7, 7, 7], completed=list(range(1, 13)))
    apply(state, discard(9, 0))
    assert state.completed == list(range(1, 13))
    assert state.draw == [7]


def test_R5_4_refill_during_a_turn_after_an_empty_hand_uses_completed_piles() -> None:
    pile = tuple(range(1, 12))
    state = make_state(hands=[[12], []], building=[pile], draw=[], current=0)
    apply(state, play_hand(12, 0))  # completes a pile and empties the hand
    assert len(state.hands[0]) == 5
    assert len(state.draw) == 7
    assert state.completed == []


@pytest.mark.parametrize("value", range(0, 12))
def test_R5_2_legal_plays_on_each_value(value: int) -> None:
    pile = tuple(range(1, value + 1))
    hand = [c for c in range(0, 13)]
    state = make_state(hands=[hand, []], building=[pile, pile, pile, pile])
    playable = {a.card for a in legal_actions(state) if a.source == "hand"}
    assert playable == {W, value + 1}
    for card in range(1, 13):
        action: Action = play_hand(card, 0)
        if card != value + 1:
            assert_refused(state, action, "R5.1" if value == 0 else "R5.2")
