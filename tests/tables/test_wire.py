"""Messages encoded once: the shared text with each copy's own fields spliced in is the JSON a
socket would have got from the whole message, and every receiver's copy shares one text."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from cardroom.tables import commands as c
from cardroom.tables.effects import Send
from cardroom.tables.wire import Personal, as_dict, encode, text_of

from .harness import ADA, BEA, EVE, Room, play_legal

plain = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
values = st.recursive(
    plain, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner)
)
objects = st.dictionaries(st.text(max_size=6), values, max_size=5)


@given(objects, objects)
def test_a_personal_copy_is_the_whole_message_as_json(shared: dict, own: dict) -> None:
    shared = {k: v for k, v in shared.items() if k not in own}
    copy = Personal(encode(shared), own)
    assert json.loads(copy.text()) == {**shared, **own}
    assert as_dict(copy) == {**shared, **own}
    assert json.loads(text_of({**shared, **own})) == {**shared, **own}


def test_every_socket_gets_its_own_view_in_a_copy_of_one_shared_text() -> None:
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.connect(EVE)
    room.connect(ADA, "ws-ada-2")
    room.do(c.Start(ADA))
    room.effects.clear()
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(2), limit=1)
    sends = [e for e in room.effects if isinstance(e, Send) and isinstance(e.message, Personal)]
    first = sends[0].message.shared
    copies = [e for e in sends if e.message.shared == first]
    assert {e.conn for e in copies} == {"ws-ada", "ws-ada-2", "ws-bea", "ws-eve"}
    ada = [e.message for e in copies if e.conn.startswith("ws-ada")]
    assert ada[0] is ada[1]  # one player's two sockets: one copy, encoded once by the actor
    seats = {e.conn: as_dict(e.message)["view"]["seat"] for e in copies}
    assert seats == {"ws-ada": 0, "ws-ada-2": 0, "ws-bea": 1, "ws-eve": None}
    assert "legal" not in as_dict(next(e.message for e in copies if e.conn == "ws-eve"))
