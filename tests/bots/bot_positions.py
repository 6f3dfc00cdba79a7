"""Positions for bot tests: real rounds played forward by random legal moves.

Hypothesis draws the table (players, teams, house rules), the deal and how far to play, so bots
meet early, middle and late positions, with and without partners.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from cardroom.games.skip import Options, State, apply_fast, legal_actions, new_round

TABLES = (
    Options(players=2, match_target=None),
    Options(players=2, match_target=None, stock_size=5, no_wild_discards=True),
    Options(players=3, match_target=None, stock_size=10, direction="counterclockwise"),
    Options(players=4, teams=True, match_target=None, stock_size=10),
    Options(players=4, teams=True, team_discards=True, match_target=None, stock_size=8),
)


def play_forward(options: Options, seed: int, moves: int) -> State:
    """A round after up to ``moves`` random legal moves (stopping early if it ends)."""
    state = new_round(options, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.result is not None:
            break
        actions = legal_actions(state)
        plays = [a for a in actions if a.is_play]
        # favour plays so that piles grow and stocks shrink, as in real games
        apply_fast(state, rng.choice(plays if plays and rng.random() < 0.7 else actions))
    return state


@st.composite
def positions(draw: st.DrawFn) -> State:
    """A live position (the round not over) from one of ``TABLES``."""
    options = draw(st.sampled_from(TABLES))
    seed = draw(st.integers(0, 10_000))
    moves = draw(st.integers(0, 250))
    state = play_forward(options, seed, moves)
    while state.result is not None:
        seed += 1
        state = play_forward(options, seed, moves // 2)
    return state
