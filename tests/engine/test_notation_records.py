"""The JSON notation of actions and game records (docs/notation.md, R7.1, R7.5)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.games.skip import (
    PASS,
    TIMEOUT,
    WILD,
    Action,
    Match,
    NotationError,
    Options,
    ReplayError,
    action_from_json,
    action_to_json,
    replay,
    to_record,
)
from cardroom.games.skip.actions import (
    discard,
    play_discard,
    play_hand,
    play_partner_discard,
    play_partner_stock,
    play_stock,
)
from cardroom.games.skip.match import draw_for_dealer
from cardroom.games.skip.record_schema import check_shape
from cardroom.sim.play import play_match

from .support import finish_match_round

# -- Actions -------------------------------------------------------------------------------------


def _every_action() -> list[Action]:
    actions = [play_hand(card, to) for card in (WILD, *range(1, 13)) for to in range(4)]
    for to in range(4):
        actions += [play_stock(to), play_partner_stock(to)]
        actions += [play_discard(pile, to) for pile in range(4)]
        actions += [play_partner_discard(pile, to) for pile in range(4)]
    for card in (WILD, *range(1, 13)):
        for pile in range(4):
            actions += [discard(card, pile), discard(card, pile, partner=True)]
    return [*actions, PASS, TIMEOUT]


@pytest.mark.parametrize(
    "kind", ["hand", "stock", "discard", "partner_stock", "partner_discard", "discard", "pass"]
)
def test_notation_round_trips_every_action_kind(kind: str) -> None:
    actions = [a for a in _every_action() if a.source == kind or a.kind == kind]
    assert actions
    for action in actions:
        text = json.dumps(action_to_json(action))
        assert action_from_json(json.loads(text)) == action, text


def test_notation_round_trips_all_actions_including_timeout() -> None:
    actions = _every_action()
    assert len(set(actions)) == len(actions) == 52 + 4 * 10 + 104 + 2
    for action in actions:
        data = json.loads(json.dumps(action_to_json(action)))
        assert action_from_json(data, allow_timeout=True) == action


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (play_hand(WILD, 0), {"type": "play", "from": "hand", "card": "W", "to": 1}),
        (play_hand(7, 3), {"type": "play", "from": "hand", "card": 7, "to": 4}),
        (play_stock(1), {"type": "play", "from": "stock", "to": 2}),
        (play_discard(2, 0), {"type": "play", "from": "discard", "pile": 3, "to": 1}),
        (play_partner_stock(0), {"type": "play", "from": "partner_stock", "to": 1}),
        (
            play_partner_discard(0, 0),
            {"type": "play", "from": "partner_discard", "pile": 1, "to": 1},
        ),
        (discard(WILD, 1), {"type": "discard", "card": "W", "pile": 2}),
        (discard(5, 1, partner=True), {"type": "discard", "card": 5, "pile": 2, "partner": True}),
        (PASS, {"type": "pass"}),
        (TIMEOUT, {"type": "timeout"}),
    ],
)
def test_notation_numbers_piles_from_1_as_people_count(action: Action, data: dict) -> None:
    assert action_to_json(action) == data
    assert action_from_json(data, allow_timeout=True) == action


MALFORMED: list[tuple[Any, str]] = [
    (None, "an action is a JSON object with a 'type'"),
    ([], "an action is a JSON object with a 'type'"),
    ("pass", "an action is a JSON object with a 'type'"),
    ({}, "unknown action type None; expected play, discard or pass"),
    ({"type": "draw"}, "unknown action type 'draw'; expected play, discard or pass"),
    ({"type": "timeout"}, "unknown action type 'timeout'"),
    ({"type": "pass", "card": 3}, "unexpected field(s) for pass: card"),
    ({"type": "discard", "card": 5, "pile": 1, "to": 2}, "unexpected field(s) for discard: to"),
    ({"type": "play", "from": "hand", "card": 5, "to": 1, "x": 1}, "for play: x"),
    ({"type": "discard", "card": 13, "pile": 1}, 'a card is a number 1-12 or "W" for a wild'),
    ({"type": "discard", "card": 0, "pile": 1}, "not 0"),
    ({"type": "discard", "card": "7", "pile": 1}, "not '7'"),
    ({"type": "discard", "card": 5}, "'pile' must be a discard pile number 1-4, not None"),
    ({"type": "discard", "card": 5, "pile": 0}, "'pile' must be a discard pile number 1-4, not 0"),
    ({"type": "discard", "card": 5, "pile": 5}, "number 1-4, not 5"),
    ({"type": "discard", "card": 5, "pile": "1"}, "number 1-4, not '1'"),
    ({"type": "discard", "card": 5, "pile": True}, "number 1-4, not True"),
    ({"type": "discard", "card": 5, "pile": 1, "partner": "yes"}, "'partner' must be true or"),
    ({"type": "play", "from": "deck", "to": 1}, "'from' must be one of hand, stock, discard"),
    ({"type": "play", "to": 1}, "'from' must be one of"),
    ({"type": "play", "from": "hand", "to": 1}, 'a card is a number 1-12 or "W"'),
    ({"type": "play", "from": "hand", "card": 5}, "'to' must be a building pile number 1-4"),
    ({"type": "play", "from": "hand", "card": 5, "to": 0}, "building pile number 1-4, not 0"),
    ({"type": "play", "from": "stock", "to": 5}, "building pile number 1-4, not 5"),
    ({"type": "play", "from": "stock", "card": 5, "to": 1}, "a play from stock takes no card"),
    ({"type": "play", "from": "partner_stock", "pile": 1, "to": 1}, "takes no pile"),
    ({"type": "play", "from": "discard", "to": 1}, "'pile' must be a discard pile number"),
    ({"type": "play", "from": "partner_discard", "pile": 9, "to": 1}, "not 9"),
]


@pytest.mark.parametrize(("data", "words"), MALFORMED)
def test_notation_malformed_actions_get_a_clear_notation_error(data: Any, words: str) -> None:
    with pytest.raises(NotationError) as info:
        action_from_json(data)
    assert words in str(info.value)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "from": "hand", "card": 5, "pile": 2, "to": 1},
        {"type": "play", "from": "discard", "card": 5, "pile": 2, "to": 1},
    ],
)
def test_notation_fields_a_play_does_not_take_are_refused(data: dict) -> None:
    with pytest.raises(NotationError):
        action_from_json(data)


# -- Records (R7.5) ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A finished 3-player match with per-move checks, as ``cardroom simulate --records``."""
    options = Options(players=3, stock_size=3, match_target=200)
    bots = [make_bot(name, seat) for seat, name in enumerate(["greedy", "random", "greedy"])]
    match = play_match(options, "records", bots, fingerprints=True)
    assert match.over and len(match.rounds) > 1
    return json.loads(json.dumps(to_record(match)))


