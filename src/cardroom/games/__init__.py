"""Games: pure rules engines behind one contract (``base.py``), found by name in the registry.

>>> from cardroom.games import get_game
>>> skip = get_game("skip")
>>> match = skip.new_match(skip.options_from_json({"players": 2}), "seed")
"""

from __future__ import annotations

from .base import Game
from .registry import GAMES, get_game, lower_scores_win, register

__all__ = ["GAMES", "Game", "get_game", "lower_scores_win", "register"]
