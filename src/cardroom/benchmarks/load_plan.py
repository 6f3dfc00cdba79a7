"""The server bench's table, shared by its two measures: the house rules, the bot facing the
client and the client's scripted choice. ``server_load`` plays it over real sockets,
``table_memory`` in-process; one definition keeps the two measuring the same match."""

from __future__ import annotations

import random
from typing import Any

from cardroom.bots.levels import LEVELS

OPTIONS = {"stock_size": 30, "match_target": 500}


def greedy_level() -> str:
    """The level whose bot is ``greedy``, from the registry (levels change; the bot is fixed)."""
    for level in LEVELS.values():
        if level.bot == "greedy":
            return level.id
    raise RuntimeError("no level plays the greedy bot")


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A scripted player: stock first, then a discard top, then a hand card, then a discard."""
    plays = [a for a in legal if a["type"] == "play"]
    for source in ("stock", "discard", "hand"):
        fits = [a for a in plays if a["from"] == source and a.get("card") != "W"]
        if fits:
            return fits[0]
    ends = [a for a in legal if a["type"] != "play"]
    return rng.choice(ends) if ends else plays[0]