@pytest.fixture
def edited(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def _refused(record: dict[str, Any]) -> str:
    with pytest.raises(ReplayError) as info:
        replay(record)
    return str(info.value)


def _first(record: dict[str, Any], kind: str, start: int = 2) -> tuple[int, dict[str, Any]]:
    moves = record["rounds"][0]["moves"]
    index = next(i for i in range(start, len(moves)) if moves[i]["action"]["type"] == kind)
    return index, moves[index]


def test_R7_5_record_replays(record: dict[str, Any]) -> None:
    match = replay(record)
    assert match.scores == record["result"]["scores"]
    assert list(match.winners or ()) == record["result"]["winners"]
    assert to_record(match, record["seats"]) == record


def test_R7_5_replay_refuses_a_changed_card(edited: dict[str, Any]) -> None:
    index, move = _first(edited, "discard")
    move["action"]["card"] = 13
    message = _refused(edited)
    assert message.startswith(f"round 1, move {index + 1}: malformed action: a card is a number")


def test_R7_5_replay_refuses_a_card_the_player_does_not_hold(edited: dict[str, Any]) -> None:
    match = Match(Options.from_json(edited["options"]), edited["seed"])
    index, move = _first(edited, "discard", start=0)
    for earlier in edited["rounds"][0]["moves"][:index]:
        match.apply(action_from_json(earlier["action"]), earlier["seat"])
    hand = match.state.hands[move["seat"]]
    missing = next(c for c in range(1, 13) if c not in hand)
    move["action"]["card"] = missing
    message = _refused(edited)
    assert f"round 1, move {index + 1} (seat {move['seat']}, discard {missing}" in message
    assert message.endswith(f"is illegal: you hold no {missing} to discard (R4.4)")


def test_R7_5_replay_refuses_a_move_whose_position_was_altered(edited: dict[str, Any]) -> None:
    index, move = _first(edited, "discard")
    move["action"]["pile"] = move["action"]["pile"] % 4 + 1  # still legal, but another pile
    message = _refused(edited)
    assert message.startswith(f"round 1, move {index + 1} (seat {move['seat']}, discard")
    assert message.endswith("was altered: the position after it differs from the one recorded")


def test_R7_5_replay_refuses_a_removed_move(edited: dict[str, Any]) -> None:
    index, _ = _first(edited, "discard")
    del edited["rounds"][0]["moves"][index]
    message = _refused(edited)
    assert message.startswith(f"round 1, move {index + 1} ")
    assert "'s turn; seat " in message or "was altered" in message


def test_R7_5_replay_refuses_a_changed_seat(edited: dict[str, Any]) -> None:
    move = edited["rounds"][0]["moves"][2]
    right = move["seat"]
    move["seat"] = (right + 1) % 3
    message = _refused(edited)
    wrong = (right + 1) % 3
    # seats are counted from 0, as the record counts them
    assert message.startswith(f"round 1, move 3 (seat {wrong}, ")
    assert message.endswith(
        f"is illegal: it is not seat {wrong}'s turn; seat {right} is to play (R7.1)"
    )


def test_R7_5_replay_refuses_a_changed_seed(edited: dict[str, Any]) -> None:
    edited["seed"] = "another seed"
    message = _refused(edited)
    assert "dealt first" in message or message.startswith("round 1, move ")


def test_R7_5_replay_refuses_a_changed_seed_with_a_matching_first_dealer(
    edited: dict[str, Any],
) -> None:
    dealer = edited["first_dealer"]
    edited["seed"] = next(
        seed
        for seed in (f"another seed {n}" for n in range(100))
        if draw_for_dealer(3, seed) == dealer
    )
    message = _refused(edited)
    assert message.startswith("round 1, move 1 (seat ")
    assert "is illegal" in message or "was altered" in message


def test_R7_5_replay_refuses_a_changed_first_dealer(edited: dict[str, Any]) -> None:
    edited["first_dealer"] = (edited["first_dealer"] + 1) % 3
    message = _refused(edited)
    assert "the seed makes seat" in message and "the first dealer" in message


def test_R7_5_replay_refuses_changed_scores_and_results(edited: dict[str, Any]) -> None:
    scores = copy.deepcopy(edited)
    scores["result"]["scores"][0] += 5
    assert "the record's scores" in _refused(scores)
    winners = copy.deepcopy(edited)
    other = next(seat for seat in range(3) if [seat] != winners["result"]["winners"])
    winners["result"]["winners"] = [other]
    assert f"the record's winners [{other}] differ" in _refused(winners)
    result = copy.deepcopy(edited)
    result["rounds"][0]["result"]["points"] = [0, 0, 0]
    message = _refused(result)
    assert message.startswith("round 1: the record says won by seat ")
    assert message.endswith("(R6.2, R7.5)")


def test_R6_1_R7_5_replay_names_a_dropped_winning_move(edited: dict[str, Any]) -> None:
    """A record cut short of the move that ended a round says which rule the result needs."""
    last = len(edited["rounds"]) - 1
    moves = edited["rounds"][last]["moves"]
    del moves[-1]
    message = _refused(edited)
    assert message.startswith(f"round {last + 1}: the record says the round ended (won by seat ")
    assert f"after its {len(moves)} recorded moves the round is still being played" in message
    assert message.endswith("the move that ends it is missing (R6.1, R7.5)")
    assert "None" not in message


def test_R6_1_R7_5_replay_refuses_a_move_after_the_end_of_a_round(
    edited: dict[str, Any],
) -> None:
    moves = edited["rounds"][0]["moves"]
    moves.append(copy.deepcopy(moves[-1]))
    message = _refused(edited)
    assert message.startswith(f"round 1, move {len(moves)} (seat ")
    assert message.endswith("comes after the end of the round (R6.1)")


def test_R7_5_replay_refuses_changed_options(edited: dict[str, Any]) -> None:
    edited["options"]["stock_size"] = 4
    assert _refused(edited).startswith("round 1, ")
    bad = copy.deepcopy(edited)
    bad["options"]["players"] = 9
    assert _refused(bad).startswith("bad options: a table seats 1 to 8 players")


def test_R7_5_replay_refuses_an_extra_round(edited: dict[str, Any]) -> None:
    edited["rounds"].append(copy.deepcopy(edited["rounds"][-1]))
    last = len(edited["rounds"]) - 1
    assert _refused(edited) == (
        f"round {last + 1} is recorded, but the match was over after round {last}"
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "pgn"}, "not a Cardroom game record"),
        ({"version": 3}, "record version 3 is not supported"),
        ({"version": 1}, "record version 1 is not supported: it was played under earlier rules"),
        ({"game": "rummy"}, "this replays Skip records, not 'rummy'"),
        ({"rounds": []}, "the record has no rounds"),
    ],
)
def test_R7_5_replay_refuses_what_is_not_a_skip_record(
    edited: dict[str, Any], change: dict[str, Any], words: str
) -> None:
    edited.update(change)
    assert words in _refused(edited)


