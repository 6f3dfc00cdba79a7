"""Bots decide from their seat's view alone (R7.2), never raise, and always act legally."""

from __future__ import annotations

import random

import pytest
from bot_positions import positions
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import Bot, make_bot
from cardroom.games.skip import State, check, view
from cardroom.games.skip.sampling import determinize

# small search budgets and no time cap: the same seed must give the same choice
BOTS: dict[str, dict[str, object]] = {
    "random": {},
    "greedy": {},
    "planner": {},
    "expert": {"samples": 2, "candidates": 2, "time_cap": None, "endgame": 99},  # always search
}


def fresh(name: str, seed: int) -> Bot:
    return make_bot(name, seed, BOTS[name])


def hidden(state: State) -> tuple[object, ...]:
    seat = state.current
    others = tuple(tuple(sorted(h)) for s, h in enumerate(state.hands) if s != seat)
    return (state.draw, tuple(tuple(s[:-1]) for s in state.stocks), others)


@pytest.mark.parametrize("name", sorted(BOTS))
@settings(max_examples=10, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000))
def test_hidden_cards_do_not_change_the_choice(name: str, state: State, seed: int) -> None:
    """Two rounds that differ only in cards the seat cannot see get the same action."""
    seat = state.current
    twin = determinize(view(state, seat), random.Random(seed))
    assert view(twin, seat) == view(state, seat)
    if hidden(twin) == hidden(state):  # nothing hidden left to differ (rare, late rounds)
        return
    assert fresh(name, seed).choose(view(state, seat)) == fresh(name, seed).choose(view(twin, seat))


@pytest.mark.parametrize("name", sorted(BOTS))
@settings(max_examples=15, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000))
def test_bots_always_choose_a_legal_action(name: str, state: State, seed: int) -> None:
    """R7.1: whatever the position, a bot answers, and its answer is a legal action."""
    action = fresh(name, seed).choose(view(state, state.current))
    check(state, action)
