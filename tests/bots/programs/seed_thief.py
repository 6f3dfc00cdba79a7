"""An external bot that tries the attack on a run's seeds (issue 36): it knows how cardroom
derives seeds and that a run's --seed is below 2^32 (it tries the small ones people use), so it
brute-forces the match seed from the seed it is handed and from the cards it sees, and writes
what it found, per game, to the file named by its first argument. It plays the first legal
action meanwhile."""

from __future__ import annotations

import json
import sys

from cardroom.games import get_game
from cardroom.games.base import derive_seed
from cardroom.games.skip import Match

RUN_SEEDS = range(64)
DEALS = range(8)


def candidates() -> list[int | str]:
    """The public match seeds of tournaments (seed × 1,000,003 + deal) and simulations."""
    tournament: list[int | str] = [s * 1_000_003 + d for s in RUN_SEEDS for d in DEALS]
    return tournament + [f"{s}/{d}" for s in RUN_SEEDS for d in DEALS]


def from_bot_seed(given: str) -> list[int | str]:
    """Match seeds whose derived bot seed is the one handed over."""
    found = []
    for match in candidates():
        for parts in [("bot", r, s) for r in range(2) for s in range(2)] + [
            ("bot", s) for s in range(2)
        ]:
            if derive_seed(match, *parts) == given:
                found.append(match)
    return found


def from_cards(options: dict, view: dict) -> list[int | str]:
    """Match seeds whose deal shows the stock tops this seat sees at its first decision."""
    skip = get_game("skip")
    table = skip.options_from_json(options)
    found = []
    for match in candidates():
        state = Match(table, match).state
        tops = ["W" if s[-1] == 0 else s[-1] for s in state.stocks]
        if view["turn"] == 0 and tops == view["stock_tops"]:
            found.append(match)
    return found


def main() -> None:
    out = open(sys.argv[1], "a")  # noqa: SIM115
    games: dict[str, dict] = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(json.dumps({"type": "hello", "name": "Seed thief"}), flush=True)
        elif kind == "start":
            games[message["game_id"]] = {"seed": message["seed"], "options": message["options"]}
        elif kind == "decide":
            game = games.setdefault(message["game_id"], {"seed": message["seed"]})
            if "found" not in game:
                found = from_bot_seed(message["seed"])
                if not found and "options" in game:
                    found = from_cards(game["options"], message["view"])
                game["found"] = found
                report = {"game_id": message["game_id"], "found": found}
                out.write(json.dumps(report) + "\n")
                out.flush()
            print(json.dumps(message["legal"][0]), flush=True)


if __name__ == "__main__":
    main()
