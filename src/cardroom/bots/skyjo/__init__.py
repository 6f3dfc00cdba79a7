"""Skyjo bots by name (``docs/skyjo-rules.md``): each decides from its seat's view alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .casual import CasualBot
from .counter import CounterBot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

SKYJO_BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "casual": CasualBot,
    "greedy": GreedyBot,
    "counter": CounterBot,
    "search": SearchBot,
}

__all__ = ["SKYJO_BOTS", "CasualBot", "CounterBot", "GreedyBot", "RandomBot", "SearchBot"]
