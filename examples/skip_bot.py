#!/usr/bin/env python3
"""An external Skip bot: the smallest complete example of ``docs/bot-protocol.md``.

Play it: ``cardroom tournament --bots planner,cmd:"python3 examples/skip_bot.py"``.
It reads one JSON line per decision on stdin and writes one action as a JSON line on stdout.
It needs nothing but the standard library: a bot can be written in any language this way.

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
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") != "decide":
            continue
        print(json.dumps(choose(request["view"], request["legal"])), flush=True)


if __name__ == "__main__":
    main()
