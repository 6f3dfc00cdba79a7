"""R6 the end of a round and scoring, R7 the digital table rules."""

from __future__ import annotations

import json

import pytest

from cardroom.bots import make_bot
from cardroom.games.base import NEXT_ROUND, Step
from cardroom.games.skip import (
    PASS,
    TIMEOUT,
    Action,
    IllegalMove,
    Match,
    NotationError,
    Options,
    OptionsError,
    State,
    action_from_json,
    apply,
    check,
    legal_actions,
    new_round,
    replay,
    to_record,
    view,
)
from cardroom.games.skip.actions import discard, play_hand, play_partner_stock, play_stock
from cardroom.sim.play import play_match

from .support import (
    W,
    assert_refused,
    finish_match_round,
    hidden_variants,
    make_state,
    snapshot,
)

# -- R6 End of a round and scoring -------------------------------------------------------------


def test_R6_1_round_ends_when_a_player_plays_the_last_stock_card() -> None:
    state = make_state(players=3, hands=[[9, 9], [], []], stocks=[[1], [4, 4], [4]])
    events = apply(state, play_stock(0))
    assert state.result is not None
    assert state.result.winners == (0,)
    assert not state.result.stalemate
    assert events[-1].kind == "round_over"
    assert state.current == 0  # no discard, no next turn
    assert legal_actions(state) == []
    assert_refused(state, discard(9, 0), "R6.1", "the round is over")
    assert_refused(state, PASS, "R6.1", "the round is over")


def test_R6_1_a_non_final_stock_card_does_not_end_the_round() -> None:
    state = make_state(hands=[[9], []], stocks=[[7, 1], [4]])
    apply(state, play_stock(0))
    assert state.result is None
    assert state.stocks[0] == [7]


def test_R6_1_team_round_ends_when_both_stocks_empty() -> None:
    state = make_state(
        players=4,
        teams=True,
        hands=[[9, 9], [], [], []],
        stocks=[[1], [6], [2], [6]],
        draw=[10] * 10,
    )
    apply(state, play_stock(0))
    assert state.result is None  # the partner still has a stock card
    assert state.stocks[0] == []
    apply(state, play_partner_stock(0))
    assert state.result is not None
    assert state.result.winners == (0, 2)
    assert state.result.stock_left == (0, 1, 0, 1)


def test_R6_1_team_round_ends_when_the_partner_plays_the_teams_last_stock_card() -> None:
    state = make_state(
        players=4,
        teams=True,
        hands=[[9], [9], [9], [9]],
        stocks=[[], [6], [1], [6]],
        draw=[10] * 10,
        current=2,
    )
    apply(state, play_stock(0))
    assert state.result is not None and state.result.winners == (0, 2)


def test_R6_2_winner_scores_25_plus_5_per_opponent_stock_card() -> None:
    state = make_state(players=3, hands=[[9], [], []], stocks=[[1], [4, 4, 4], [4, 4]])
    apply(state, play_stock(0))
    assert state.result is not None
    assert state.result.points == (25 + 5 * 5, 0, 0)
    assert state.result.stock_left == (0, 3, 2)


def test_R6_2_team_winners_score_every_card_of_players_not_on_the_team() -> None:
    state = make_state(
        players=6,
        teams=True,
        hands=[[9], [], [], [], [], []],
        stocks=[[1], [4], [4, 4], [], [4, 4, 4], [4, 4, 4, 4]],
    )
    assert state.partner(0) == 3
    apply(state, play_stock(0))
    assert state.result is not None
    gain = 25 + 5 * (1 + 2 + 3 + 4)
    assert state.result.winners == (0, 3)
    assert state.result.points == (gain, 0, 0, gain, 0, 0)


def test_R6_2_a_solo_player_wins_25() -> None:
    state = make_state(players=1, hands=[[9]], stocks=[[1]])
    apply(state, play_stock(0))
    assert state.result is not None and state.result.points == (25,)


def _greedy(players: int) -> list:
    return [make_bot("greedy", seat) for seat in range(players)]


