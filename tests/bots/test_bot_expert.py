"""The expert: planner plans judged on sampled hidden cards; a seed repeats its choices."""

from __future__ import annotations

import random
from dataclasses import asdict

import pytest
from bot_positions import TABLES, play_forward

from cardroom.bots.expert import WIN, ExpertBot, _outcome
from cardroom.bots.expert_tuning import EXPERT_WEIGHTS
from cardroom.bots.planner import PlannerBot, Weights
from cardroom.games.skip import WILD, Options, apply, apply_fast, check, new_round, view
from cardroom.games.skip.actions import play_stock
from cardroom.games.skip.sampling import determinize
from cardroom.games.skip.turns import position_of

TABLE = Options(players=2, match_target=None)
SMALL = {"samples": 3, "candidates": 3, "time_cap": None, "endgame": 99}


# The short-horizon search with the learned leaf (``horizon``, bots/value.py), opt-in.
SHORT = {"samples": 3, "candidates": 3, "horizon": 1, "margin": 500}


@pytest.mark.parametrize("settings", [SMALL, SHORT], ids=["endgame search", "short horizon"])
def test_a_seed_and_a_view_give_one_choice(settings: dict) -> None:
    """With an iteration budget (no time cap) the search is deterministic."""
    for seed in range(6 if settings is SMALL else 4):
        state = play_forward(TABLE, seed, 30 + 10 * seed)
        seen = view(state, state.current)
        assert ExpertBot(5, **settings).choose(seen) == ExpertBot(5, **settings).choose(seen)


@pytest.mark.parametrize(
    ("settings", "tables", "moves"),
    [(SMALL, [TABLE], 60), (SHORT, TABLES, 25)],
    ids=["endgame search", "short horizon, every table"],
)
def test_it_follows_its_plan_through_a_whole_turn_legally(
    settings: dict, tables: list[Options], moves: int
) -> None:
    """R4.2-R4.4: every step of the chosen plan is legal when it is played."""
    for options in tables:
        state = play_forward(options, 11 if settings is SMALL else 9, moves)
        bot, me = ExpertBot(1, **settings), state.current
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


def test_the_shortlist_values_first_moves_as_the_planners_search_does() -> None:
    """With the planner's weights, the shortlist's first plan starts with the planner's move at
    every decision of whole rounds (ties included): the search starts from the planner."""
    expert = ExpertBot(1, **asdict(Weights()))
    planner = PlannerBot()
    for seed in range(3):
        state = new_round(TABLE, f"same-as-planner:{seed}")
        while state.result is None:
            seen = view(state, state.current)
            action = planner.choose(seen)
            assert expert.shortlist(seen)[0][0] == action
            apply_fast(state, action)


def test_the_shortlist_starts_with_the_planners_choice_and_never_repeats_an_outcome() -> None:
    """Plans that differ only in the discard leave the same piles and hand: only the planner's
    preferred one is searched, so the samples go to choices that change the game."""
    planner = PlannerBot(**asdict(EXPERT_WEIGHTS))
    for options in TABLES:
        for seed in range(8):
            state = play_forward(options, seed, 15 + 7 * seed)
            if state.result is not None:
                continue
            seen = view(state, state.current)
            plans = ExpertBot(2, candidates=6, margin=500).shortlist(seen)
            assert plans[0][0] == planner.choose(seen)
            outcomes = [_outcome(position_of(seen), plan) for plan in plans]
            assert len(set(outcomes)) == len(outcomes)


def test_it_searches_only_once_a_stock_is_down_to_its_last_few_cards() -> None:
    """Rollouts reach the end of the round only near it; before, the planner's plan stands."""
    state = new_round(TABLE, "endgame")
    bot = ExpertBot(1, endgame=3)
    assert not bot.in_endgame(view(state, state.current))
    other = 1 - state.current
    state.draw += state.stocks[other][:-3]  # the other seat's stock is down to three cards
    del state.stocks[other][:-3]
    assert bot.in_endgame(view(state, state.current))


def test_in_teams_the_endgame_counts_both_partners_stocks() -> None:
    """A side wins once both its stocks are played (R6.1): one short stock is not the end."""
    state = new_round(Options(players=4, teams=True, stock_size=10, match_target=None), "teams")
    bot = ExpertBot(1, endgame=3)
    me = state.current
    other = (me + 1) % 4
    partner = (other + 2) % 4
    state.draw += state.stocks[other][:-2]  # one opponent is down to two cards
    del state.stocks[other][:-2]
    assert not bot.in_endgame(view(state, me))  # its partner still holds ten
    state.draw += state.stocks[partner][:-1]
    del state.stocks[partner][:-1]
    assert bot.in_endgame(view(state, me))  # their side holds three
