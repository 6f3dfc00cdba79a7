"""The JSON form of Skyjo's actions and events (``docs/notation.md``).

A grid position is written as ``"column"`` 1-4 and ``"row"`` 1-3, as people count. Parsing
is strict: a malformed action is a ``NotationError`` before any rule is consulted.
"""

from __future__ import annotations

from typing import Any

from ..base import Event, NotationError
from .actions import DRAW, PLACED, TIMEOUT, Action
from .cards import COLUMNS, ROWS, column_of, position, row_of


def place_to_json(pos: int) -> dict[str, int]:
    return {"column": column_of(pos) + 1, "row": row_of(pos) + 1}


def action_to_json(action: Action) -> dict[str, Any]:
    if action.kind in PLACED:
        return {"type": action.kind, **place_to_json(action.position)}
    return {"type": action.kind}


def _shown(value: object) -> str:
    """A value as an error shows it: short, whatever a client sent."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(data: dict[str, Any], key: str, top: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise NotationError(f"{key!r} must be a number 1-{top}, not {_shown(value)}")
    return value - 1


def action_from_json(data: Any, *, allow_timeout: bool = False) -> Action:
    """Parse an action; ``timeout`` only with ``allow_timeout`` (only a table plays it)."""
    if not isinstance(data, dict):
        raise NotationError("an action is a JSON object with a 'type'")
    kind = data.get("type")
    typed = isinstance(data.get("type"), str)  # {} or [] would not even be looked up
    if not typed or not (kind in PLACED or kind == "draw" or (kind == "timeout" and allow_timeout)):
        raise NotationError(
            f"unknown action type {_shown(kind)}; expected reveal, take, draw, exchange or discard"
        )
    fields = {"type", "column", "row"} if kind in PLACED else {"type"}
    unknown = set(data) - fields
    if unknown:
        raise NotationError(f"unexpected field(s) for {kind}: {', '.join(sorted(unknown))}")
    if kind == "draw":
        return DRAW
    if kind == "timeout":
        return TIMEOUT
    return Action(kind, position(_number(data, "column", COLUMNS), _number(data, "row", ROWS)))


def event_to_json(event: Event) -> dict[str, Any]:
    """An engine event in wire form: positions as column and row, columns from 1, a grid
    after the final reveal as 4 columns of 3 (None where a column was removed)."""
    detail: dict[str, Any] = {}
    for key, value in event.detail.items():
        if key == "position" and isinstance(value, int):
            detail.update(place_to_json(value))
        elif key == "column" and isinstance(value, int):
            detail["column"] = value + 1
        elif key == "grid" and isinstance(value, tuple | list):
            detail["grid"] = [list(value[c * ROWS : (c + 1) * ROWS]) for c in range(COLUMNS)]
        else:
            detail[key] = value
    return {"kind": event.kind, "seat": event.seat if event.seat >= 0 else None, "detail": detail}