def test_R7_5_an_unfinished_match_replays() -> None:
    match = Match(Options(players=2, stock_size=5), seed=6, fingerprints=True)
    bots = [make_bot("greedy", 0), make_bot("random", 1)]
    finish_match_round(match, bots)
    record = json.loads(json.dumps(to_record(match)))
    again = replay(record)
    assert again.scores == match.scores
    assert again.state.fingerprint() == match.state.fingerprint()


def test_R7_5_records_of_a_round_played_solo_after_teams_replay() -> None:
    """R2.5 in a record: a round's ``teams`` false replays solo."""
    options = Options(players=4, teams=True, stock_size=2, match_target=800)
    match = Match(options, seed=12, fingerprints=True)
    bots = [make_bot("greedy", s) for s in range(4)]
    finish_match_round(match, bots)
    match.fall_back_to_solo()
    match.next_round()
    finish_match_round(match, bots)
    record = json.loads(json.dumps(to_record(match)))
    assert [r["teams"] for r in record["rounds"]] == [True, False]
    again = replay(record)
    assert again.state.partners is None
    assert again.scores == match.scores


def test_R7_5_replay_refuses_a_move_without_a_seat(edited: dict[str, Any]) -> None:
    del edited["rounds"][0]["moves"][3]["seat"]
    assert "seat" in _refused(edited)


