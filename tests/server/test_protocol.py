"""Client messages are parsed strictly before any table sees them (docs/protocol.md).

The action inside a message is read by the table, which knows its game's notation
(``tests/tables``: a malformed action is refused there with ``bad_action``)."""

from __future__ import annotations

import pytest

from cardroom.games.skip import Event
from cardroom.games.skip import event_to_json as event_json
from cardroom.server.protocol import ActionRequest, Hello, ProtocolError, parse


def test_an_action_names_its_id_its_move_and_optionally_the_position_it_answers():
    message = parse(
        '{"type":"action","id":"a1","action":{"type":"play","from":"stock","to":2},"after":9}'
    )
    assert message == ActionRequest("a1", {"type": "play", "from": "stock", "to": 2}, 9)
    assert parse('{"type":"hello","token":"t"}') == Hello("t", None)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_message"),
        ("null", "bad_message"),
        ('{"type":"hello"}', "unauthorized"),
        ('{"type":"hello","token":"t","since":-1}', "bad_message"),
        ('{"type":"action","id":"a","action":[1]}', "bad_action"),
        ('{"type":"action","id":"a"}', "bad_action"),
        ('{"type":"action","id":"a","action":{"type":"pass"},"after":true}', "bad_message"),
        ('{"type":"action","id":"' + "x" * 65 + '","action":{"type":"pass"}}', "bad_message"),
        ('{"type":"action","id":"a","action":{"type":"pass"},"extra":1}', "bad_message"),
        ('{"type":"ping","id":[1]}', "bad_message"),
    ],
)
def test_malformed_messages_are_refused_with_a_code(text, code):
    with pytest.raises(ProtocolError) as refused:
        parse(text)
    assert refused.value.code == code and refused.value.message


def test_events_use_the_notation_piles_counted_from_one_and_wilds_as_w():
    event = Event("played", 1, {"source": "discard", "card": 0, "pile": 2, "to": 0, "value": 1})
    assert event_json(event) == {
        "kind": "played",
        "seat": 1,
        "detail": {"source": "discard", "card": "W", "pile": 3, "to": 1, "value": 1},
    }
    assert event_json(Event("round_over", -1, {"winners": [0]}))["seat"] is None
