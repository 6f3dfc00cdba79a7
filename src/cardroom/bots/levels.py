"""Levels for people: named strengths, each a registered bot with its settings.

The server offers these on tables and the web client lists them; ``bot`` is a name among
the bots of the level's ``game`` (``cardroom.bots.BOTS_BY_GAME``) and ``settings`` its keyword
arguments (search budgets, weights).

Budgets are samples and nodes, so a level plays the same moves on any machine. Live play may
add a wall-clock cap (``make(seed, live=True)``): a person at the table should not wait for a
busy machine, and there a seed need not replay exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import Bot, make_bot

LIVE_TIME_CAP = 0.9  # seconds a searching bot may think at a live table (server), at most
SEARCHING = frozenset({"expert"})  # the bots whose search takes a ``time_cap``


@dataclass(frozen=True, slots=True)
class Level:
    id: str
    name: str
    description: str
    bot: str
    settings: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    game: str = "skip"

    def make(self, seed: str | int = 0, *, live: bool = False) -> Bot:
        """A fresh bot playing at this level; ``live`` caps its thinking at ``LIVE_TIME_CAP``
        seconds (a person is waiting), which makes its moves depend on the machine's speed."""
        if self.game != "skip":  # no searching bot elsewhere: nothing to cap
            return make_bot(self.bot, seed, dict(self.settings), game=self.game)
        return make_bot(self.bot, seed, {**self.settings, **live_settings(self.bot, live)})


def live_settings(bot: str, live: bool = True) -> dict[str, Any]:
    """The settings that make ``bot`` fit for live play: a time cap for searching bots, none
    for the others (and none at all when not ``live``). The server may pass these to
    ``make_bot``."""
    return {"time_cap": LIVE_TIME_CAP} if live and bot in SEARCHING else {}


# The ladder, weakest first: each level should beat the one below it 65–75% of the time
# (``cardroom calibrate`` measures it; docs/bots.md has the figures). The two lowest are
# greedy with a person's slips (``casual``): random play is no game for anyone.
LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level(
            "beginner",
            "Beginner",
            "Plays its stock card whenever it fits, but one move in four is a newcomer's slip.",
            "casual",
            {"slip": 0.25},
        ),
        Level(
            "easy",
            "Easy",
            "Plays its stock first and keeps discards tidy; slips now and then.",
            "casual",
            {"slip": 0.1},
        ),
        Level(
            "medium",
            "Medium",
            "Plays its stock whenever it can and the cards that lead to it; never slips.",
            "greedy",
        ),
        Level(
            "hard",
            "Hard",
            "Plans each whole turn to play the most stock cards, then discards with care; "
            "only loosely minds what it leaves the next player.",
            "planner",
            # The planner's default defence (10) beat Medium 74-77% and left Master only 56-61%
            # above it. Against greedy, 400 duplicate games (seed 1): defence 2 won 64.0%, 3
            # 67.5%, 4 66.5%, 5 70.8%, 10 74.0%; calibrated at 4: 68.5% over Medium, and Master
            # 67.5% over it (200 games each, README.md).
            {"defence": 4},
        ),
        Level(
            "master",
            "Master",
            "Keeps all four discard piles working; near the end of a round it plays its best "
            "ideas out to the finish on guesses of the cards it cannot see.",
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


# The counter, forgetful, and weighing a column in the making lightly (0.05; the counter's
# default is 0.6, 0.3 left Hard too close above): Hard over Medium was 60-64% with 0.3.
_SKYJO_MEDIUM = {"counting": 0, "column": 0.05, "gift": 0.0}

SKYJO_MASTER: dict[str, Any] = {
    "samples": 32,
    "candidates": 4,
    "endgame": 2,
    "tempo": 1,
    "finish": 1,
    "flip": 2,
}
"""The Skyjo search's budget (``bots/skyjo/search.py``): samples, never the clock, sized for a
decision p95 under a second on one core (``cardroom bench bots --game skyjo``); and its
counter's ``tempo`` (a leader hurries the round's end), ``finish`` (a last turn weighs the
closer's doubling) and ``flip`` (a middling drawn card is discarded to turn a card, which a
later draw can still replace). docs/bots.md has how they were chosen."""

SKYJO_LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level(
            "beginner",
            "Beginner",
            "Thinks as Medium does, but slips one move in sixteen: a good card swapped away.",
            "casual",
            {"slip": 0.06, **_SKYJO_MEDIUM},
            game="skyjo",
        ),
        Level(
            "easy",
            "Easy",
            "Thinks as Medium does, but slips one move in forty.",
            "casual",
            {"slip": 0.025, **_SKYJO_MEDIUM},
            game="skyjo",
        ),
        Level(
            "medium",
            "Medium",
            "Weighs every card against the average of the cards it cannot see, hardly builds "
            "toward a column of three, and closes a round only when it expects the lowest score.",
            "counter",
            _SKYJO_MEDIUM,
            game="skyjo",
        ),
        Level(
            "hard",
            "Hard",
            "Counts every card it has seen, hunts columns, keeps good cards from the next "
            "player, and closes only when it expects the strictly lowest score.",
            "counter",
            game="skyjo",
        ),
        Level(
            "master",
            "Master",
            "Counts as Hard does, turns a card rather than bury a middling one, hurries a round "
            "it leads and slows one it trails; near a round's end it plays its best ideas out on "
            "guesses of the cards it cannot see, and closes when that pays.",
            "search",
            SKYJO_MASTER,
            game="skyjo",
        ),
    )
}
"""Skyjo's levels: the same ids as Skip's where they exist, so ``medium`` plays for the absent
(the server's ``autopilot_level``) at a table of either game."""

LEVELS_BY_GAME: dict[str, dict[str, Level]] = {"skip": LEVELS, "skyjo": SKYJO_LEVELS}


def levels_for(game: str) -> dict[str, Level]:
    """The levels people may seat at a table of ``game`` (none for a game without bots)."""
    return LEVELS_BY_GAME.get(game, {})
