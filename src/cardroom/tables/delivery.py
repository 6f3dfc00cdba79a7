"""What one command tells a socket that asked for it in one frame (``batch`` in its hello).

A move at a table where bots answer at once (no bot delay) is told as several ``event``
messages: the move, then each bot's reply. A client that plays or watches programmatically
needs only the events of all but the last, and its own view and legal list after the last: one
frame, one view rendered, instead of one of each per move. Everyone else is told as before.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from cardroom.tables.effects import Effect, Send
from cardroom.tables.wire import Batch, Deferred, Message, Personal

Render = Callable[["int | None"], dict[str, Any]]
"""seat -> its own fields with an event (its view and legal list), rendered from the position
now: after every event of the command."""


def deliver(effects: list[Effect], batching: Collection[str], render: Render) -> list[Effect]:
    """``effects`` with every message to a batching socket made one, where the last of them
    was (never earlier: nothing is told before it is stored); its events carry a view of null
    but the last one, which carries the seat's own fields, rendered once per seat."""
    last: dict[str, int] = {}
    if batching:
        for i, effect in enumerate(effects):
            if isinstance(effect, Send) and effect.conn in batching:
                last[effect.conn] = i
    if not last:
        return effects
    waiting: dict[str, list[Message]] = {conn: [] for conn in last}
    own: dict[int | None, dict[str, Any]] = {}

    def rendered(seat: int | None) -> dict[str, Any]:
        fields = own.get(seat)
        if fields is None:
            fields = own[seat] = render(seat)
        return fields

    out: list[Effect] = []
    for i, effect in enumerate(effects):
        if not (isinstance(effect, Send) and effect.conn in last):
            out.append(effect)
            continue
        messages = waiting[effect.conn]
        messages.append(effect.message)
        if i == last[effect.conn]:
            out.append(Send(effect.conn, _one_frame(messages, rendered)))
    return out


def _one_frame(messages: list[Message], render: Render) -> Message:
    final = max((i for i, m in enumerate(messages) if isinstance(m, Deferred)), default=-1)
    parts: list[Personal | dict[str, Any]] = []
    for i, message in enumerate(messages):
        if isinstance(message, Deferred):
            fields = render(message.seat) if i == final else {"view": None}
            if message.ack is not None:
                fields = {**fields, "ack": message.ack}
            parts.append(Personal(message.shared, fields))
        else:  # a message the master made whole (a table's news, an error); never a Batch yet
            assert not isinstance(message, Batch)
            parts.append(message)
    return parts[0] if len(parts) == 1 else Batch(tuple(parts))
