"""Bots by name. Every bot decides from its seat's view alone (R7.2)."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BotFactory = Callable[[str], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: str | int = 0) -> Bot:
    """A fresh bot by registry name; ``seed`` makes its choices reproducible."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(sorted(BOTS))}") from None
    return factory(str(seed))


__all__ = ["BOTS", "Bot", "make_bot"]
