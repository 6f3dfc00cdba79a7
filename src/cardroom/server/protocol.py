"""The WebSocket message shapes of ``docs/protocol.md``: parsing what clients send, strictly,
and writing what the server sends. Nothing here touches a table or a socket."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgspec

from cardroom.tables.wire import decode, encode

MAX_ACTION_ID = 64
MAX_DEPTH = 16  # arrays and objects inside each other; the protocol's messages need 3
CLOSE_TOO_DEEP = 1008  # policy violation: a socket that sends a message nested deeper is closed
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def check_depth(text: str | bytes) -> None:
    """Raise ``TooDeep`` when ``text`` (JSON or not) opens more than ``MAX_DEPTH`` arrays and
    objects inside each other: a scan before any parser sees it, so deep nesting costs no
    recursion (a 4 KiB ``[[[[…`` would make the JSON parsers raise ``RecursionError``). Brackets
    inside strings do not count."""
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # the usual case: too few brackets to nest too deep
    depth = 0
    for c in _NOT_BRACKETS.sub("", _STRINGS.sub("", text)):
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep()
        elif c in "]}":
            depth = max(0, depth - 1)


class ProtocolError(ValueError):
    """A message that is not well formed: answered with an error, never applied. ``field``
    names the part of the message at fault (``action.type``) when it is one field."""

    def __init__(
        self, code: str, message: str, action_id: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.action_id = action_id
        self.field = field


class TooDeep(ProtocolError):
    """A message nested deeper than ``MAX_DEPTH``: the socket is closed (1008), unparsed."""

    def __init__(self) -> None:
        super().__init__("too_deep", f"a message nests arrays and objects at most {MAX_DEPTH} deep")


@dataclass(frozen=True, slots=True)
class Hello:
    token: str
    since: int | None
    batch: bool = False
    """The client takes what one command tells it as one frame (``docs/protocol.md`` §4)."""


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A move: its id, the action in the table's game notation (read by the table, which
    knows its game), and the seq of the position the client saw."""

    id: str
    action: dict[str, Any]
    after: int | None


@dataclass(frozen=True, slots=True)
class Ping:
    id: Any


@dataclass(frozen=True, slots=True)
class Resync:
    pass


@dataclass(frozen=True, slots=True)
class HintRequest:
    """A hint for the player's own turn (R7.6)."""


@dataclass(frozen=True, slots=True)
class ReadyRequest:
    """The player has read the round's summary ("Continue")."""


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """A line for the table's chat (its length and rate are the table's to check)."""

    text: str


ClientMessage = Hello | ActionRequest | Ping | Resync | ChatRequest | HintRequest | ReadyRequest

_FIELDS = {
    "hello": {"type", "token", "since", "batch"},
    "action": {"type", "id", "action", "after"},
    "ping": {"type", "id"},
    "resync": {"type"},
    "chat": {"type", "text"},
    "hint": {"type"},
    "ready": {"type"},
}


def parse(text: str | bytes) -> ClientMessage:
    """One client message from its text; raises ``ProtocolError`` saying what is wrong
    (``TooDeep`` for one nested too deep to read)."""
    check_depth(text)
    try:
        data = decode(text)
    except (msgspec.DecodeError, UnicodeError):
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
        batch = data.get("batch", False)
        if not isinstance(batch, bool):
            raise ProtocolError("bad_message", "'batch' must be true or false")
        return Hello(token, _optional_seq(data, "since"), batch)
    if kind == "action":
        action_id = data.get("id")
        if not isinstance(action_id, str) or not 1 <= len(action_id) <= MAX_ACTION_ID:
            raise ProtocolError(
                "bad_message", f"an action needs an 'id' string of 1-{MAX_ACTION_ID} characters"
            )
        action = _check_action(data.get("action"), action_id)
        try:
            return ActionRequest(action_id, action, _optional_seq(data, "after"))
        except ProtocolError as error:
            raise ProtocolError(error.code, error.message, action_id) from None
    if kind == "ping":
        ping_id = data.get("id")
        if ping_id is not None and not isinstance(ping_id, str | int):
            raise ProtocolError("bad_message", "a ping id is a string or a number")
        return Ping(ping_id)
    if kind == "chat":
        line = data.get("text")
        if not isinstance(line, str):
            raise ProtocolError("bad_message", "a chat message has a 'text' string")
        return ChatRequest(line)
    if kind == "hint":
        return HintRequest()
    if kind == "ready":
        return ReadyRequest()
    return Resync()


def _check_action(action: Any, action_id: str) -> dict[str, Any]:
    """The shape every game's action has (``docs/notation.md``): an object whose ``type`` is a
    string and whose fields are strings, numbers, booleans or null. Anything else is
    ``bad_message`` naming the field, before a table reads the action in its game's notation
    (which refuses the rest with ``bad_action``)."""
    if not isinstance(action, dict):
        raise ProtocolError(
            "bad_message", "an action is a JSON object with a 'type'", action_id, "action"
        )
    if not isinstance(action.get("type"), str):
        raise ProtocolError(
            "bad_message", "an action's 'type' is a string (play, pass, ...)", action_id,
            "action.type",
        )  # fmt: skip
    for key, value in action.items():
        if isinstance(value, dict | list):
            raise ProtocolError(
                "bad_message",
                f"an action's {_short(key)!r} is a string, a number, true, false or null",
                action_id,
                f"action.{_short(key)}",
            )
    return action


def _short(key: str) -> str:
    return key if len(key) <= 32 else key[:29] + "..."


def action_id_of(text: str | bytes) -> str | None:
    """The ``id`` of a message that is an action, else None: what a refusal made before the
    message is read (``rate_limited``) still tells the client, so it knows which one it was."""
    try:
        check_depth(text)
        data = decode(text)
    except (ProtocolError, msgspec.DecodeError, UnicodeError):
        return None
    if not isinstance(data, dict) or data.get("type") != "action":
        return None
    action_id = data.get("id")
    ok = isinstance(action_id, str) and 1 <= len(action_id) <= MAX_ACTION_ID
    return action_id if ok else None


def _optional_seq(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError("bad_message", f"{key!r} is a sequence number (an integer >= 0)")
    return value


def error_message(
    code: str,
    message: str,
    *,
    rule: str | None = None,
    action_id: str | None = None,
    field: str | None = None,
) -> str:
    """An ``error``; ``field`` (the part of the message at fault) only when there is one."""
    error: dict[str, Any] = {
        "type": "error",
        "id": action_id,
        "code": code,
        "rule": rule,
        "message": message,
    }
    if field is not None:
        error["field"] = field
    return dumps(error)


def dumps(message: dict[str, Any]) -> str:
    return encode(message)
