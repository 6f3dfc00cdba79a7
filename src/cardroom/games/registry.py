"""The registry of games by name: the only door from the layers above to a game's rules."""

from __future__ import annotations

from .base import Game
from .skip.game import SKIP
from .skyjo.game import SKYJO

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` under its name (each game's package is listed below once)."""
    GAMES[game.name] = game
    return game


def get_game(name: object) -> Game:
    """The game called ``name``; ``LookupError`` says which names exist."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise LookupError(f"unknown game {name!r}; choose one of {', '.join(sorted(GAMES))}")
    return game


def lower_scores_win(name: str) -> bool:
    """Whether the lower total wins in game ``name`` (Skyjo); False for an unknown name."""
    game = GAMES.get(name)
    return game is not None and game.lower_scores_win


register(SKIP)
register(SKYJO)
