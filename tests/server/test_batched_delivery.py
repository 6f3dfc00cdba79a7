"""A socket that says ``"batch": true`` in its hello takes what one command tells it as one
frame: the same messages, in the same order, each event with a view of null but the last one,
which carries the seat's view and legal list from the position after them all
(docs/protocol.md §4). A real table actor with quick bots, a plain socket beside it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import Person, play_until_over

from cardroom.server.protocol import Hello, ProtocolError, parse
from cardroom.tables.delivery import deliver
from cardroom.tables.effects import Send, Write
from cardroom.tables.wire import Batch, Deferred, Personal, text_of
from tests.server.test_quick_replies import ADA, KeepingJournal, Socket, play_against


def _unpacked(got: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for stored, frame in got:
        messages = frame["messages"] if frame["type"] == "batch" else [frame]
        out.extend((stored, message) for message in messages)
    return out


def test_a_batching_socket_gets_the_same_news_in_fewer_frames_with_one_view_each():
    batching = Socket(ADA, KeepingJournal(), batch=True)
    journal, plain = asyncio.run(play_against(bots=2, batching=batching))
    told = _unpacked(batching.got)
    frames = [frame for _, frame in batching.got]
    assert max(journal.writes) > 1 and len(frames) < len(plain.got)  # replies came with moves
    assert any(frame["type"] == "batch" for frame in frames)

    # The same messages, in order, with the same events and acks.
    def public(message: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in message.items() if k not in ("view", "legal")}

    def events(got: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
        return [public(m) for _, m in got if m["type"] == "event"]

    assert events(told) == events(plain.got) and len(events(told)) > 10

    by_seq = {m["seq"]: m for _, m in plain.got if m["type"] == "event"}
    for stored, frame in batching.got:
        messages = frame["messages"] if frame["type"] == "batch" else [frame]
        events = [m for m in messages if m["type"] == "event"]
        for message in events[:-1]:
            assert message["view"] is None and "legal" not in message
        if events:  # the last event carries what the plain socket saw after the same event
            last = events[-1]
            assert last["view"] == by_seq[last["seq"]]["view"]
            assert last.get("legal") == by_seq[last["seq"]].get("legal")
        for message in events:
            if message.get("move") is not None:
                assert message["move"] <= stored  # nothing told before it is stored


def test_deliver_makes_one_frame_where_the_last_message_was_and_leaves_others_alone():
    rendered: list[int | None] = []

    def render(seat: int | None) -> dict[str, Any]:
        rendered.append(seat)
        return {"view": {"seat": seat}, "legal": []}

    effects = [
        Write(()),
        Send("b", Deferred('{"type":"event","seq":1}', 0, "a-1")),
        Send("p", {"type": "event", "seq": 1}),
        Send("b", {"type": "table", "seq": 2}),
        Write((), wait=False),
        Send("b", Deferred('{"type":"event","seq":3}', 0, None)),
        Send("b2", Deferred('{"type":"event","seq":3}', 0, None)),
    ]
    out = deliver(effects, {"b", "b2"}, render)
    assert out[:3] == [Write(()), Send("p", {"type": "event", "seq": 1}), Write((), wait=False)]
    frame = out[3].message
    assert out[3].conn == "b" and isinstance(frame, Batch)
    assert text_of(frame) == (
        '{"type":"batch","messages":[{"type":"event","seq":1,"view":null,"ack":"a-1"},'
        '{"type":"table","seq":2},{"type":"event","seq":3,"view":{"seat":0},"legal":[]}]}'
    )
    alone = out[4]  # a single message is sent as itself, not wrapped
    assert alone.conn == "b2" and isinstance(alone.message, Personal)
    assert rendered == [0]  # rendered once for the seat, however many sockets
    assert deliver(effects[:1], set(), render) == effects[:1]


def test_a_deferred_event_is_never_sent_as_it_is():
    with pytest.raises(TypeError):
        text_of(Deferred("{}", 0, None))


def test_hello_says_batch_as_true_or_false_only():
    assert parse('{"type":"hello","token":"t","batch":true}') == Hello("t", None, True)
    assert parse('{"type":"hello","token":"t"}') == Hello("t", None, False)
    with pytest.raises(ProtocolError) as refused:
        parse('{"type":"hello","token":"t","batch":"yes"}')
    assert refused.value.code == "bad_message"


async def test_a_program_saying_batch_plays_a_whole_match_over_a_real_server(server):
    """A real ``cardroom`` server with quick bots (no bot delay): the player's socket says
    ``batch``, plays to the end from the view of each frame's last event, and receives the
    bots' replies with its own moves, in fewer frames than messages."""
    ada = await Person(server, "Ada").register()
    # Ada plays first (a set deal): the bots cannot win before her first move (its ack).
    options = {"stock_size": 8, "match_target": None, "deal": {"first": 0}}
    created = await ada.post("/api/tables", {"seats": 3, "options": options}, expect=201)
    table = created["table"]["id"]
    for _ in range(2):
        await ada.post(f"/api/tables/{table}/bots", {"level": "easy"})
    await ada.connect(table, batch=True)
    await ada.post(f"/api/tables/{table}/start")
    over = await play_until_over(ada)
    assert any(e["kind"] == "match_over" for e in over["events"])
    assert "batch" in ada.frames and len(ada.frames) < len(ada.messages)
    events = [m for m in ada.messages if m["type"] == "event"]
    seqs = [m["seq"] for m in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    acked = [m for m in events if m.get("ack")]
    assert acked and all(m["view"] is not None or "legal" not in m for m in events)
    await ada.close()
