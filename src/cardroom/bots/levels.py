"""Levels for people: named strengths, each a registered bot with its settings.

The server offers these on tables and the web client lists them; ``bot`` is a name in
``cardroom.bots.BOTS``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    id: str
    name: str
    description: str
    bot: str


LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level("beginner", "Beginner", "Plays any legal card at random.", "random"),
        Level("easy", "Easy", "Plays its stock whenever it can and keeps discards tidy.", "greedy"),
    )
}


def level(level_id: str) -> Level:
    try:
        return LEVELS[level_id]
    except KeyError:
        raise ValueError(f"unknown level {level_id!r}; choose one of {', '.join(LEVELS)}") from None