def test_R6_3_single_round_match_ends_after_one_round() -> None:
    match = play_match(Options(players=3, stock_size=3, match_target=None), 1, _greedy(3))
    assert match.over
    assert len(match.rounds) == 1
    assert match.winners == match.rounds[0].result.winners  # type: ignore[union-attr]
    with pytest.raises(IllegalMove) as info:
        match.next_round()
    assert info.value.rule == "R6.3"


@pytest.mark.parametrize("target", [25, 200, 500, 800])
def test_R6_3_first_to_reach_the_match_target_wins(target: int) -> None:
    options = Options(players=2, stock_size=1 if target >= 500 else 3, match_target=target)
    match = play_match(options, 3, _greedy(2))
    assert match.over and match.winners
    scores = [0, 0]
    for number, log in enumerate(match.rounds, start=1):
        assert log.result is not None
        scores = [s + p for s, p in zip(scores, log.result.points, strict=True)]
        if number < len(match.rounds):
            assert max(scores) < target, f"someone reached {target} in round {number}"
    assert scores == match.scores
    assert all(match.scores[w] >= target for w in match.winners)
    if target == 25:
        assert len(match.rounds) == sum(1 for log in match.rounds if log.result.winners) == 1  # type: ignore[union-attr]


def test_R6_3_the_match_goes_on_until_the_target() -> None:
    match = Match(Options(players=2, stock_size=3, match_target=200), seed=1)
    with pytest.raises(IllegalMove) as info:
        match.next_round()  # the round is still being played
    assert info.value.rule == "R6.3"


@pytest.mark.parametrize("target", [0, 1, 100, 1000, -25])
def test_R6_3_other_match_targets_are_refused(target: int) -> None:
    with pytest.raises(OptionsError, match=r"match target is single round.*\(R6\.3\)"):
        Options(match_target=target)


def _stuck(players: int = 2, stocks: list[list[int]] | None = None, **changes: object) -> State:
    """No draw pile, no completed piles, and no card that can start a building pile."""
    return make_state(
        players=players,
        hands=[[9, 10] for _ in range(players)],
        stocks=stocks or [[7] for _ in range(players)],
        draw=[],
        completed=[],
        **changes,  # type: ignore[arg-type]
    )


def _idle_turn(state: State) -> None:
    hand = state.hands[state.current]
    apply(state, discard(hand[0], 0) if hand else PASS)


def test_R6_4_stalemate_after_a_full_cycle_without_a_play() -> None:
    state = _stuck(3, stocks=[[7], [7, 7], [7]])
    _idle_turn(state)
    _idle_turn(state)
    assert state.result is None
    _idle_turn(state)
    assert state.result is not None
    assert state.result.stalemate
    # seats 0 and 2 tie for fewest stock cards: no one scores
    assert state.result.winners == ()
    assert state.result.points == (0, 0, 0)
    assert legal_actions(state) == []


def test_R6_4_stalemate_fewest_stock_cards_wins_and_scores_as_R6_2() -> None:
    state = _stuck(3, stocks=[[7, 7], [7], [7, 7, 7]])
    for _ in range(3):
        _idle_turn(state)
    assert state.result is not None and state.result.stalemate
    assert state.result.winners == (1,)
    assert state.result.points == (0, 25 + 5 * 5, 0)


def test_R6_4_stalemate_needs_two_cycles_in_team_play() -> None:
    state = _stuck(4, teams=True, stocks=[[7], [7, 7], [7, 7], [7, 7]])
    for _ in range(7):
        _idle_turn(state)
    assert state.result is None
    _idle_turn(state)
    assert state.result is not None and state.result.stalemate
    # team 0+2 holds 3 stock cards, team 1+3 holds 4
    assert state.result.winners == (0, 2)
    assert state.result.points == (25 + 20, 0, 25 + 20, 0)


def test_R6_4_stalemate_counts_passes_of_empty_hands() -> None:
    state = make_state(hands=[[], []], stocks=[[7], [7, 7]], draw=[], completed=[])
    apply(state, PASS)
    apply(state, PASS)
    assert state.result is not None and state.result.winners == (0,)


