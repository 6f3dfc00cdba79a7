"""Builders, strategies and checks shared by the engine tests.

Positions are built by hand with ``make_state``: discard and building piles are tuples, stocks,
hands and the draw pile are lists with the top card at the end. A building pile's value is its
length (a pile always starts at 1 and every card adds one).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.bots.base import Bot
from cardroom.games.skip import (
    STOCK_PRESETS,
    WILD,
    Action,
    IllegalMove,
    Match,
    Options,
    State,
    apply,
    view,
)
from cardroom.games.skip.cards import deck_units, new_deck
from cardroom.games.skip.options import MATCH_TARGETS
from cardroom.games.skip.rules import partners_for

W = WILD

ENGINE_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Hypothesis settings for every property here: derandomized (never flaky), no deadline."""

MAX_MOVES = 20_000
"""A bound no real round comes near: random-bot rounds end in a few hundred moves (R6.4)."""


def make_state(
    *,
    players: int = 2,
    hands: Sequence[Sequence[int]] | None = None,
    stocks: Sequence[Sequence[int]] | None = None,
    discards: Sequence[Sequence[Sequence[int]]] | None = None,
    building: Sequence[Sequence[int]] | None = None,
    draw: Sequence[int] = (),
    completed: Sequence[int] = (),
    current: int = 0,
    dealer: int | None = None,
    teams: bool = False,
    seed: int = 0,
    **option_changes: Any,
) -> State:
    """A position built by hand. Options are validated, so the deck must be big enough for
    the stock size in the options (use small ``stock_size`` values); the cards actually in the
    position need not match the deck."""
    options = Options(
        players=players,
        teams=teams,
        stock_size=option_changes.pop("stock_size", 5),
        **option_changes,
    )
    building_piles = [tuple(p) for p in (building or [()] * 4)]
    building_piles += [()] * (4 - len(building_piles))
    return State(
        options=options,
        players=players,
        dealer=(current - 1) % players if dealer is None else dealer,
        partners=partners_for(players, teams),
        rng=random.Random(seed),
        draw=list(draw),
        stocks=[list(s) for s in (stocks or [[5, 5, 5]] * players)],
        hands=[list(h) for h in (hands or [[]] * players)],
        discards=[
            [tuple(p) for p in piles] + [()] * (4 - len(piles))
            for piles in (discards or [[]] * players)
        ],
        building=building_piles,
        values=[len(p) for p in building_piles],
        completed=list(completed),
        current=current,
        turn=1,
    )


def snapshot(state: State) -> tuple[object, ...]:
    """Everything in a state, hidden cards and the random generator included."""
    return (
        state.fingerprint(),
        repr(
            (
                state.draw,
                state.completed,
                state.building,
                state.values,
                state.stocks,
                state.hands,
                state.discards,
                state.current,
                state.turn,
                state.played_this_turn,
                state.idle_turns,
                state.moves,
                state.result,
                state.dealer,
                state.partners,
            )
        ),
        state.rng.getstate(),
    )


