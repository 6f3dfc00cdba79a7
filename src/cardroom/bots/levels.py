"""Levels for people: named strengths, each a registered bot with its settings.

The server offers these on tables and the web client lists them; ``bot`` is a name in
``cardroom.bots.BOTS`` and ``settings`` its keyword arguments (search budgets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import Bot, make_bot


@dataclass(frozen=True, slots=True)
class Level:
    id: str
    name: str
    description: str
    bot: str
    settings: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def make(self, seed: str | int = 0) -> Bot:
        """A fresh bot playing at this level."""
        return make_bot(self.bot, seed, self.settings)


LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level("beginner", "Beginner", "Plays any legal card at random.", "random"),
        Level("easy", "Easy", "Plays its stock whenever it can and keeps discards tidy.", "greedy"),
        Level(
            "medium",
            "Medium",
            "Plans each whole turn to play the most stock cards, then discards with care.",
            "planner",
        ),
        Level(
            "hard",
            "Hard",
            "Keeps all four discard piles working; near the end of a round it plays its best "
            "ideas out to the finish on guesses of the cards it cannot see.",
            "expert",
            {"samples": 8, "candidates": 3},
        ),
        Level(
            "master",
            "Master",
            "Thinks longest: three times as many guesses behind every close decision near the end.",
            "expert",
            {"samples": 24, "candidates": 4},
        ),
    )
}


def level(level_id: str) -> Level:
    try:
        return LEVELS[level_id]
    except KeyError:
        raise ValueError(f"unknown level {level_id!r}; choose one of {', '.join(LEVELS)}") from None


LEVELS_BY_GAME: dict[str, dict[str, Level]] = {"skip": LEVELS}


def levels_for(game: str) -> dict[str, Level]:
    """The levels people may seat at a table of ``game`` (none for a game without bots)."""
    return LEVELS_BY_GAME.get(game, {})