def test_R6_4_a_play_restarts_the_cycle() -> None:
    state = _stuck(2)
    state.hands[1] = [1, 9, 10]
    _idle_turn(state)
    assert state.idle_turns == 1
    apply(state, play_hand(1, 0))  # seat 1 plays: without it the round would end now
    apply(state, discard(9, 0))
    assert state.result is None and state.idle_turns == 0
    _idle_turn(state)
    assert state.result is None and state.idle_turns == 1
    _idle_turn(state)
    assert state.result is not None and state.result.stalemate


def test_R6_4_no_stalemate_while_cards_are_left_to_draw() -> None:
    state = _stuck(2)
    state.draw = [11] * 40
    for _ in range(30):
        _idle_turn(state)
    assert state.result is None
    assert state.idle_turns == 0
    state = _stuck(2)
    state.completed = list(range(1, 13))
    for _ in range(6):
        _idle_turn(state)
    assert state.result is None


def test_R6_4_the_match_goes_on_after_a_stalemate() -> None:
    match = Match(Options(players=2, stock_size=5, match_target=500), seed=1)
    state = match.state
    state.draw, state.completed = [], []
    state.hands = [[9, 10], [9, 10]]
    state.stocks = [[7], [7]]
    while state.result is None:
        _idle = state.hands[state.current][0]
        match.apply(discard(_idle, 0))
    assert state.result.stalemate and state.result.winners == ()
    assert match.between_rounds and not match.over
    assert match.scores == [0, 0]
    new = match.next_round()
    assert new.result is None and match.round_number == 2


def _stall_in_a_tie(match: Match) -> None:
    """Rig the match's round so that it stalls with every side holding one stock card."""
    state = match.state
    players = state.players
    state.draw, state.completed = [], []
    state.hands = [[9, 10] for _ in range(players)]
    state.stocks = [[7] for _ in range(players)]
    while state.result is None:
        hand = state.hands[state.current]
        match.apply(discard(hand[0], 0) if hand else PASS)


def test_R6_4_a_tied_stalemate_does_not_end_a_single_round_match() -> None:
    """A match always ends with a winner: a single round that no one wins is dealt again."""
    match = Match(Options(players=2, stock_size=3, match_target=None), seed=1)
    _stall_in_a_tie(match)
    assert match.state.result is not None and match.state.result.winners == ()
    assert not match.over and match.winners is None
    assert match.between_rounds and match.current is None
    assert match.between_round_steps(frozenset()) == [Step(NEXT_ROUND)]
    match.apply_step(Step(NEXT_ROUND))
    assert match.round_number == 2
    bots = [make_bot("greedy", seat) for seat in range(2)]
    finish_match_round(match, bots)
    last = match.rounds[-1].result
    assert last is not None and last.winners
    assert match.over and match.winners == last.winners
    assert match.scores == list(last.points)  # the tied round scored nothing


def test_R6_4_a_stalled_solo_round_is_lost_and_dealt_again() -> None:
    match = Match(Options(players=1, stock_size=5, match_target=None), seed=2)
    _stall_in_a_tie(match)
    assert match.state.result is not None and match.state.result.points == (0,)
    assert match.between_rounds and not match.over
    match.next_round()
    assert match.round_number == 2 and match.state.result is None


# -- R7 Digital table rules -----------------------------------------------------------------------


def test_R7_1_illegal_move_is_refused_in_plain_words_and_changes_nothing() -> None:
    state = new_round(Options(players=2, stock_size=5), seed=4)
    hand = state.hands[state.current]
    missing = next(c for c in range(1, 13) if c not in hand)
    error = assert_refused(state, play_hand(missing, 0), "R4.2")
    assert error.to_json() == {
        "rule": "R4.2",
        "message": f"you hold no {missing}",
        "reason": "skip.no_such_card",  # the client's words for it (web/i18n)
        "params": {},
    }


def test_R7_1_only_the_current_seat_may_act() -> None:
    state = make_state(players=3, hands=[[9], [9], [9]], current=1)
    error = assert_refused(state, discard(9, 0), "R7.1", seat=2)
    assert error.message == "it is not your turn; seat 2 is to play"
    apply(state, discard(9, 0), seat=1)
    assert state.current == 2


