"""``casual``: greedy with a newcomer's slips, never missing a stock card that fits."""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.bots.casual import CasualBot
from cardroom.bots.greedy import GreedyBot
from cardroom.games.skip import Options, apply, new_round, view


def positions(count: int, seed: int = 5):
    """Views of the seat to move along a greedy game (restarted when a round ends)."""
    state = new_round(Options(players=2, match_target=None), seed)
    greedy = GreedyBot()
    found = 0
    while found < count:
        seen = view(state, state.current)
        yield seen
        found += 1
        apply(state, greedy.choose(seen))
        if state.over:
            state = new_round(Options(players=2, match_target=None), seed + found)


def test_without_slips_it_plays_as_greedy() -> None:
    casual, greedy = CasualBot(1, slip=0.0), GreedyBot(1)
    for seen in positions(300):
        assert casual.choose(seen) == greedy.choose(seen)


def test_it_always_plays_a_stock_card_that_fits_and_otherwise_stays_legal() -> None:
    bot = CasualBot(2, slip=1.0)
    checked = 0
    for seen in positions(400):
        choice = bot.choose(seen)
        assert choice in seen.legal_actions()
        if GreedyBot().choose(seen).source == "stock":
            assert choice.source == "stock"
            checked += 1
    assert checked > 10


def test_a_seed_gives_the_same_slips() -> None:
    first = [make_bot("casual", 9, {"slip": 0.5}).choose(s) for s in positions(50)]
    again = [make_bot("casual", 9, {"slip": 0.5}).choose(s) for s in positions(50)]
    assert first == again


def test_a_slip_is_a_probability() -> None:
    with pytest.raises(ValueError, match="probability"):
        CasualBot(1, slip=1.5)
