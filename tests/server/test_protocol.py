"""Client messages are parsed strictly before any table sees them (docs/protocol.md).

The action inside a message is read by the table, which knows its game's notation
(``tests/tables``: a malformed action is refused there with ``bad_action``); what is not shaped
as any game's action is refused here already, naming the field."""

from __future__ import annotations

import pytest

from cardroom.games.skip import Event
from cardroom.games.skip import event_to_json as event_json
from cardroom.server.protocol import (
    MAX_DEPTH,
    ActionRequest,
    Hello,
    ProtocolError,
    ReadyRequest,
    TooDeep,
    action_id_of,
    check_depth,
    parse,
)


def test_an_action_names_its_id_its_move_and_optionally_the_position_it_answers():
    message = parse(
        '{"type":"action","id":"a1","action":{"type":"play","from":"stock","to":2},"after":9}'
    )
    assert message == ActionRequest("a1", {"type": "play", "from": "stock", "to": 2}, 9)
    assert parse('{"type":"hello","token":"t"}') == Hello("t", None)
    assert parse('{"type":"ready"}') == ReadyRequest()  # "Continue" after a round's summary


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_message"),
        ("null", "bad_message"),
        ('{"type":"hello"}', "unauthorized"),
        ('{"type":"hello","token":"t","since":-1}', "bad_message"),
        ('{"type":"action","id":"a","action":[1]}', "bad_message"),
        ('{"type":"action","id":"a"}', "bad_message"),
        ('{"type":"action","id":"a","action":{"type":"pass"},"after":true}', "bad_message"),
        ('{"type":"action","id":"' + "x" * 65 + '","action":{"type":"pass"}}', "bad_message"),
        ('{"type":"action","id":"a","action":{"type":"pass"},"extra":1}', "bad_message"),
        ('{"type":"ping","id":[1]}', "bad_message"),
        ('{"type":"ready","round":2}', "bad_message"),
    ],
)
def test_malformed_messages_are_refused_with_a_code(text, code):
    with pytest.raises(ProtocolError) as refused:
        parse(text)
    assert refused.value.code == code and refused.value.message


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ('{"type":{}}', "action.type"),
        ('{"type":[]}', "action.type"),
        ('{"type":null}', "action.type"),
        ("{}", "action.type"),
        ('{"type":"play","from":"hand","card":{"v":7},"to":1}', "action.card"),
        ('{"type":"reveal","column":[1],"row":1}', "action.column"),
        ("[1]", "action"),
        ('"pass"', "action"),
        ("null", "action"),
    ],
)
def test_an_action_not_shaped_as_one_is_a_bad_message_naming_the_field(action, field):
    with pytest.raises(ProtocolError) as refused:
        parse('{"type":"action","id":"u0","action":' + action + "}")
    assert (refused.value.code, refused.value.field) == ("bad_message", field)
    assert refused.value.action_id == "u0"


@pytest.mark.parametrize(
    "text",
    [
        "[" * 4000,
        "{" * (MAX_DEPTH + 1),
        '{"type":"ping","id":' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}",
        '{"type":"action","id":"a","action":{"type":"pass","x":' + "[{" * 9 + "}]" * 9 + "}}",
    ],
)
def test_a_message_nested_too_deep_is_refused_before_it_is_parsed(text):
    with pytest.raises(TooDeep) as refused:
        parse(text)
    assert refused.value.code == "too_deep" and str(MAX_DEPTH) in refused.value.message
    assert action_id_of(text) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"ping","id":"' + "[" * 100 + '"}',  # brackets inside strings do not count
        '{"type":"ping","id":"\\"}' + "]" * 40,  # an escaped backslash ends no string early
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        "[]" * 1000,
    ],
)
def test_brackets_in_strings_and_wide_messages_are_not_too_deep(text):
    check_depth(text)


def test_events_use_the_notation_piles_counted_from_one_and_wilds_as_w():
    event = Event("played", 1, {"source": "discard", "card": 0, "pile": 2, "to": 0, "value": 1})
    assert event_json(event) == {
        "kind": "played",
        "seat": 1,
        "detail": {"source": "discard", "card": "W", "pile": 3, "to": 1, "value": 1},
    }
    assert event_json(Event("round_over", -1, {"winners": [0]}))["seat"] is None