@pytest.mark.parametrize("kind", ["bogus", "", "Play", "draw"])
def test_R7_1_unknown_action_kinds_are_refused(kind: str) -> None:
    state = make_state(hands=[[9], [9]])
    assert_refused(state, Action(kind), "R7.1", "unknown action")  # type: ignore[arg-type]


def test_R7_2_nobody_sees_other_hands_hidden_stock_cards_or_the_draw_order() -> None:
    state = new_round(Options(players=3, stock_size=6), seed=8)
    for _ in range(4):
        apply(state, legal_actions(state)[-1])  # a few discards: every seat holds a hand
    assert all(state.hands)
    for seat in [None, 0, 1, 2]:
        seen = json.dumps(view(state, seat).to_json(), sort_keys=True)
        variants = hidden_variants(state, seat)
        assert len(variants) >= 4
        for variant in variants:
            assert snapshot(variant) != snapshot(state)
            assert json.dumps(view(variant, seat).to_json(), sort_keys=True) == seen


def test_R7_2_players_see_what_the_rules_show() -> None:
    state = make_state(
        players=3,
        hands=[[9, 3], [4, 4, 4], [W]],
        stocks=[[1, 2, 12], [6], []],
        discards=[[(8, 7)], [], [(5,), (), (W, 2)]],
        building=[(1, 2), (), (W,)],
        draw=[10, 11],
        completed=list(range(1, 13)),
        current=1,
    )
    mine = view(state, 0).to_json()
    assert mine["hand"] == [3, 9]
    assert mine["hand_counts"] == [2, 3, 1]
    assert mine["stock_tops"] == [12, 6, None]
    assert mine["stock_counts"] == [3, 1, 0]
    assert mine["discards"] == [[[8, 7], [], [], []], [[], [], [], []], [[5], [], ["W", 2], []]]
    assert [b["cards"] for b in mine["building"]] == [[1, 2], [], ["W"], []]
    assert [b["value"] for b in mine["building"]] == [2, 0, 1, 0]
    assert (mine["draw_count"], mine["completed_count"]) == (2, 12)
    spectator = view(state, None).to_json()
    assert spectator["hand"] is None
    text = json.dumps(spectator)
    assert "draw" not in {k for k in spectator if k != "draw_count"}
    assert '"hands"' not in text
    with pytest.raises(ValueError, match="no seat 3"):
        view(state, 3)


def test_R7_2_a_seat_sees_its_own_hand_change() -> None:
    """The hidden-card comparison is sensitive: swapping the viewer's own card is visible."""
    state = make_state(hands=[[9, 3], [4]], draw=[10, 11])
    swapped = state.copy()
    swapped.hands[0][0], swapped.draw[0] = 10, 9
    assert view(swapped, 0).to_json() != view(state, 0).to_json()
    assert view(swapped, 1).to_json() == view(state, 1).to_json()


def test_R7_2_every_seat_and_spectator_sees_the_match_scores_and_target() -> None:
    match = Match(Options(players=3, stock_size=3, match_target=200), seed=4)
    for seat in (None, 0, 1, 2):
        seen = match.view(seat)
        assert seen.scores == (0, 0, 0) and seen.match_target == 200
        assert seen.to_json()["scores"] == [0, 0, 0]
        assert seen.to_json()["match_target"] == 200
    finish_match_round(match, [make_bot("greedy", seat) for seat in range(3)])
    after = match.scores
    assert any(after)
    # once a round is over, the view already counts its points
    assert list(match.view(1).scores) == after == list(view(match.state, None).scores)
    match.next_round()
    assert list(match.view(0).to_json()["scores"]) == after  # carried into the next deal


def test_R7_2_a_round_without_a_match_shows_zero_scores() -> None:
    """``view(state, seat)`` works for a round dealt on its own, as bots and tests deal them."""
    lone = view(new_round(Options(players=2, match_target=None), seed=3), 0)
    assert lone.scores == (0, 0) and lone.match_target is None
    assert view(make_state(players=3), None).to_json()["scores"] == [0, 0, 0]


