"""The JSON form of actions (``docs/notation.md``), shared by the wire, records and bots.

Parsing is strict: a malformed action gets a ``NotationError`` that says what is wrong, before
any rule is consulted.
"""

from __future__ import annotations

from typing import Any

from ..base import Event, NotationError
from .actions import PASS, SOURCES, Action
from .cards import card_from_json, card_to_json
from .rules import TIMEOUT


def action_to_json(action: Action) -> dict[str, Any]:
    if action.kind in ("pass", "timeout"):
        return {"type": action.kind}
    if action.kind == "discard":
        out: dict[str, Any] = {
            "type": "discard",
            "card": card_to_json(action.card),
            "pile": action.pile + 1,
        }
        if action.partner:
            out["partner"] = True
        return out
    out = {"type": "play", "from": action.source}
    if action.source == "hand":
        out["card"] = card_to_json(action.card)
    elif action.source in ("discard", "partner_discard"):
        out["pile"] = action.pile + 1
    out["to"] = action.to + 1
    return out


def _shown(value: object) -> str:
    """A value as an error shows it: short, whatever a client sent."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _pile_number(data: dict[str, Any], key: str, what: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise NotationError(f"{key!r} must be {what} number 1-4, not {_shown(value)}")
    return value - 1


def action_from_json(data: Any, *, allow_timeout: bool = False) -> Action:
    """Parse an action; piles and building slots are numbered 1-4 in JSON, as people count."""
    if not isinstance(data, dict):
        raise NotationError("an action is a JSON object with a 'type'")
    kind = data.get("type")
    allowed: dict[str, set[str]] = {
        "pass": {"type"},
        "timeout": {"type"},
        "discard": {"type", "card", "pile", "partner"},
        "play": {"type", "from", "card", "pile", "to"},
    }
    typed = isinstance(data.get("type"), str)  # {} or [] would not even be looked up
    if not typed or kind not in allowed or (kind == "timeout" and not allow_timeout):
        raise NotationError(f"unknown action type {_shown(kind)}; expected play, discard or pass")
    unknown = set(data) - allowed[kind]
    if unknown:
        raise NotationError(f"unexpected field(s) for {kind}: {', '.join(sorted(unknown))}")
    if kind == "pass":
        return PASS
    if kind == "timeout":
        return TIMEOUT
    try:
        if kind == "discard":
            partner = data.get("partner", False)
            if not isinstance(partner, bool):
                raise NotationError("'partner' must be true or false")
            return Action(
                "discard",
                "",
                card_from_json(data.get("card")),
                _pile_number(data, "pile", "a discard pile"),
                -1,
                partner,
            )
        source = data.get("from")
        if not isinstance(data.get("from"), str) or source not in SOURCES:
            raise NotationError(f"'from' must be one of {', '.join(SOURCES)}, not {_shown(source)}")
        to = _pile_number(data, "to", "a building pile")
        takes = {"hand": {"card"}, "discard": {"pile"}, "partner_discard": {"pile"}}
        extra = ({"card", "pile"} - takes.get(source, set())) & set(data)
        if extra:
            raise NotationError(f"a play from {source} takes no {', '.join(sorted(extra))}")
        if source == "hand":
            return Action("play", "hand", card_from_json(data.get("card")), -1, to)
        if source in ("discard", "partner_discard"):
            return Action("play", source, -1, _pile_number(data, "pile", "a discard pile"), to)
        return Action("play", source, -1, -1, to)
    except ValueError as error:
        if isinstance(error, NotationError):
            raise
        raise NotationError(str(error)) from None


def event_to_json(event: Event) -> dict[str, Any]:
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
