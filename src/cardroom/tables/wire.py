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


Message = dict[str, Any] | Personal
"""What a ``Send`` carries: a message to encode, or a copy of a message already encoded."""


def text_of(message: Message) -> str:
    return message.text() if isinstance(message, Personal) else encode(message)


def as_dict(message: Message) -> dict[str, Any]:
    """The message as plain data (tests, and the cluster's forwarding)."""
    return message.as_dict() if isinstance(message, Personal) else message
