#!/usr/bin/env python3
"""An external Skip bot: the smallest complete example of ``docs/bot-protocol.md``.

Play it: ``cardroom tournament --bots planner,cmd:"python3 examples/skip_bot.py"``.
It reads one JSON message per line on stdin: it answers ``hello`` with its name and each
``decide`` with one action as a JSON line on stdout; it counts the games it won from ``over``
and says so on stderr (kept in a log file per program). It needs nothing but the standard
library: a bot can be written in any language this way.

Its strategy: play the stock card when it fits, else a card that leads to it, else any discard
top, else end the turn with a discard that keeps the discard piles descending.
"""

from __future__ import annotations

import json
import sys


def choose(view: dict, legal: list[dict]) -> dict:
    plays = [a for a in legal if a["type"] == "play"]
    for action in plays:
        if action["from"] == "stock":
            return action
    me = view["seat"]
    stock = view["stock_tops"][me]
    if isinstance(stock, int):
        for action in plays:
            pile = view["building"][action["to"] - 1]
            card = action.get("card")
            if action["from"] == "hand" and card != "W" and pile["next"] < stock:
                return action
    for action in plays:
        if action["from"] == "discard":
            return action
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return {"type": "pass"}
    piles = view["discards"][me]

    def badness(action: dict) -> int:
        card = action["card"]
        if card == "W":
            return 100
        pile = piles[action["pile"] - 1]
        top = pile[-1] if pile else None
        if top is None:
            return 20 - card
        if top == "W" or top < card:
            return 50 + card
        return top - card

    return min(discards, key=badness)


def main() -> None:
    games = wins = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": "Stock first (Python)"}), flush=True)
        elif kind == "decide":
            print(json.dumps(choose(message["view"], message["legal"])), flush=True)
        elif kind == "over":
            games, wins = games + 1, wins + message["won"]
            print(f"game {message['game_id']}: won {wins} of {games}", file=sys.stderr)


if __name__ == "__main__":
    main()