def test_R7_3_timeout_ends_the_turn_with_no_discard() -> None:
    state = make_state(players=3, hands=[[9, 8, 7, 6, 5], [4], [4]], draw=[10] * 10, turn_timer=30)
    events = apply(state, TIMEOUT)
    assert state.current == 1
    assert state.hands[0] == [5, 6, 7, 8, 9]  # kept, sorted
    assert state.discards[0] == [(), (), (), ()]
    assert events[0].kind == "timed_out"


def test_R7_3_timeout_is_the_tables_not_a_players_action() -> None:
    state = make_state(hands=[[9], [4]], turn_timer=30)
    assert TIMEOUT not in legal_actions(state)
    check(state, TIMEOUT)  # the engine accepts it from the table
    with pytest.raises(NotationError, match="unknown action type 'timeout'"):
        action_from_json({"type": "timeout"})
    assert action_from_json({"type": "timeout"}, allow_timeout=True) == TIMEOUT


def test_R7_3_turn_timer_is_recorded_and_validated() -> None:
    assert Options(turn_timer=30).to_json()["turn_timer"] == 30
    assert Options().to_json()["turn_timer"] is None
    for bad in (4, 3601, 0, True):
        with pytest.raises(OptionsError, match=r"5 to 3600 seconds \(R7\.3\)"):
            Options(turn_timer=bad)


def test_R7_4_assist_is_an_option_recorded_and_off_in_ranked_play() -> None:
    options = Options(players=2, assist=True)
    assert options.to_json()["assist"] is True
    assert not options.ranked_standard
    assert Options(players=2).ranked_standard
    assert Options(players=2, turn_timer=30).ranked_standard
    plain = new_round(Options(players=2), seed=3)
    assisted = new_round(options, seed=3)
    assert legal_actions(plain) == legal_actions(assisted)  # the rules do not change


def test_R7_5_a_match_replays_exactly_from_options_seed_and_moves() -> None:
    options = Options(players=3, stock_size=3, match_target=200)
    bots = [make_bot(name, seat) for seat, name in enumerate(["greedy", "random", "greedy"])]
    match = play_match(options, "r75", bots, fingerprints=True)
    record = json.loads(json.dumps(to_record(match)))
    again = replay(record)
    assert again.scores == match.scores
    assert again.winners == match.winners
    assert [log.result for log in again.rounds] == [log.result for log in match.rounds]
    assert again.state.fingerprint() == match.state.fingerprint()
    assert to_record(again) == to_record(match)


# -- Edge cases: stray fields, malformed piles, stalled solo rounds, timeouts ------------------


def test_R7_1_an_action_not_listed_is_refused_even_with_stray_fields() -> None:
    state = make_state(hands=[[9, 1], [4]], stocks=[[1], [5]], draw=[10] * 5)
    listed = legal_actions(state)
    strays = [
        Action("play", "stock", 7, 2, 0),
        Action("play", "hand", 1, 3, 0),
        Action("discard", "hand", 9, 0, 3),
    ]
    for action in strays:
        assert action not in listed
        assert_refused(state, action, "R7.1")


def test_R7_1_a_malformed_discard_pile_is_refused_without_changing_the_state() -> None:
    state = make_state(hands=[[9, 4], [5]], draw=[10] * 5)
    assert_refused(state, Action("discard", "", 9, 1.5), "R4.4")  # type: ignore[arg-type]


def test_R6_4_a_solo_round_that_stalls_is_not_a_win() -> None:
    state = make_state(players=1, hands=[[9]], stocks=[[7, 7]], draw=[])
    apply(state, discard(9, 0))
    assert state.result is not None and state.result.stalemate
    assert state.result.winners == ()
    assert state.result.points == (0,)


def test_R6_4_a_round_of_timeouts_still_ends() -> None:
    state = make_state(
        hands=[[9, 9, 9, 9, 9], [9, 9, 9, 9, 9]], stocks=[[7], [7]], draw=[11] * 5, turn_timer=5
    )
    for _ in range(1000):
        if state.result is not None:
            break
        apply(state, TIMEOUT)
    assert state.result is not None
