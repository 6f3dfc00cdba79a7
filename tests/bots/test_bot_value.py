"""The expert's learned leaf value and its short-horizon search (``horizon``)."""

from __future__ import annotations

import json
import random

from bot_positions import TABLES, play_forward

from cardroom.bots.expert import ExpertBot
from cardroom.bots.value import FEATURES, MODEL_FILE, features, load_model
from cardroom.games.skip import Options, new_round, view
from cardroom.games.skip.sampling import determinize

TABLE = Options(players=2, match_target=None)
SHORT = {"samples": 3, "candidates": 3, "horizon": 1, "margin": 500}


def test_the_shipped_model_loads_and_says_how_it_was_fitted() -> None:
    data = json.loads(MODEL_FILE.read_text())
    assert data["features"] == list(FEATURES)
    assert "python -m cardroom.bots.value fit" in data["fitted"]["command"]
    assert data["fitted"]["held_out_log_loss"] < data["fitted"]["constant_log_loss"]
    assert len(load_model().weights) == len(FEATURES)


def test_fewer_stock_cards_left_means_a_better_chance() -> None:
    """R6.1: the side closer to an empty stock is the likelier winner, and a fresh deal is a
    near coin toss."""
    state = new_round(TABLE, "value")
    me, other = state.current, 1 - state.current
    even = load_model().win_chance(view(state, me))
    assert 0.3 < even < 0.7
    state.draw += state.stocks[me][:-2]  # down to two cards, the other still at thirty
    del state.stocks[me][:-2]
    ahead = load_model().win_chance(view(state, me))
    behind = load_model().win_chance(view(state, other))
    assert ahead > 0.8 > 0.2 > behind


def test_features_read_every_table_kind() -> None:
    for options in TABLES:
        state = play_forward(options, 3, 40)
        for seat in range(options.players):
            assert len(features(view(state, seat))) == len(FEATURES)


def test_cards_the_seat_cannot_see_do_not_change_the_short_horizon_choice() -> None:
    """R7.2: a twin deal that differs only in hidden cards gets the same action."""
    for seed in range(4):
        state = play_forward(TABLE, 40 + seed, 30)
        seat = state.current
        twin = determinize(view(state, seat), random.Random(seed))
        assert view(twin, seat) == view(state, seat)
        assert ExpertBot(2, **SHORT).choose(view(state, seat)) == ExpertBot(2, **SHORT).choose(
            view(twin, seat)
        )
