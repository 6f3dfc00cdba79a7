"""Messages as the sockets carry them: JSON text, encoded once however many receive it.

A move is told to every seat and spectator. What they all share (the events, the seq, the
clocks) is encoded once; each copy adds only its own fields (the seat's view and legal list),
spliced into the shared object's text. The history a table keeps for reconnecting clients
holds the same shared text, so it costs its bytes, not a tree of Python objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder()


def encode(message: Any) -> str:
    """Compact JSON text (the wire format of every table message)."""
    return _encoder.encode(message).decode()


def decode(text: str | bytes) -> Any:
    """Raises ``msgspec.DecodeError`` on text that is not one JSON value."""
    return msgspec.json.decode(text)


@dataclass(frozen=True, slots=True)
class Personal:
    """One receiver's copy of a shared message: ``shared`` is the JSON text of an object that
    many copies share, ``own`` the fields only this copy has (they go after the shared ones)."""

    shared: str
    own: dict[str, Any]

    def text(self) -> str:
        if not self.own:
            return self.shared
        own = encode(self.own)
        if self.shared == "{}":
            return own
        return f"{self.shared[:-1]},{own[1:]}"

    def as_dict(self) -> dict[str, Any]:
        return {**decode(self.shared), **self.own}


@dataclass(frozen=True, slots=True)
class Deferred:
    """An event for a socket that takes what one command tells it as one frame (``batch`` in
    its hello): its own fields (``seat``'s view and legal list) are rendered when the
    command's messages are delivered (``TableMaster.deliver``), for its last event only."""

    shared: str
    seat: int | None
    ack: str | None


@dataclass(frozen=True, slots=True)
class Batch:
    """The messages one command tells a socket, in order, as one frame."""

    parts: tuple[Personal | dict[str, Any], ...]

    def text(self) -> str:
        return '{"type":"batch","messages":[' + ",".join(text_of(p) for p in self.parts) + "]}"

    def as_dict(self) -> dict[str, Any]:
        return {"type": "batch", "messages": [as_dict(p) for p in self.parts]}


Message = dict[str, Any] | Personal | Batch | Deferred
"""What a ``Send`` carries: a message to encode, a copy of a message already encoded, several
of them in one frame, or an event whose own fields are still to render (``Deferred``)."""


def text_of(message: Message) -> str:
    if isinstance(message, Deferred):
        raise TypeError("a deferred event is rendered by TableMaster.deliver before it is sent")
    return encode(message) if isinstance(message, dict) else message.text()


def as_dict(message: Message) -> dict[str, Any]:
    """The message as plain data (tests, and the cluster's forwarding)."""
    if isinstance(message, Deferred):
        raise TypeError("a deferred event is rendered by TableMaster.deliver before it is sent")
    return message if isinstance(message, dict) else message.as_dict()
