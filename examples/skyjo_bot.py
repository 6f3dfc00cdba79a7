"""A complete Skyjo bot for ``cmd:`` (docs/bot-protocol.md), standard library only.

It takes the discard when it is 3 or lower, keeps a drawn card of 4 or lower, and otherwise
discards it and turns a card: a floor to measure a first bot against.

    .venv/bin/cardroom tournament --game skyjo --bots greedy,cmd:"python3 examples/skyjo_bot.py"
"""

import json
import sys


def choose(request: dict) -> dict:
    view, legal = request["view"], request["legal"]
    kinds = {action["type"] for action in legal}
    if "reveal" in kinds:
        return legal[0]
    mine = [cell for column in view["grids"][view["seat"]] for cell in column]
    face_down = [i for i, cell in enumerate(mine) if cell == "?"]
    if view["holding"]:
        card = view["drawn"]
        if card <= 4 and face_down:
            return next(a for a in legal if a["type"] == "exchange" and _index(a) == face_down[0])
        turns = [a for a in legal if a["type"] == "discard"]
        return turns[0] if turns else legal[0]
    top = view["discard_top"]
    if top is not None and top <= 3 and face_down:
        return next(a for a in legal if a["type"] == "take" and _index(a) == face_down[0])
    return {"type": "draw"}


def _index(action: dict) -> int:
    return (action["column"] - 1) * 3 + action["row"] - 1


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "Low cards (Python)"}), flush=True)
    elif message["type"] == "decide":
        print(json.dumps(choose(message)), flush=True)
