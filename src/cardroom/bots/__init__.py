"""Bots by name. Every bot decides from its seat's view alone (R7.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot
from .expert import ExpertBot
from .external import PREFIX as EXTERNAL_PREFIX
from .external import ExternalBot
from .greedy import GreedyBot
from .planner import PlannerBot
from .random_bot import RandomBot

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "expert": ExpertBot,
}


def make_bot(name: str, seed: str | int = 0, settings: dict[str, Any] | None = None) -> Bot:
    """A fresh bot by registry name; ``seed`` makes its choices reproducible and ``settings``
    (keyword arguments of the bot, e.g. ``{"samples": 24}``) tune it. ``cmd:<command>`` runs
    an external bot program (``docs/bot-protocol.md``)."""
    if name.startswith(EXTERNAL_PREFIX):
        return ExternalBot(name[len(EXTERNAL_PREFIX) :], seed, **(settings or {}))
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(sorted(BOTS))}") from None
    return factory(str(seed), **(settings or {}))


__all__ = ["BOTS", "Bot", "make_bot"]
