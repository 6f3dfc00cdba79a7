"""The WebSocket message shapes of ``docs/protocol.md``: parsing what clients send, strictly,
and writing what the server sends. Nothing here touches a table or a socket."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cardroom.games.skip import Action, Event, NotationError, action_from_json
from cardroom.games.skip.cards import card_to_json

MAX_ACTION_ID = 64


class ProtocolError(ValueError):
    """A message that is not well formed: answered with an error, never applied."""

    def __init__(self, code: str, message: str, action_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.action_id = action_id


@dataclass(frozen=True, slots=True)
class Hello:
    token: str
    since: int | None


@dataclass(frozen=True, slots=True)
class ActionRequest:
    id: str
    action: Action
    after: int | None


@dataclass(frozen=True, slots=True)
class Ping:
    id: Any


@dataclass(frozen=True, slots=True)
class Resync:
    pass


ClientMessage = Hello | ActionRequest | Ping | Resync

_FIELDS = {
    "hello": {"type", "token", "since"},
    "action": {"type", "id", "action", "after"},
    "ping": {"type", "id"},
    "resync": {"type"},
}


def parse(text: str | bytes) -> ClientMessage:
    """One client message from its text; raises ``ProtocolError`` saying what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_message", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is one JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}; expected {', '.join(_FIELDS)}"
        )
    unknown = set(data) - _FIELDS[kind]
    if unknown:
        raise ProtocolError(
            "bad_message", f"unexpected field(s) for {kind}: {', '.join(sorted(unknown))}"
        )
    if kind == "hello":
        token = data.get("token")
        if not isinstance(token, str):
            raise ProtocolError("unauthorized", "hello needs the player's token")
        return Hello(token, _optional_seq(data, "since"))
    if kind == "action":
        action_id = data.get("id")
        if not isinstance(action_id, str) or not 1 <= len(action_id) <= MAX_ACTION_ID:
            raise ProtocolError(
                "bad_message", f"an action needs an 'id' string of 1-{MAX_ACTION_ID} characters"
            )
        try:
            action = action_from_json(data.get("action"))
        except NotationError as error:
            raise ProtocolError("bad_action", str(error), action_id) from None
        try:
            return ActionRequest(action_id, action, _optional_seq(data, "after"))
        except ProtocolError as error:
            raise ProtocolError(error.code, error.message, action_id) from None
    if kind == "ping":
        ping_id = data.get("id")
        if ping_id is not None and not isinstance(ping_id, str | int):
            raise ProtocolError("bad_message", "a ping id is a string or a number")
        return Ping(ping_id)
    return Resync()


def _optional_seq(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError("bad_message", f"{key!r} is a sequence number (an integer >= 0)")
    return value


def event_json(event: Event) -> dict[str, Any]:
    """An engine event in wire form: cards as in the notation, piles numbered 1-4."""
    detail: dict[str, Any] = {}
    for key, value in event.detail.items():
        if key == "card" and isinstance(value, int):
            detail[key] = card_to_json(value)
        elif key in ("pile", "to") and isinstance(value, int):
            detail[key] = value + 1 if value >= 0 else None
        else:
            detail[key] = value
    return {"kind": event.kind, "seat": event.seat if event.seat >= 0 else None, "detail": detail}


def table_event(kind: str, seat: int | None = None, **detail: Any) -> dict[str, Any]:
    """An event made by the table rather than the engine (match start, round summary...)."""
    return {"kind": kind, "seat": seat, "detail": detail}


def error_message(
    code: str, message: str, *, rule: str | None = None, action_id: str | None = None
) -> str:
    return dumps({"type": "error", "id": action_id, "code": code, "rule": rule, "message": message})


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))
