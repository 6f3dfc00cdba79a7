"""Properties of Skyjo over random matches with every house rule (S1-S5).

Derandomized (``ENGINE_SETTINGS``): the same examples run every time. Players choose random
legal actions from their own views, as a person or a bot would.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.base import (
    ACTION,
    NEXT_ROUND,
    IllegalMove,
    NotationError,
    ReplayError,
    Step,
    rebuild,
    replay,
)
from cardroom.games.skyjo import (
    DRAW,
    HIDDEN,
    SKYJO,
    TIMEOUT,
    Action,
    Match,
    Options,
    State,
    action_from_json,
    action_to_json,
    apply,
    apply_fast,
    legal_actions,
    new_deck,
    new_round,
    to_record,
    view,
)
from cardroom.games.skyjo import replay as replay_record
from cardroom.games.skyjo.actions import KINDS, PLACED
from cardroom.games.skyjo.cards import GRID
from cardroom.games.skyjo.rules import shuffle
from cardroom.games.skyjo.state import shown_cells

from .skyjo_support import snapshot
from .support import ENGINE_SETTINGS

DECK = Counter(new_deck())
MAX_STEPS = 20_000


@st.composite
def options(draw: st.DrawFn, end_scores: tuple[int, ...] = (10, 40, 100)) -> Options:
    return Options(
        players=draw(st.integers(2, 8)),
        end_score=draw(st.sampled_from(end_scores)),
        column_removal=draw(st.booleans()),
        closer_doubling=draw(st.booleans()),
        turn_timer=draw(st.none() | st.integers(5, 3600)),
    )


def play_match(
    match: Match, rng: random.Random, timeouts: float = 0.05, on_step=None
) -> list[Step]:
    """Random legal actions (and now and then a timeout) until the match is over; its steps."""
    steps: list[Step] = []
    for _ in range(MAX_STEPS):
        if match.over:
            return steps
        if match.between_rounds:
            step = Step(NEXT_ROUND)
        else:
            seat = match.current
            if rng.random() < timeouts:
                action = TIMEOUT
            else:
                action = rng.choice(match.view(seat).legal_actions())
            step = Step(ACTION, seat, action_to_json(action))
        match.apply_step(step)
        steps.append(step)
        if on_step is not None:
            on_step(match)
    raise AssertionError("the match did not end")


def conserved(state: State) -> None:
    assert Counter(state.all_cards()) == DECK


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_S1_1_cards_are_conserved_at_every_step_and_matches_end(opts, seed):
    match = Match(opts, seed)
    conserved(match.state)
    steps = play_match(match, random.Random(seed), on_step=lambda m: conserved(m.state))
    assert match.over and max(match.scores) >= opts.end_score
    assert sum(step.kind == NEXT_ROUND for step in steps) == match.round_number - 1


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_S4_1_every_round_ends_with_every_card_face_up_and_the_closer_all_up(opts, seed):
    rng = random.Random(seed)
    state = new_round(opts, seed)
    for _ in range(MAX_STEPS):
        if state.result is not None:
            break
        apply(state, rng.choice(legal_actions(state)), state.current)
    assert state.result is not None
    assert all(state.all_up(seat) for seat in range(opts.players))
    assert state.result.sums == tuple(sum(c for c in grid if c is not None) for grid in state.cards)
    if opts.column_removal:
        for grid in state.cards:
            for column in range(4):
                cells = grid[column * 3 : column * 3 + 3]
                assert None in cells or len(set(cells)) > 1, "a column of three was left"


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_S4_3_round_points_follow_the_doubling_rule(opts, seed):
    match = Match(opts, seed)
    play_match(match, random.Random(seed))
    for log in match.rounds:
        result = log.result
        assert result is not None
        closer = result.closer
        others = [result.sums[s] for s in range(opts.players) if s != closer]
        double = opts.closer_doubling and result.sums[closer] > 0
        double = double and min(others) <= result.sums[closer]
        assert result.doubled == double
        expected = list(result.sums)
        if double:
            expected[closer] *= 2
        assert list(result.points) == expected


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_records_replay_and_replay_refuses_an_altered_move(opts, seed):
    match = Match(opts, seed, fingerprints=True)
    steps = play_match(match, random.Random(seed))
    record = json.loads(json.dumps(to_record(match)))
    again = replay_record(record)
    assert again.scores == match.scores and again.winners == match.winners
    assert rebuild(SKYJO, opts, str(seed), steps).scores == match.scores
    assert SKYJO.record(opts, str(seed), steps)["rounds"] == record["rounds"]
    rng = random.Random(seed + 1)
    r = rng.randrange(len(record["rounds"]))
    moves = record["rounds"][r]["moves"]
    m = rng.randrange(len(moves))
    altered = copy.deepcopy(record)
    original = moves[m]["action"]
    others = [
        action_to_json(a)
        for a in _every_action()
        if a.kind != "timeout" and action_to_json(a) != original
    ]
    altered["rounds"][r]["moves"][m]["action"] = rng.choice(others)
    with pytest.raises(ReplayError):
        replay_record(altered)


def _every_action() -> list[Action]:
    return [Action(k, p) for k in KINDS if k in PLACED for p in range(GRID)] + [DRAW, TIMEOUT]


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6), st.integers(0, 300))
def test_refused_actions_change_nothing(opts, seed, moves):
    rng = random.Random(seed)
    state = new_round(opts, seed)
    for _ in range(moves):
        if state.result is not None:
            break
        apply(state, rng.choice(legal_actions(state)), state.current)
    legal = set(legal_actions(state)) if state.result is None else set()
    for action in _every_action():
        if action in legal or (action == TIMEOUT and state.result is None):
            continue
        before = snapshot(state)
        with pytest.raises(IllegalMove) as refused:
            apply(state, action, state.current)
        assert refused.value.rule.startswith("S")
        assert snapshot(state) == before
    if state.result is None:
        other = (state.current + 1) % opts.players
        before = snapshot(state)
        with pytest.raises(IllegalMove):
            apply(state, next(iter(legal)), other)
        assert snapshot(state) == before


def _hidden_variants(state: State, seat: int | None) -> list[State]:
    """Copies of ``state`` that differ only in what ``seat`` may not see."""
    variants = []
    if len(set(state.draw)) > 1:
        reversed_draw = state.copy()
        reversed_draw.draw.reverse()
        variants.append(reversed_draw)
    for owner in range(state.players):
        for p in state.face_down(owner):
            card = state.cards[owner][p]
            j = next((k for k, d in enumerate(state.draw) if d != card), None)
            if j is not None:
                swapped = state.copy()
                swapped.cards[owner][p], swapped.draw[j] = state.draw[j], card
                variants.append(swapped)
                break
    if state.drawn is not None and seat != state.current:
        j = next((k for k, d in enumerate(state.draw) if d != state.drawn), None)
        if j is not None:
            swapped = state.copy()
            swapped.drawn, swapped.draw[j] = state.draw[j], state.drawn
            variants.append(swapped)
    return variants


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6), st.integers(0, 200))
def test_views_are_identical_when_only_hidden_cards_differ(opts, seed, moves):
    rng = random.Random(seed)
    state = new_round(opts, seed)
    for _ in range(moves):
        if state.result is not None:
            break
        apply(state, rng.choice(legal_actions(state)), state.current)
    for seat in [None, *range(opts.players)]:
        seen = view(state, seat)
        for variant in _hidden_variants(state, seat):
            other = view(variant, seat)
            assert other.to_json() == seen.to_json()
            assert other.legal_actions() == seen.legal_actions()
        for owner, cells in enumerate(seen.grids):
            for p, cell in enumerate(cells):
                if state.cards[owner][p] is None:
                    assert cell is None
                elif state.up[owner][p]:
                    assert cell == state.cards[owner][p]
                else:
                    assert cell == HIDDEN
    if state.result is None:
        assert view(state, state.current).legal_actions() == legal_actions(state)


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_a_match_is_determined_by_its_options_seed_and_steps(opts, seed):
    first, second = Match(opts, seed), Match(opts, seed)
    steps = play_match(first, random.Random(seed))
    for step in steps:
        second.apply_step(step)
    assert to_record(first) == to_record(second)
    assert [e for r in replay(SKYJO, opts, str(seed), steps) for e in r.events] == [
        e for r in replay(SKYJO, opts, str(seed), steps) for e in r.events
    ]
    assert new_round(opts, f"{seed}/1").cards != new_round(opts, f"{seed + 1}/1").cards


@ENGINE_SETTINGS
@given(options(), st.integers(0, 10**6))
def test_facts_are_counted_from_the_replay(opts, seed):
    match = Match(opts, seed)
    steps = play_match(match, random.Random(seed))
    facts = SKYJO.analyse(opts, str(seed), steps)
    assert facts.winners == match.winners and facts.scores == match.scores
    assert sum(f.rounds_closed for f in facts.seats) == match.round_number
    assert sum(f.closer_doubled for f in facts.seats) == sum(
        log.result.doubled for log in match.rounds
    )
    for f in facts.seats:
        assert f.rounds == match.round_number and f.rounds_won + 1 >= 1
        assert f.points == match.scores[f.seat] and f.won == (f.seat in match.winners)
        assert f.best_round == min(log.result.points[f.seat] for log in match.rounds)
        assert f.turns >= match.round_number - 1
    assert sum(f.rounds_won for f in facts.seats) >= match.round_number


@ENGINE_SETTINGS
@given(st.sampled_from(_every_action()))
def test_actions_round_trip_through_their_json_and_a_timeout_only_from_a_table(action):
    data = json.loads(json.dumps(action_to_json(action)))
    assert action_from_json(data, allow_timeout=True) == action
    if action == TIMEOUT:
        with pytest.raises(NotationError):
            action_from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"type": "flip"},
        {"type": "draw", "column": 1},
        {"type": "take", "column": 0, "row": 1},
        {"type": "take", "column": 5, "row": 1},
        {"type": "reveal", "column": 1, "row": 4},
        {"type": "exchange", "column": True, "row": 1},
        {"type": "discard", "column": 1},
        {"type": "discard", "column": 1, "row": 1, "card": 5},
    ],
)
def test_malformed_actions_are_notation_errors(data):
    with pytest.raises(NotationError):
        action_from_json(data, allow_timeout=True)


@settings(ENGINE_SETTINGS, max_examples=30)
@given(options(), st.integers(0, 10**6))
def test_S2_3_long_rounds_reshuffle_the_discards_and_keep_every_card(opts, seed):
    """Players who mostly draw and swap face-up cards empty the draw pile again and again."""
    rng = random.Random(seed)
    state = new_round(opts, seed)
    reshuffles = 0
    for _ in range(MAX_STEPS):
        if state.result is not None:
            break
        seat = state.current
        legal = legal_actions(state)
        stalling = [
            a for a in legal if a == DRAW or (a.kind == "exchange" and state.up[seat][a.position])
        ]
        action = rng.choice(stalling if stalling and rng.random() < 0.97 else legal)
        events = apply(state, action, seat)
        if any(e.kind == "reshuffled" for e in events):
            reshuffles += 1
            conserved(state)
        assert state.discard, "the discard pile always shows a card"
    assert state.result is not None and reshuffles >= 1
    conserved(state)


@settings(ENGINE_SETTINGS, max_examples=40)
@given(options(), st.integers(0, 10**6))
def test_apply_fast_changes_a_round_exactly_as_apply_and_the_grids_shown_follow(opts, seed):
    """Simulations apply without events: the same state at every step, and what the views
    share (``State.shown``, ``State.reveals_left``) always what the cards and faces show."""
    rng = random.Random(seed)
    told, quiet = new_round(opts, seed), new_round(opts, seed)
    for _ in range(MAX_STEPS):
        if told.result is not None:
            break
        legal = legal_actions(told)
        action = TIMEOUT if rng.random() < 0.05 else rng.choice(legal)
        apply(told, action, told.current)
        apply_fast(quiet, action)
        assert snapshot(quiet) == snapshot(told)
        assert told.shown == [shown_cells(c, u) for c, u in zip(told.cards, told.up, strict=True)]
        assert told.reveals_left == tuple(2 - r for r in told.reveals)
    assert told.result is not None and quiet.result == told.result


@given(st.integers(0, 10**6), st.integers(0, 160))
@settings(ENGINE_SETTINGS, max_examples=200)
def test_the_engines_shuffle_draws_exactly_as_pythons(seed, size):
    """Records hold the deals of ``rules.shuffle``: it must equal ``random.shuffle``, the
    shuffle the earlier records were dealt with."""
    ours, theirs = list(range(size)), list(range(size))
    ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
    shuffle(ours_rng, ours)
    theirs_rng.shuffle(theirs)
    assert ours == theirs and ours_rng.getstate() == theirs_rng.getstate()
