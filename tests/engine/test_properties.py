"""Properties over random games with every combination of house rules (R3-R7).

Every property is derandomized (see ``ENGINE_SETTINGS``): the same examples run every time.
Games mostly use small stocks so that hundreds of them fit in a few seconds.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardroom.games.skip import (
    PASS,
    TIMEOUT,
    Action,
    IllegalMove,
    Options,
    RoundResult,
    State,
    apply,
    check,
    legal_actions,
    new_round,
    replay,
    to_record,
    view,
)
from cardroom.games.skip.actions import SOURCES
from cardroom.sim.play import play_match

from .support import (
    BOT_KINDS,
    ENGINE_SETTINGS,
    SEEDS,
    assert_plain_words,
    bots_for,
    deck_for,
    hidden_variants,
    options_strategy,
    play_moves,
    play_round,
    snapshot,
)


@st.composite
def positions(draw: st.DrawFn, max_moves: int = 400) -> State:
    """A position reached by bots after a random number of moves from a fresh deal."""
    options = draw(options_strategy())
    seed = draw(SEEDS)
    state = new_round(options, seed, dealer=seed % options.players)
    bots = bots_for(options.players, draw(BOT_KINDS), seed)
    moves = draw(st.integers(0, max_moves))
    return play_moves(state, bots, moves, stay_live=draw(st.integers(0, 9)) > 0)


def assert_scored_by_R6_2(state: State, result: RoundResult) -> None:
    """The result is consistent with R6.1, R6.2 and R6.4 for this position."""
    assert result.stock_left == tuple(len(s) for s in state.stocks)
    winners = set(result.winners)
    sides = {seat: frozenset({seat, state.partner(seat)} - {None}) for seat in range(state.players)}
    if winners:
        assert winners == sides[result.winners[0]], "the winners are one player or one team"
        gain = 25 + 5 * sum(
            left for seat, left in enumerate(result.stock_left) if seat not in winners
        )
        assert all(result.points[s] == gain for s in winners)
    assert all(result.points[s] == 0 for s in range(state.players) if s not in winners)
    left = {side: sum(result.stock_left[s] for s in side) for side in sides.values()}
    if not result.stalemate:
        assert winners and left[sides[result.winners[0]]] == 0
    elif state.players == 1:
        assert not winners, "a solo round that stalls is lost (R6.4, [project])"
    else:
        assert not state.draw and not state.completed
        fewest = min(left.values())
        best = [side for side, n in left.items() if n == fewest]
        assert (winners == set(best[0])) if len(best) == 1 else not winners


@ENGINE_SETTINGS
@given(options=options_strategy(), seed=SEEDS, kind=BOT_KINDS)
def test_every_card_is_in_exactly_one_place_after_every_move(
    options: Options, seed: int, kind: str
) -> None:
    deck = deck_for(options)
    state = new_round(options, seed, dealer=seed % options.players)
    assert Counter(state.all_cards()) == deck

    def conserved(after: State, action: Action) -> None:
        assert Counter(after.all_cards()) == deck, f"cards appeared or vanished after {action}"
        assert all(len(hand) <= 5 for hand in after.hands)

    play_round(state, bots_for(options.players, kind, seed), conserved)


@ENGINE_SETTINGS
@given(
    options=options_strategy(stocks=(1, 3, 5, 10, 20, 30, None)),
    seed=SEEDS,
)
def test_R6_4_every_round_ends_even_between_random_bots(options: Options, seed: int) -> None:
    state = new_round(options, seed, dealer=seed % options.players)
    moves = play_round(state, bots_for(options.players, "random", seed), max_moves=20_000)
    assert state.result is not None
    assert moves > 0
    assert_scored_by_R6_2(state, state.result)


@ENGINE_SETTINGS
@given(options=options_strategy(), seed=SEEDS, kind=BOT_KINDS)
def test_every_result_is_scored_by_R6_2(options: Options, seed: int, kind: str) -> None:
    state = new_round(options, seed, dealer=seed % options.players)
    play_round(state, bots_for(options.players, kind, seed))
    assert state.result is not None
    assert_scored_by_R6_2(state, state.result)


@ENGINE_SETTINGS
@given(
    options=options_strategy(stocks=(1, 2, 3, 5)),
    seed=SEEDS,
    kind=BOT_KINDS,
    fingerprints=st.booleans(),
)
def test_R7_5_a_record_replays_to_the_same_result_and_scores(
    options: Options, seed: int, kind: str, fingerprints: bool
) -> None:
    bots = bots_for(options.players, kind, seed)
    match = play_match(options, seed, bots, fingerprints=fingerprints, max_rounds=3)
    text = json.dumps(to_record(match))
    again = replay(json.loads(text))
    assert again.scores == match.scores
    assert again.winners == match.winners
    assert [log.result for log in again.rounds] == [log.result for log in match.rounds]
    assert again.moves() == match.moves()
    assert again.state.fingerprint() == match.state.fingerprint()
    replayed = to_record(again)
    assert replayed["result"] == json.loads(text)["result"]


@ENGINE_SETTINGS
@given(options=options_strategy(stocks=(1, 2, 3, 5)), seed=SEEDS, kind=BOT_KINDS)
def test_R6_4_a_match_is_only_over_with_winners(options: Options, seed: int, kind: str) -> None:
    """Whatever the target, a finished match has winners, and every view shows its scores."""
    bots = bots_for(options.players, kind, seed)
    match = play_match(options, seed, bots, max_rounds=4)
    assert match.winners is None or len(match.winners) > 0
    assert match.over == (match.winners is not None)
    assert all(log.result is not None for log in match.rounds)
    assert match.view(None).scores == tuple(match.scores)
    for log in match.rounds[:-1]:
        assert log.result is not None and (not log.result.winners or options.match_target)


def _views(state: State, seat: int | None) -> str:
    return json.dumps(view(state, seat).to_json(), sort_keys=True)


@ENGINE_SETTINGS
@given(state=positions(), shuffle_seed=st.integers(0, 1000))
def test_R7_2_no_view_ever_contains_hidden_information(state: State, shuffle_seed: int) -> None:
    rng = random.Random(shuffle_seed)
    for seat in [None, *range(state.players)]:
        seen = _views(state, seat)
        variants = hidden_variants(state, seat)
        # and random ones: a shuffled draw pile, a hidden hand card swapped with a draw card,
        # stock cards below the top shuffled
        variant = state.copy()
        rng.shuffle(variant.draw)
        others = [s for s in range(state.players) if s != seat and variant.hands[s]]
        if others and variant.draw:
            other = rng.choice(others)
            i, j = rng.randrange(len(variant.hands[other])), rng.randrange(len(variant.draw))
            variant.hands[other][i], variant.draw[j] = variant.draw[j], variant.hands[other][i]
        for stock in variant.stocks:
            below = stock[:-1]
            rng.shuffle(below)
            stock[:-1] = below
        variants.append(variant)
        for other_state in variants:
            assert Counter(other_state.all_cards()) == Counter(state.all_cards())
            assert _views(other_state, seat) == seen, "a view changed with a hidden card"


@ENGINE_SETTINGS
@given(state=positions(), choice=st.integers(0, 10**6), shuffle_seed=st.integers(0, 1000))
def test_R7_2_events_never_reveal_hidden_cards(
    state: State, choice: int, shuffle_seed: int
) -> None:
    """The events of a move (sent to everyone) are the same whatever the hidden cards are."""
    legal = legal_actions(state)
    if not legal:
        return
    action = legal[choice % len(legal)]
    variant = state.copy()
    rng = random.Random(shuffle_seed)
    rng.shuffle(variant.draw)
    for stock in variant.stocks:
        below = stock[:-1]
        rng.shuffle(below)
        stock[:-1] = below
    assert apply(variant, action) == apply(state, action)


@ENGINE_SETTINGS
@given(
    state=positions(),
    actions=st.lists(
        st.builds(
            Action,
            kind=st.sampled_from(["play", "discard", "pass", "timeout", "bogus", ""]),
            source=st.sampled_from([*SOURCES, "", "bogus"]),
            card=st.integers(-2, 14),
            pile=st.integers(-2, 5),
            to=st.integers(-2, 5),
            partner=st.booleans(),
        ),
        max_size=40,
    ),
)
def test_R7_1_illegal_actions_never_change_the_state(state: State, actions: list[Action]) -> None:
    for action in actions:
        before = snapshot(state)
        try:
            check(state, action)
        except IllegalMove as error:
            assert re.fullmatch(r"R[1-7]\.[1-7]", error.rule), error.rule
            assert_plain_words(error.message)
            try:
                apply(state, action)
            except IllegalMove as again:
                assert (again.rule, again.message) == (error.rule, error.message)
            else:
                raise AssertionError(f"check refused {action} but apply accepted it")
            assert snapshot(state) == before, f"refusing {action} changed the state"
        else:
            apply(state, action)


SLOTS = range(-1, 5)
CARDS = range(-1, 14)


def _all_canonical_actions() -> list[Action]:
    """Every action in its canonical form (unused fields at their defaults), plus nonsense."""
    actions = [Action("play", "hand", card, -1, to) for card in CARDS for to in SLOTS]
    for source in ("stock", "partner_stock", "", "bogus"):
        actions += [Action("play", source, -1, -1, to) for to in SLOTS]  # type: ignore[arg-type]
    for source in ("discard", "partner_discard"):
        actions += [Action("play", source, -1, p, to) for p in SLOTS for to in SLOTS]  # type: ignore[arg-type]
    actions += [
        Action("discard", "", card, pile, -1, partner)
        for card in CARDS
        for pile in SLOTS
        for partner in (False, True)
    ]
    return [*actions, PASS, Action("bogus")]  # type: ignore[arg-type]


ALL_ACTIONS = _all_canonical_actions()


def _accepted(state: State, action: Action) -> bool:
    try:
        check(state, action)
    except IllegalMove:
        return False
    return True


@ENGINE_SETTINGS
@given(state=positions())
def test_legal_actions_are_exactly_the_actions_check_accepts(state: State) -> None:
    legal = legal_actions(state)
    assert len(legal) == len(set(legal)), "an action is listed twice"
    accepted = {action for action in ALL_ACTIONS if _accepted(state, action)}
    assert set(legal) == accepted
    assert TIMEOUT not in legal
    if state.result is None:
        assert legal, "the current player always has something to do"
        assert (PASS in legal) == (not state.hands[state.current])


@ENGINE_SETTINGS
@given(options=options_strategy(), seed=SEEDS, kind=BOT_KINDS)
def test_seat_view_legal_actions_equal_the_states(options: Options, seed: int, kind: str) -> None:
    state = new_round(options, seed, dealer=seed % options.players)

    def same_actions(after: State, _: Action) -> None:
        for seat in range(after.players):
            listed = view(after, seat).legal_actions()
            assert listed == (legal_actions(after) if seat == after.current else [])
        assert view(after, None).legal_actions() == []

    same_actions(state, PASS)
    play_round(state, bots_for(options.players, kind, seed), same_actions)
