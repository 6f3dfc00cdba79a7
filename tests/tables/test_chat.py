"""Table chat: lines to everyone at the table, with limits (length, rate, no control
characters), kept for those who arrive later; not part of the game (no seq, nothing stored)."""

from __future__ import annotations

from cardroom.tables import commands as c

from .harness import ADA, BEA, EVE, PACE, Room


def chat(room: Room, conn: str) -> list[dict]:
    return [m for m in room.sent.get(conn, []) if m["type"] == "chat"]


def errors(room: Room, conn: str) -> list[dict]:
    return [m for m in room.sent.get(conn, []) if m["type"] == "error"]


def test_a_line_reaches_everyone_at_the_table_as_text_and_takes_no_seq():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    watcher = room.connect(EVE)
    seq, rows = room.master.seq, len(room.rows)
    room.do(c.Chat("ws-ada", "  <b>good   luck</b>  "))
    for conn in ("ws-ada", "ws-bea", watcher):
        line = chat(room, conn)[-1]
        assert line == {
            "type": "chat",
            "from": ADA.to_json(),
            "seat": 0,
            "text": "<b>good luck</b>",
        }
    assert room.master.seq == seq and len(room.rows) == rows  # not part of the game
    room.do(c.Chat(watcher, "nice move"))  # watchers may talk too
    assert chat(room, "ws-ada")[-1]["seat"] is None


def test_lines_are_one_to_two_hundred_characters_without_control_characters():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    for text in ("", "   ", "x" * (PACE.chat_length + 1), "bell\x07", "a\u202eb"):
        room.do(c.Chat("ws-ada", text))
        assert errors(room, "ws-ada")[-1]["code"] == "bad_message"
    assert chat(room, "ws-bea") == []
    room.do(c.Chat("ws-ada", "x" * PACE.chat_length))
    assert len(chat(room, "ws-bea")) == 1


def test_a_burst_of_lines_then_one_every_few_seconds():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    for n in range(PACE.chat_burst):
        room.do(c.Chat("ws-ada", f"line {n}"))
    room.do(c.Chat("ws-ada", "one too many"))
    refused = errors(room, "ws-ada")[-1]
    assert refused["code"] == "rate_limited" and "again in" in refused["message"]
    assert [m["text"] for m in chat(room, "ws-bea")][-1] == f"line {PACE.chat_burst - 1}"
    room.do(c.Chat("ws-bea", "Bea has her own allowance"))
    assert chat(room, "ws-ada")[-1]["text"] == "Bea has her own allowance"
    room.advance(PACE.chat_every)
    room.do(c.Chat("ws-ada", "again"))
    assert chat(room, "ws-bea")[-1]["text"] == "again"


def test_someone_arriving_is_told_the_last_lines():
    room = Room.open(seats=2)
    room.sit(ADA)
    for n in range(3):
        room.do(c.Chat("ws-ada", f"hello {n}"))
    late = room.connect(BEA)
    told = chat(room, late)
    assert [m["text"] for m in told] == ["hello 0", "hello 1", "hello 2"]
    assert all(m["replayed"] for m in told)
