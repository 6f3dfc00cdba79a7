"""The expert: planner plans judged on sampled hidden cards; a seed repeats its choices."""

from __future__ import annotations

import random

from bot_positions import play_forward

from cardroom.bots.expert import WIN, ExpertBot
from cardroom.games.skip import WILD, Options, apply, check, new_round, view
from cardroom.games.skip.actions import play_stock
from cardroom.games.skip.sampling import determinize

TABLE = Options(players=2, match_target=None)
SMALL = {"samples": 3, "candidates": 3, "time_cap": None}


def test_a_seed_and_a_view_give_one_choice() -> None:
    """With an iteration budget (no time cap) the search is deterministic."""
    for seed in range(6):
        state = play_forward(TABLE, seed, 30 + 10 * seed)
        seen = view(state, state.current)
        assert ExpertBot(5, **SMALL).choose(seen) == ExpertBot(5, **SMALL).choose(seen)


def test_it_follows_its_plan_through_a_whole_turn_legally() -> None:
    """R4.2-R4.4: every step of the chosen plan is legal when it is played."""
    state = play_forward(TABLE, 11, 60)
    bot, me = ExpertBot(1, **SMALL), state.current
    while state.current == me and state.result is None:
        action = bot.choose(view(state, me))
        check(state, action)
        apply(state, action)
    assert state.result is not None or state.current != me


def test_the_last_stock_card_scores_a_win_in_every_rollout() -> None:
    """R6.1: a plan that empties the stock wins, whatever the hidden cards."""
    seed = 0
    while new_round(TABLE, seed).stocks[new_round(TABLE, seed).current][-1] not in (1, WILD):
        seed += 1  # a deal whose first stock card starts a pile
    state = new_round(TABLE, seed)
    me = state.current
    state.draw += state.stocks[me][:-1]  # the stock is down to its last card
    del state.stocks[me][:-1]
    seen = view(state, me)
    bot = ExpertBot(1, **SMALL)
    deal = determinize(seen, random.Random(1))
    assert bot.rollout(deal, (play_stock(0),)) == WIN
    assert bot.choose(seen).source == "stock"
