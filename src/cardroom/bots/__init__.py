"""Bots by name, per game. Every bot decides from its seat's view alone (R7.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardroom.games import get_game

from .base import Bot
from .casual import CasualBot
from .expert import ExpertBot
from .external import PREFIX as EXTERNAL_PREFIX
from .external import ExternalBot
from .greedy import GreedyBot
from .planner import PlannerBot
from .random_bot import RandomBot
from .skyjo import SKYJO_BOTS

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "casual": CasualBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "expert": ExpertBot,
}
"""Skip's bots (the default game everywhere)."""

BOTS_BY_GAME: dict[str, dict[str, BotFactory]] = {"skip": BOTS, "skyjo": SKYJO_BOTS}


def bots_for(game: str) -> dict[str, BotFactory]:
    """The bots that play ``game``: its own here, or for any other game of the registry the
    ``random`` bot (it plays from ``View.legal_actions()`` alone) and the bots the game brings
    (``Game.bots``); none for a name no game has."""
    own = BOTS_BY_GAME.get(game)
    if own is not None:
        return own
    try:
        played = get_game(game)
    except LookupError:
        return {}
    return {"random": RandomBot, **played.bots}


def make_bot(
    name: str,
    seed: str | int = 0,
    settings: dict[str, Any] | None = None,
    game: str = "skip",
) -> Bot:
    """A fresh bot of ``game`` by registry name; ``seed`` makes its choices reproducible and
    ``settings`` (keyword arguments of the bot, e.g. ``{"samples": 24}``) tune it.
    ``cmd:<command>`` runs an external bot program (``docs/bot-protocol.md``)."""
    registry = bots_for(game)
    if name.startswith(EXTERNAL_PREFIX):
        extra: dict[str, Any] = {"game": game} if game != "skip" else {}
        return ExternalBot(name[len(EXTERNAL_PREFIX) :], seed, **(settings or {}), **extra)
    try:
        factory = registry[name]
    except KeyError:
        choices = ", ".join(sorted(registry)) or "none"
        raise ValueError(f"unknown bot {name!r}; choose one of {choices}") from None
    return factory(str(seed), **(settings or {}))


__all__ = ["BOTS", "BOTS_BY_GAME", "SKYJO_BOTS", "Bot", "bots_for", "make_bot"]
