"""The table's own events and the JSON forms of a game's actions, as the master tells them."""

from __future__ import annotations

import functools
from typing import Any

from cardroom.games.base import Game


def table_event(kind: str, seat: int | None = None, **detail: Any) -> dict[str, Any]:
    """An event made by the table rather than the engine (match start, round summary...)."""
    return {"kind": kind, "seat": seat, "detail": detail}


def legal_json(game: Game, actions: list[Any]) -> list[dict[str, Any]]:
    """A seat's legal actions in their JSON form, each made once per process: a game has a
    few hundred actions, and a seat's list is sent with every position. The forms are shared,
    so only encoded, never changed."""
    return [action_json(game, action) for action in actions]


@functools.lru_cache(maxsize=4096)
def action_json(game: Game, action: Any) -> dict[str, Any]:
    return game.action_to_json(action)
