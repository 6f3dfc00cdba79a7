"""The registry of games by name: the only door from the layers above to a game's rules.

Games outside this package join through ``CARDROOM_GAMES``, read once as the registry is
imported: ``module:object`` entries, comma-separated, each a ``Game`` to register
(``CARDROOM_GAMES=tests.thirdgame.game:THIRD``). The module is imported while
``cardroom.games`` is still being set up, so it takes what it needs from
``cardroom.games.base``/``packaged``/``terminal``, not from ``cardroom.games`` itself.
``cardroom simulate``, ``replay``, ``tournament`` and ``serve`` then play the game like any
other (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
import os

from .base import Game
from .skip.game import SKIP
from .skyjo.game import SKYJO

GAMES: dict[str, Game] = {}
PLUGINS_ENV = "CARDROOM_GAMES"


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


def load_plugins(spec: str) -> list[Game]:
    """Import and register each ``module:object`` of ``spec`` (comma-separated); a bad entry
    raises ``ImportError`` naming it and ``CARDROOM_GAMES``."""
    added = []
    for entry in (part.strip() for part in spec.split(",")):
        if not entry:
            continue
        module_name, sep, attribute = entry.partition(":")
        if not sep or not module_name or not attribute:
            raise ImportError(f"{PLUGINS_ENV}: {entry!r} is not module:object")
        try:
            game = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as error:
            raise ImportError(f"{PLUGINS_ENV}: cannot load {entry!r}: {error}") from error
        added.append(register(game))
    return added


register(SKIP)
register(SKYJO)
load_plugins(os.environ.get(PLUGINS_ENV, ""))
