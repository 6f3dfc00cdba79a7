"""Options: house rules are validated once, before a match starts (R2-R7)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given

from cardroom.games.skip import STOCK_PRESETS, Options, OptionsError

from .support import ENGINE_SETTINGS, options_strategy

INVALID: list[tuple[dict[str, Any], str]] = [
    ({"players": 0}, "a table seats 1 to 8 players, not 0 (R2.1)"),
    ({"players": 9}, "a table seats 1 to 8 players, not 9 (R2.1)"),
    ({"players": "3"}, "players must be a whole number"),
    ({"players": True}, "players must be a whole number"),
    ({"players": 3.0}, "players must be a whole number"),
    ({"players": 5, "teams": True}, "teams of two need 4, 6 or 8 players, not 5 (R2.3)"),
    ({"players": 2, "teams": True}, "teams of two need 4, 6 or 8 players, not 2 (R2.3)"),
    ({"players": 4, "team_discards": True}, "team discards only exist in team play (R4.4)"),
    ({"starter": "random"}, "starter is 'dealer_left' or 'highest_stock', not 'random'"),
    ({"direction": "left"}, "direction is 'clockwise' or 'counterclockwise', not 'left'"),
    ({"match_target": 100}, "match target is single round (null), 25, 200, 500 or 800, not 100"),
    ({"turn_timer": 4}, "the turn timer is off (null) or 5 to 3600 seconds (R7.3)"),
    ({"turn_timer": 3601}, "5 to 3600 seconds (R7.3)"),
    ({"turn_timer": "30"}, "5 to 3600 seconds (R7.3)"),
    ({"stock_size": 0}, "a stock holds at least 1 card, not 0 (R3.2)"),
    ({"stock_size": -5}, "a stock holds at least 1 card, not -5 (R3.2)"),
    ({"stock_size": "10"}, "a stock holds at least 1 card, not '10' (R3.2)"),
    ({"stock_size": True}, "a stock holds at least 1 card, not True (R3.2)"),
    ({"players": 8, "stock_size": 30}, "a stock of 30 for 8 players leaves 30 cards to draw"),
    ({"players": 2, "stock_size": 100}, "leaves 0 cards to draw from a deck of 162"),
]


@pytest.mark.parametrize(("changes", "words"), INVALID)
def test_invalid_option_combinations_are_refused_with_a_clear_message(
    changes: dict[str, Any], words: str
) -> None:
    with pytest.raises(OptionsError) as info:
        Options(**changes)
    assert words in str(info.value)


@pytest.mark.parametrize(("changes", "words"), INVALID)
def test_invalid_options_in_json_are_refused_too(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionsError) as info:
        Options.from_json(changes)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "options must be a JSON object"),
        ({"colour": "red", "speed": 2}, "unknown option(s): colour, speed"),
        ({"stock": "huge"}, "unknown stock preset 'huge'; choose one of short, low, medium, high"),
        ({"extra": {}}, "unknown option(s): extra"),
    ],
)
def test_options_json_refuses_unknown_options_and_presets(data: Any, words: str) -> None:
    with pytest.raises(OptionsError) as info:
        Options.from_json(data)
    assert words in str(info.value)


@pytest.mark.parametrize(("preset", "size"), sorted(STOCK_PRESETS.items()))
def test_from_json_accepts_stock_presets(preset: str, size: int) -> None:
    assert Options.from_json({"players": 3, "stock": preset}).stock_size == size
    assert Options.from_json({"players": 3, "stock": size}).stock_size == size
    assert Options.parse_pairs([f"stock={preset}"], players=3).stock_size == size


def test_stock_presets_are_low_medium_high_and_short() -> None:
    assert STOCK_PRESETS == {"short": 10, "low": 10, "medium": 20, "high": 30}


@pytest.mark.parametrize("single", ["single", 0, None])
def test_from_json_match_target_single_round(single: object) -> None:
    assert Options.from_json({"match_target": single}).match_target is None


def test_parse_pairs_reads_cli_key_value_options() -> None:
    options = Options.parse_pairs(
        [
            "stock=low",
            "extra-deck=yes",
            "team_discards=on",
            "starter=highest_stock",
            "direction=counterclockwise",
            "match-target=single",
            "no_wild_discards=true",
            "turn_timer=30",
            "assist=off",
        ],
        players=4,
        teams=True,
    )
    assert options == Options(
        players=4,
        teams=True,
        stock_size=10,
        extra_deck=True,
        team_discards=True,
        starter="highest_stock",
        direction="counterclockwise",
        match_target=None,
        no_wild_discards=True,
        turn_timer=30,
        assist=False,
    )
    assert Options.parse_pairs(["match_target=none", "stock=12"]).match_target is None
    assert Options.parse_pairs(["stock=12"]).stock == 12


@pytest.mark.parametrize(
    ("pairs", "words"),
    [
        (["stock"], "an option is written key=value, not 'stock'"),
        (["stock=huge"], "unknown stock preset 'huge'"),
        (["colour=red"], "unknown option(s): colour"),
        (["players=9"], "a table seats 1 to 8 players, not 9 (R2.1)"),
        (["teams=yes"], "teams of two need 4, 6 or 8 players, not 2 (R2.3)"),
        (["match_target=300"], "not 300 (R6.3)"),
    ],
)
def test_parse_pairs_refuses_bad_pairs(pairs: list[str], words: str) -> None:
    with pytest.raises(OptionsError) as info:
        Options.parse_pairs(pairs)
    assert words in str(info.value)


@ENGINE_SETTINGS
@given(options=options_strategy())
def test_options_json_round_trips(options: Options) -> None:
    assert Options.from_json(options.to_json()) == options
    assert set(options.to_json()) == {  # a set deal (a test's) only when there is one
        f.name for f in dataclasses.fields(Options) if f.name not in ("extra", "deal")
    }


def test_options_are_frozen_for_the_whole_match() -> None:
    options = Options(players=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.players = 3  # type: ignore[misc]
    assert options.replace(players=3).players == 3
    with pytest.raises(OptionsError):
        options.replace(players=3, teams=True)


def test_defaults_follow_the_official_rules() -> None:
    options = Options()
    assert (options.players, options.stock, options.deck_size) == (2, 30, 162)
    assert not (options.teams or options.extra_deck or options.team_discards)
    assert (options.starter, options.direction) == ("dealer_left", "clockwise")
    assert options.match_target == 500
    assert not options.no_wild_discards and not options.assist
    assert options.turn_timer is None
    assert options.ranked_standard


@pytest.mark.parametrize(
    "data",
    [
        {"players": 4, "teams": "false"},
        {"players": 2, "extra_deck": "no"},
        {"players": 2, "no_wild_discards": 1},
        {"players": 2, "assist": "off"},
    ],
)
def test_boolean_options_must_be_true_or_false(data: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        Options.from_json(data)


def test_match_target_must_be_a_whole_number() -> None:
    with pytest.raises(OptionsError):
        Options.from_json({"match_target": 25.0})
