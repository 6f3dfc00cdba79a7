"""The score keeper: the arithmetic of Skyjo and Skip games played with physical cards (S6).

Pure: no I/O. People enter each round's numbers; the keeper scores them with the engines' own
functions, keeps the totals, says who leads and when the game ends, and lets past rounds be
corrected. ``formats`` turns a kept game into its versioned JSON form and back, and into CSV.

>>> from cardroom.keeper import new_game
>>> game = new_game("skyjo", ["Ann", "Bob"])
>>> game = game.add_round(game.skyjo_round({"Ann": 12, "Bob": 5}, closer="Ann"))
>>> game.sheet.totals
(24, 5)
"""

from .formats import FORMAT, VERSION, from_json, round_from_json, round_to_json, to_csv, to_json
from .kept import KeptGame, new_game
from .sheet import RoundLine, Sheet, Why
from .values import (
    GAMES,
    HIGHEST_SUM,
    LOWEST_SUM,
    KeeperError,
    Round,
    Settings,
    SkipRound,
    SkipSettings,
    SkyjoRound,
    SkyjoSettings,
)

__all__ = [
    "FORMAT",
    "GAMES",
    "HIGHEST_SUM",
    "LOWEST_SUM",
    "VERSION",
    "KeeperError",
    "KeptGame",
    "Round",
    "RoundLine",
    "Settings",
    "Sheet",
    "SkipRound",
    "SkipSettings",
    "SkyjoRound",
    "SkyjoSettings",
    "Why",
    "from_json",
    "new_game",
    "round_from_json",
    "round_to_json",
    "to_csv",
    "to_json",
]
