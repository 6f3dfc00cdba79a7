"""The planner's counting (issue 35): what can still come from the cards a seat has not seen,
and what the next opponent showed it does not hold. All of it read from the seat's view."""

from __future__ import annotations

import pytest

from cardroom.bots.expert import ExpertBot
from cardroom.bots.planner import (
    NOTHING,
    HandReader,
    PlannerBot,
    Weights,
    context_of,
    lacks_of,
    pile_run,
    reach_chance,
    shares_of,
    threat_odds,
)
from cardroom.games.skip import WILD, Options, State, apply, new_round, view


def facing(their_stock: int, values: list[int], their_tops: list[int]) -> State:
    """A 2-player round at the start of seat ``me``'s turn, the other seat's stock card and
    discard tops as given, the building piles at ``values``."""
    state = new_round(Options(players=2, match_target=None), 7)
    me = state.current
    other = 1 - me
    state.stocks[other] = [*state.stocks[other][:-1], their_stock]
    state.discards[other] = [(top,) for top in their_tops] + [
        () for _ in range(4 - len(their_tops))
    ]
    state.building = [tuple(range(1, v + 1)) for v in values]
    state.values = list(values)
    return state


def test_a_stock_card_one_short_of_a_pile_that_stayed_means_neither_that_card_nor_a_wild() -> None:
    """Its 5 waited on a pile at 3: had it held a 4 or a wild it would have played (R3.1)."""
    state = facing(5, [3, 0, 0, 0], [])
    assert lacks_of(view(state, state.current)) == {4, WILD}


def test_nothing_is_read_when_the_opponent_could_have_played_anyway() -> None:
    state = facing(5, [3, 0, 0, 0], [4])  # its own discard top bridged the gap
    assert lacks_of(view(state, state.current)) == NOTHING


def test_nothing_is_read_from_gaps_of_two_or_more() -> None:
    state = facing(9, [3, 6, 0, 0], [])
    assert lacks_of(view(state, state.current)) == NOTHING


def test_nothing_is_read_at_more_than_two_seats() -> None:
    state = new_round(Options(players=3, match_target=None), 7)
    assert lacks_of(view(state, state.current)) == NOTHING


def test_the_threat_odds_follow_what_it_lacks_and_what_is_unseen() -> None:
    state = facing(5, [3, 0, 0, 0], [])
    other = 1 - state.current
    state.hands[other] = [state.draw.pop() for _ in range(4)]  # kept four: one fresh card
    seen = view(state, state.current)
    blind = threat_odds(seen, other, NOTHING)
    read = threat_odds(seen, other, frozenset({4, WILD}))
    assert all(0.0 <= odd <= 1.0 for odd in blind + read)
    assert read[4] == pytest.approx(shares_of(seen)[4])  # only the fresh card can be one
    assert read[4] < blind[4]
    assert shares_of(seen)[6] < read[6] < blind[6]  # no wild kept: a 6 only as a 6
    assert reach_chance(5, seen.values, set(), 0, read) == read[4]
    assert reach_chance(5, seen.values, {4}, 0, read) == 1.0  # a 4 on its discard piles


def test_the_planner_counts_nothing_and_the_expert_counts_the_threat() -> None:
    """Today's planner (Hard's bot, and the frozen opponent of the expert's goals) counts
    nothing; the expert counts the next opponent's odds (``count_threat``, the one feature
    that held, docs/bots.md) without reading what it lacks, unless asked."""
    state = facing(5, [3, 0, 0, 0], [])
    other = 1 - state.current
    state.hands[other] = [state.draw.pop() for _ in range(4)]
    seen = view(state, state.current)
    planner = context_of(seen, Weights())
    assert planner.shares == () and planner.threat_odds == ()
    blind = ExpertBot().context(seen)
    assert blind.threat_odds == threat_odds(seen, other, NOTHING)
    read = ExpertBot(inference=1).context(seen)
    assert read.threat_odds[4] == pytest.approx(shares_of(seen)[4])


def test_the_reader_reads_once_a_turn() -> None:
    state = facing(5, [3, 0, 0, 0], [])
    reader = HandReader()
    first = reader.lacks(view(state, state.current))
    state.values = [4, 0, 0, 0]  # mid-turn the piles move, what it lacked stays read
    assert reader.lacks(view(state, state.current)) is first


def test_a_discard_pile_counts_with_its_run() -> None:
    assert pile_run((9, 8, 7)) == [7, 8, 9]
    assert pile_run((9, 7)) == [7]
    assert pile_run((5, WILD)) == [WILD]
    assert pile_run(()) == []


def test_a_counting_planner_still_plays_its_stock_first() -> None:
    state = facing(5, [3, 0, 0, 0], [])
    me = state.current
    state.hands[me] = [4, 9, 9, 10, 11]
    state.stocks[me] = [*state.stocks[me][:-1], 5]
    bot = PlannerBot(count_threat=20, inference=1)
    sources = []
    while state.current == me and state.result is None:
        action = bot.choose(view(state, me))
        apply(state, action)
        sources.append(action.source)
    assert sources[:2] == ["hand", "stock"]  # the 4, then the 5 from the stock