def test_R7_5_replay_of_an_altered_move_without_a_seat_is_a_replay_error(
    edited: dict[str, Any],
) -> None:
    _, move = _first(edited, "discard")
    del move["seat"]
    move["action"]["pile"] = move["action"]["pile"] % 4 + 1
    _refused(edited)


@pytest.fixture(scope="module")
def team_record() -> dict[str, Any]:
    options = Options(players=4, teams=True, stock_size=2, match_target=200)
    match = play_match(options, "t", [make_bot("greedy", s) for s in range(4)], fingerprints=True)
    return json.loads(json.dumps(to_record(match)))


@pytest.mark.parametrize(("field", "value"), [("teams", False), ("number", 7)])
def test_R7_5_replay_refuses_an_edited_round_header(
    team_record: dict[str, Any], field: str, value: object
) -> None:
    edited = copy.deepcopy(team_record)
    edited["rounds"][0][field] = value
    assert "round 1" in _refused(edited)


def test_R7_5_every_record_the_engine_writes_fits_the_record_schema() -> None:
    for players, teams in ((2, False), (3, False), (4, True)):
        options = Options(players=players, teams=teams, stock_size=4, match_target=200)
        bots = [make_bot("greedy", f"schema/{s}") for s in range(players)]
        record = to_record(play_match(options, f"schema-{players}", bots, fingerprints=True))
        assert check_shape(record) is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.update(result=None), "$.result"),
        (lambda r: r["rounds"][0].update(moves=None), "$.rounds[0].moves"),
        (lambda r: r.update(rounds=[1]), "$.rounds[0]"),
        (lambda r: r.update(first_dealer="x"), "$.first_dealer"),
        (lambda r: r.pop("seed"), "seed"),
        (lambda r: r["rounds"][0]["moves"][0].update(seat=True), "$.rounds[0].moves[0].seat"),
    ],
)
def test_R7_5_a_malformed_record_is_refused_naming_the_field(change, field) -> None:
    options = Options(players=2, stock_size=4, match_target=None)
    match = play_match(options, "schema", [make_bot("greedy", f"s/{i}") for i in range(2)])
    record = to_record(match)
    change(record)
    with pytest.raises(ReplayError) as refused:
        replay(record)
    assert "malformed" in str(refused.value) and field in str(refused.value)
