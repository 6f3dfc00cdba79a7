"""Set deals (games/arranging.py): a test says who plays first and where chosen cards lie; the
rest is the seed's shuffle, the cards are conserved, no view shows the deal, a set deal is never
ranked, and a match with one replays from its options, seed and steps like any other."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.games import get_game
from cardroom.games.base import OptionsError, Step, rebuild
from cardroom.games.skip.cards import deck_units, new_deck

from .support import ENGINE_SETTINGS

SKIP = get_game("skip")
SKYJO = get_game("skyjo")


def skip_match(deal: dict[str, Any], seed: str = "s", **options: Any) -> Any:
    data = {"players": 3, "stock_size": 5, "match_target": None, **options, "deal": deal}
    return SKIP.new_match(SKIP.options_from_json(data), seed)


def every_card(state: Any) -> Counter[int]:
    stocks = (card for stock in state._stocks for card in stock)
    hands = (card for hand in state._hands for card in hand)
    return Counter([*state.draw, *stocks, *hands])


@ENGINE_SETTINGS
@given(first=st.integers(0, 2), seed=st.text(max_size=8))
def test_the_set_first_player_plays_first_whatever_the_seed(first: int, seed: str) -> None:
    match = skip_match({"first": first}, seed)
    assert match.current == first
    assert len(match.view(first).to_json()["hand"]) == 5


def test_set_stock_tops_and_the_first_hand_are_dealt_where_set() -> None:
    match = skip_match({"first": 1, "stocks": [[5, 9], ["W"]], "draw": [1, 2, 3, 4, 12]})
    view = match.view(1).to_json()
    assert view["stock_tops"][:2] == [5, "W"]
    assert sorted(view["hand"], key=str) == [1, 12, 2, 3, 4]
    state = match.state
    assert state._stocks[0][-2:] == [9, 5]  # the top card last
    assert every_card(state) == Counter(new_deck(deck_units(3)))  # nothing added or lost


def test_no_view_shows_the_set_deal_and_it_is_never_ranked() -> None:
    match = skip_match({"first": 0, "draw": [7]}, players=2, stock_size=None, match_target=500)
    assert "deal" in match.options.to_json()  # stored, so the match replays
    for seat in (0, 1, None):
        assert "deal" not in match.view(seat).to_json()["options"]
    assert not SKIP.is_ranked(match.options)
    assert SKIP.is_ranked(SKIP.options_from_json({"players": 2}))


def test_a_match_with_a_set_deal_replays_from_its_options_seed_and_steps() -> None:
    match = skip_match({"first": 2, "stocks": [[], [], [12]]}, "replayed")
    steps = []
    for _ in range(30):
        if match.current is None:
            break
        action = match.view(match.current).legal_actions()[0]
        steps.append(Step("action", match.current, SKIP.action_to_json(action)))
        match.apply(action, match.current)
    options = SKIP.options_from_json(match.options.to_json())
    again = rebuild(SKIP, options, "replayed", steps)
    assert again.view(None).to_json() == match.view(None).to_json()


@pytest.mark.parametrize(
    ("deal", "words"),
    [
        ({"first": 3}, "first player is a seat 0-2, not 3"),
        ({"first": True}, "first player is a seat 0-2"),
        ({"stocks": [[5] * 6]}, "stocks hold at most 5 cards each (R3.2)"),
        ({"draw": [5] * 13}, "asks for 13 cards 5, the deck holds 12 (R1.2)"),
        ({"draw": ["X"]}, "draw is a list of cards"),
        ({"hands": [[1]]}, "a set deal is an object with some of first, stocks, draw"),
        ([0], "a set deal is an object"),
    ],
)
def test_a_set_deal_that_cannot_be_dealt_is_refused_saying_why(deal: Any, words: str) -> None:
    with pytest.raises(OptionsError) as info:
        skip_match(deal)
    assert words in str(info.value)


def test_skyjo_grids_discard_draw_and_the_starter_are_dealt_where_set() -> None:
    deal = {"first": 1, "grids": [[12, 12, 12], [-2]], "discard": 5, "draw": [0, 7]}
    options = SKYJO.options_from_json({"players": 2, "deal": deal})
    match = SKYJO.new_match(options, "s")
    state = match.state
    assert state.cards[0][:3] == [12, 12, 12] and state.cards[1][0] == -2
    assert state.discard == [5] and state.draw[-2:] == [7, 0]
    assert state.starter == 1 and not SKYJO.is_ranked(options)
    assert "deal" not in match.view(0).to_json()["options"]
    dealt = [*state.draw, *state.discard, *(c for grid in state.cards for c in grid)]
    assert len(dealt) == 150
    with pytest.raises(OptionsError, match="the deck holds 5"):
        SKYJO.options_from_json({"players": 2, "deal": {"draw": [-2] * 6}})