def assert_refused(
    state: State, action: Action, rule: str, words: str | None = None, seat: int | None = None
) -> IllegalMove:
    """``action`` raises IllegalMove citing ``rule``, in plain words, and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        apply(state, action, seat)
    error = info.value
    assert error.rule == rule, f"{action} was refused under {error.rule}, not {rule}: {error}"
    assert_plain_words(error.message)
    if words is not None:
        assert words in error.message, f"{error.message!r} does not say {words!r}"
    assert snapshot(state) == before, f"refusing {action} changed the state"
    return error


def assert_plain_words(message: str) -> None:
    """A reason a person understands: a sentence, not a repr or a traceback fragment."""
    assert len(message.split()) >= 3, message
    for jargon in ("Action(", "Traceback", "None", "[", "]", "kind=", "Error"):
        assert jargon not in message, f"{message!r} contains {jargon!r}"


def deck_for(options: Options) -> Counter[int]:
    return Counter(new_deck(deck_units(options.players, options.extra_deck)))


def bots_for(players: int, kind: str, seed: object) -> list[Bot]:
    kinds = ["random", "greedy"] if kind == "mixed" else [kind]
    return [make_bot(kinds[i % len(kinds)], f"{seed}/{i}") for i in range(players)]


def play_round(
    state: State,
    bots: Sequence[Bot],
    on_move: Callable[[State, Action], None] | None = None,
    max_moves: int = MAX_MOVES,
) -> int:
    """Play the round to its end with ``apply`` (checked); return the number of moves."""
    for moves in range(max_moves):
        if state.result is not None:
            return moves
        seat = state.current
        action = bots[seat].choose(view(state, seat))
        apply(state, action, seat)
        if on_move is not None:
            on_move(state, action)
    raise AssertionError(f"the round did not end within {max_moves} moves")


def play_moves(state: State, bots: Sequence[Bot], moves: int, stay_live: bool = False) -> State:
    """Play up to ``moves`` moves (fewer if the round ends) and return the position reached.

    With ``stay_live`` the position returned is the last one before the round ended.
    """
    for _ in range(moves):
        if state.result is not None:
            break
        seat = state.current
        before = state.copy() if stay_live else state
        apply(state, bots[seat].choose(view(state, seat)), seat)
        if stay_live and state.result is not None:
            return before
    return state


SMALL_STOCKS: tuple[int | None, ...] = (1, 2, 3, 4, 5, 7, 10, None)


@st.composite
def options_strategy(draw: st.DrawFn, stocks: Sequence[int | None] = SMALL_STOCKS) -> Options:
    """Options over 1-8 players with every house rule; teams only where they are valid."""
    players = draw(st.sampled_from(range(1, 9)))
    teams = players in (4, 6, 8) and draw(st.booleans())
    extra_deck = draw(st.booleans())
    stock = draw(st.sampled_from(stocks))
    largest = (deck_units(players, extra_deck) * 54 - 5 * players) // players
    if stock is not None and stock > largest:
        stock = largest  # R3.2: the largest stock that still leaves 5 draw cards per player
    return Options(
        players=players,
        stock_size=stock,
        extra_deck=extra_deck,
        teams=teams,
        team_discards=teams and draw(st.booleans()),
        starter=draw(st.sampled_from(["dealer_left", "highest_stock"])),
        direction=draw(st.sampled_from(["clockwise", "counterclockwise"])),
        match_target=draw(st.sampled_from(MATCH_TARGETS)),
        no_wild_discards=draw(st.booleans()),
        turn_timer=draw(st.none() | st.integers(5, 3600)),
        assist=draw(st.booleans()),
    )


PRESET_NAMES = tuple(STOCK_PRESETS)
BOT_KINDS = st.sampled_from(["random", "greedy", "mixed"])
SEEDS = st.integers(0, 10**6)


def finish_match_round(match: Match, bots: Sequence[Bot], max_moves: int = MAX_MOVES) -> None:
    """Play the match's current round to its end through ``Match.apply`` (checked, logged)."""
    for _ in range(max_moves):
        state = match.state
        if state.result is not None:
            return
        seat = state.current
        match.apply(bots[seat].choose(view(state, seat)), seat)
    raise AssertionError(f"round {match.round_number} did not end within {max_moves} moves")


def hidden_variants(state: State, seat: int | None) -> list[State]:
    """Copies that differ from ``state`` only in cards ``seat`` must not see."""
    variants: list[State] = []
    if len(set(state.draw)) > 1:
        shuffled = state.copy()
        shuffled.draw.reverse()
        variants.append(shuffled)
    for other in range(state.players):
        if other == seat:
            continue
        hand = state.hands[other]
        for i, card in enumerate(hand):
            j = next((k for k, d in enumerate(state.draw) if d != card), None)
            if j is not None:
                swapped = state.copy()
                swapped.hands[other][i], swapped.draw[j] = state.draw[j], card
                variants.append(swapped)
                break
    for owner in range(state.players):
        below = state.stocks[owner][:-1]
        if len(set(below)) > 1:
            swapped = state.copy()
            swapped.stocks[owner][:-1] = below[::-1]
            variants.append(swapped)
        if below and state.draw and below[0] != state.draw[0]:
            swapped = state.copy()
            swapped.stocks[owner][0], swapped.draw[0] = state.draw[0], below[0]
            variants.append(swapped)
    return variants
