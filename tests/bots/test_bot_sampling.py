"""Guessing hidden cards (``games/skip/sampling.py``): what a seat sees stays exactly as seen."""

from __future__ import annotations

import random
from collections import Counter

from bot_positions import play_forward, positions
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.skip import Options, State, legal_actions, view
from cardroom.games.skip.sampling import determinize, unseen_cards


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_guess_shows_the_seat_exactly_what_it_saw(state: State, seed: int) -> None:
    """R7.2: the guessed state's view for the seat equals the real view; cards are conserved."""
    seat = state.current
    seen = view(state, seat)
    guess = determinize(seen, random.Random(seed))
    assert view(guess, seat) == seen
    assert Counter(guess.all_cards()) == Counter(state.all_cards())
    assert sorted(legal_actions(guess)) == sorted(legal_actions(state))


@settings(max_examples=30, deadline=None)
@given(positions())
def test_the_unseen_pool_is_what_the_seat_cannot_see(state: State) -> None:
    """Other hands, stock cards below the tops, the draw pile and the completed piles."""
    seat = state.current
    hidden = list(state.draw) + list(state.completed)
    for other in range(state.players):
        hidden += state.stocks[other][:-1]
        if other != seat:
            hidden += state.hands[other]
    assert Counter(unseen_cards(view(state, seat))) == Counter(hidden)


def test_guesses_differ_but_a_seed_repeats_one() -> None:
    state = play_forward(Options(players=2, match_target=None), 5, 40)
    seen = view(state, state.current)
    first = determinize(seen, random.Random(1))
    again = determinize(seen, random.Random(1))
    other = determinize(seen, random.Random(2))
    assert first.draw == again.draw and first.hands == again.hands
    assert (first.draw, first.hands) != (other.draw, other.hands)
