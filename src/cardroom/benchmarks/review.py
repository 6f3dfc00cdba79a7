"""How long a post-game review takes: every turn of both seats of whole 2-player rounds scored.

Run: ``cardroom bench review``. Rounds of the planner against greedy at standard rules
(stock 30), played first (not timed); then each round is reviewed for seat 1 and seat 2, as the
review page and ``cardroom review`` do, and timed. The goal: a whole 2-player round (both seats)
reviewed in under 10 s on this machine. Then whole Skyjo games (the Hard counter against a
slipping one, to the end score), reviewed the same way by the Master level: seconds per game.
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.bots.review import review
from cardroom.bots.skyjo import review as skyjo_review
from cardroom.games import get_game
from cardroom.games.base import ACTION, NEXT_ROUND, Step
from cardroom.sim.play import play_match

SKIP = get_game("skip")
SKYJO = get_game("skyjo")
GOAL = 10.0


def main(rounds: int = 3, seed: int = 1) -> None:
    console = Console()
    options = SKIP.options_from_json({"players": 2, "match_target": None})
    rows = []
    for number in range(rounds):
        match_seed = f"review-bench/{seed}/{number}"
        bots = [make_bot("planner", f"{match_seed}/0"), make_bot("greedy", f"{match_seed}/1")]
        match = play_match(options, match_seed, bots)
        steps = [Step(ACTION, s, SKIP.action_to_json(a)) for s, a in match.rounds[0].moves]
        started = time.perf_counter()
        decisions = sum(review(options, match_seed, steps, seat).decisions for seat in (0, 1))
        rows.append((time.perf_counter() - started, decisions, match.rounds[0].turns))
    table = Table(title="Post-game review of whole 2-player rounds (both seats)")
    for column in ("round", "table turns", "decisions scored", "seconds", f"goal < {GOAL:g} s"):
        table.add_column(column, justify="right")
    for index, (seconds, decisions, turns) in enumerate(rows, start=1):
        ok = "yes" if seconds < GOAL else "NO"
        table.add_row(str(index), str(turns), str(decisions), f"{seconds:.2f}", ok)
    console.print(table)
    worst = max(r[0] for r in rows)
    console.print(
        f"median {statistics.median(r[0] for r in rows):.2f} s, worst {worst:.2f} s per round; "
        f"command: cardroom bench review --rounds {rounds} --seed {seed}"
    )
    skyjo_games = [skyjo_game(f"review-bench/skyjo/{seed}/{n}") for n in range(rounds)]
    per_game: list[float] = []  # seconds
    decisions = 0
    for match_seed, steps in skyjo_games:
        started = time.perf_counter()
        skyjo_options = SKYJO.options_from_json({"players": 2})
        for seat in (0, 1):
            decisions += skyjo_review.review(skyjo_options, match_seed, steps, seat).decisions
        per_game.append(time.perf_counter() - started)
    console.print(
        f"Skyjo: {rounds} whole 2-player games ({decisions} decisions, both seats) reviewed by "
        f"the Master level: median {statistics.median(per_game):.2f} s, "
        f"worst {max(per_game):.2f} s per game"
    )


def skyjo_game(match_seed: str) -> tuple[str, list[Step]]:
    """A whole Skyjo game, the Hard counter against a counter that slips, as stored steps."""
    match = SKYJO.new_match(SKYJO.options_from_json({"players": 2}), match_seed)
    slipping = {"slip": 0.1, "counting": 0, "column": 0.3, "gift": 0.0}
    bots = [make_bot("counter", match_seed, game="skyjo")]
    bots.append(make_bot("casual", match_seed, slipping, game="skyjo"))
    steps: list[Step] = []
    while not match.over:
        step = Step(NEXT_ROUND)
        if not match.between_rounds:
            seat = match.current
            assert seat is not None
            step = Step(ACTION, seat, SKYJO.action_to_json(bots[seat].choose(match.view(seat))))
        match.apply_step(step)
        steps.append(step)
    return match_seed, steps
