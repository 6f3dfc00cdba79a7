"""Skyjo behind the Game contract: registry, options, notation, events and records."""

from __future__ import annotations

import copy
import json
import random

import pytest

from cardroom.games import GAMES, get_game
from cardroom.games.base import Event, OptionsError, ReplayError
from cardroom.games.skyjo import SKYJO, Match, Options, replay, to_record
from cardroom.games.skyjo.actions import take
from cardroom.games.skyjo.facts import steps_of_record


def finished_match(seed: int = 3, players: int = 3) -> Match:
    match = Match(Options(players=players, end_score=30), seed, fingerprints=True)
    rng = random.Random(seed)
    while not match.over:
        if match.between_rounds:
            match.next_round()
            continue
        seat = match.current
        match.apply(rng.choice(match.view(seat).legal_actions()), seat)
    return match


def test_skyjo_is_registered_next_to_skip():
    assert get_game("skyjo") is SKYJO and set(GAMES) >= {"skip", "skyjo"}
    assert (SKYJO.min_players, SKYJO.max_players) == (2, 8)


def test_presets_are_valid_options_and_only_the_standard_ones_are_ranked():
    presets = SKYJO.preset_options()
    assert next(iter(presets)) == "standard"
    for name, changes in presets.items():
        options = SKYJO.options_from_json({**changes, "players": 3})
        assert SKYJO.is_ranked(options) == (name == "standard")
    timed = SKYJO.options_from_json({"players": 2, "turn_timer": 30})
    assert SKYJO.is_ranked(timed) and SKYJO.rating_mode(timed) == "2p"
    assert SKYJO.rating_mode(Options(players=5)) == "3p+"


def test_options_round_trip_and_refuse_what_cannot_make_a_game():
    options = Options(players=4, end_score=150, column_removal=False, turn_timer=60)
    assert SKYJO.options_from_json(json.loads(json.dumps(options.to_json()))) == options
    for bad in (
        {"players": 2, "stock": 5},
        {"players": 2, "column_removal": "yes"},
        {"players": 2, "closer_doubling": 1},
        {"players": 2, "turn_timer": 4},
        {"players": 2, "turn_timer": 3601},
        {"players": 2, "turn_timer": True},
    ):
        with pytest.raises(OptionsError):
            SKYJO.options_from_json(bad)
    with pytest.raises(OptionsError):
        SKYJO.options_from_json([])  # type: ignore[arg-type]


def test_events_in_wire_form_count_columns_and_rows_from_one():
    took = SKYJO.event_json(Event("took", 1, {"position": 5, "card": -2, "replaced": 7}))
    assert took == {
        "kind": "took",
        "seat": 1,
        "detail": {"column": 2, "row": 3, "card": -2, "replaced": 7},
    }
    removed = SKYJO.event_json(Event("column_removed", 0, {"column": 3, "card": 4}))
    assert removed["detail"] == {"column": 4, "card": 4}
    grid = tuple(range(12))
    shown = SKYJO.event_json(Event("turned_up", 0, {"grid": grid}))["detail"]["grid"]
    assert shown == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    assert SKYJO.event_json(Event("round_over", -1, {}))["seat"] is None
    assert SKYJO.action_to_json(take(5)) == {"type": "take", "column": 2, "row": 3}


def test_a_record_replays_and_says_which_move_was_altered():
    match = finished_match()
    record = json.loads(json.dumps(to_record(match)))
    assert record["format"] == "cardroom-record" and record["game"] == "skyjo"
    assert replay(record).scores == match.scores
    # Another legal action in place of the first reveal: legal, but not the recorded position.
    altered = copy.deepcopy(record)
    first = altered["rounds"][0]["moves"][0]
    first["action"] = {"type": "reveal", "column": 4, "row": 3}
    if first["action"] == record["rounds"][0]["moves"][0]["action"]:
        first["action"] = {"type": "reveal", "column": 4, "row": 2}
    with pytest.raises(ReplayError, match=r"round 1, move 1 .* was altered"):
        replay(altered)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(game="skip"), "not 'skip'"),
        (lambda r: r.update(version=99), "version 99"),
        (lambda r: r["rounds"][0]["moves"][0].update(seat="one"), "seat"),
        (lambda r: r["rounds"][0]["moves"][0].update(seat=1), "seat 0 is to play"),
        (lambda r: r["result"].update(scores=[0, 0, 0]), "scores"),
        (lambda r: r["rounds"][0].update(result=None), "result"),
        (lambda r: r["rounds"][0]["moves"].pop(), "result"),
        (lambda r: r["rounds"][-1]["moves"].append(r["rounds"][-1]["moves"][-1]), "after the end"),
        (lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][-1])), "round"),
    ],
)
def test_replay_refuses_a_record_that_does_not_replay(change, words):
    record = json.loads(json.dumps(to_record(finished_match(seed=5))))
    change(record)
    with pytest.raises(ReplayError, match=words):
        replay(record)


def test_a_record_from_the_steps_is_the_record_of_the_match():
    match = finished_match(seed=9, players=2)
    record = to_record(match)
    steps = list(steps_of_record(record))
    assert SKYJO.record(match.options, match.seed, steps) == record
    facts = SKYJO.analyse(match.options, match.seed, steps, ranked=True)
    assert facts.mode == "2p" and all(f.ranked for f in facts.seats)
