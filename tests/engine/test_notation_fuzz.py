"""Whatever JSON a client sends as an action, both games' notation parsers answer with an
action or a ``NotationError``: never a ``TypeError`` (an object as a ``type`` is unhashable),
never anything else a socket would log as a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.base import NotationError
from cardroom.games.skip import notation as skip
from cardroom.games.skyjo import notation as skyjo

PARSERS = {"skip": skip.action_from_json, "skyjo": skyjo.action_from_json}
KEYS = ["type", "from", "card", "pile", "to", "partner", "column", "row"]
TYPES = ["play", "discard", "pass", "timeout", "reveal", "take", "draw", "exchange"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 14)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from([*TYPES, "hand", "stock", "discard", "partner_discard", "W"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# Objects shaped like actions (their keys are the notation's) with any values, and any JSON.
actions = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5),
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES) | json_values},
        optional={key: scalars | json_values for key in KEYS[1:]},
    ),
)


def _parse(game: str, data: Any, allow_timeout: bool) -> None:
    try:
        PARSERS[game](data, allow_timeout=allow_timeout)
    except NotationError as error:
        assert str(error)  # says what is wrong


@pytest.mark.parametrize("game", sorted(PARSERS))
@settings(max_examples=400, deadline=None, derandomize=True)
@given(data=actions, allow_timeout=st.booleans())
def test_any_json_is_an_action_or_a_notation_error(game: str, data: Any, allow_timeout: bool):
    _parse(game, data, allow_timeout)


@pytest.mark.parametrize("game", sorted(PARSERS))
@pytest.mark.parametrize(
    "data",
    [
        {"type": {}},
        {"type": []},
        {"type": [1, 2]},
        {"type": None},
        {"type": 1},
        {"type": True},
        {"type": "play", "from": {}, "to": 1},
        {"type": "play", "from": ["hand"], "to": 1},
        {"type": "play", "from": "hand", "card": {}, "to": 1},
        {"type": "discard", "card": [7], "pile": {}},
        {"type": "reveal", "column": {}, "row": []},
        {"type": "reveal", "column": 1.0, "row": 1},
        {"type": "x" * 5000},
    ],
)
def test_the_reported_malformed_actions_are_notation_errors(game: str, data: Any):
    with pytest.raises(NotationError) as refused:
        PARSERS[game](data)
    assert len(str(refused.value)) < 200  # a client's junk is not echoed whole
