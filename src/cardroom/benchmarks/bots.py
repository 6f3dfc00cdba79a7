"""Bot decision times and strength: what players wait for and how the levels compare.

Run: ``cardroom bench bots`` (or ``python -m cardroom.benchmarks.bots``). Decision times are
CPU seconds of this process (``time.process_time``), measured on the positions real games
reach, so a busy shared machine does not inflate them; each searching bot's p95 is also given
as a multiple of the planner's p95 measured in the same run. Strength comes from duplicate-deal
tournaments (``cardroom tournament``) whose commands are printed with the figures so anyone can
repeat them.

``cardroom bench bots --game skyjo`` times Skyjo's Hard (the counter) and Master (the search),
over every decision of Hard-vs-Hard rounds and over those where the Master searches; its goal:
the Master's p95 at most 1 s on one core (issue 35).

Goals: planner p95 under 20 ms; expert p95 at most 1 s (its short-horizon search too); planner
beats greedy in at least 75% of 2-player duplicate games; expert beats planner in at least 58%
(lower 95% bound above 50%); planner teams beat greedy teams.
"""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass
from typing import Any

from cardroom.bots import Bot, make_bot
from cardroom.bots.levels import LEVELS, SKYJO_LEVELS
from cardroom.games import get_game
from cardroom.sim.tournament import percentile
from cardroom.sim.tournament import run as tournament

SKIP = get_game("skip")
RULES = SKIP.engine
assert RULES is not None
new_round, apply_fast, view, legal_actions = (
    RULES.new_round,
    RULES.apply_fast,
    RULES.view,
    RULES.legal_actions,
)
State = Any
"""A Skip position (the engine's state)."""


def skip_options(**values: Any) -> Any:
    """Skip's options from keyword values, as the contract builds them."""
    return SKIP.options_from_json(values)


HORIZON = {"horizon": 1}  # the short-horizon search with the learned leaf (bots/value.py)
EIGHT_SAMPLES = {"samples": 8, "candidates": 3}  # a third of the Master's search, for scale


@dataclass
class Figure:
    what: str
    value: str
    command: str


def positions(count: int, players: int = 2, seed: int = 1, endgame: int = 0) -> list[State]:
    """Positions from planner-vs-planner rounds, one for every decision, until ``count``; with
    ``endgame`` only those where some stock is down to that many cards (where the expert
    searches, so where it is slowest)."""
    options = skip_options(players=players, match_target=None)
    planner = make_bot("planner")
    found: list[State] = []
    game = 0
    while len(found) < count:
        state = new_round(options, f"bench-bots:{seed}:{game}")
        while state.result is None and len(found) < count:
            if not endgame or min(c for c in map(len, state.stocks) if c) <= endgame:
                found.append(state.copy())
            apply_fast(state, planner.choose(view(state, state.current)))
        game += 1
    return found


def decision_times(bot: Bot, states: list[State]) -> tuple[float, float]:
    """p50 and p95 CPU seconds per decision over ``states``; each answer is checked to be
    legal."""
    times = []
    for state in states:
        seen = view(state, state.current)
        started = time.process_time()
        action = bot.choose(seen)
        times.append(time.process_time() - started)
        assert action in legal_actions(state)
    times.sort()
    return percentile(times, 0.5), percentile(times, 0.95)


def run(decisions: int = 400, games: int = 0, jobs: int = 2) -> list[Figure]:
    figures = []
    states = positions(decisions)
    endgame = positions(decisions // 4, endgame=3)
    reference = 0.0
    for label, bot, sample in (
        ("greedy (Medium)", LEVELS["medium"].make(), states),
        ("planner (Hard)", LEVELS["hard"].make(), states),
        ("expert (Master)", LEVELS["master"].make(), states[: decisions // 4]),
        ("expert, 8 samples, endgame", make_bot("expert", 0, EIGHT_SAMPLES), endgame),
        ("expert (Master), endgame", LEVELS["master"].make(), endgame),
        ("expert:horizon=1 (default budget)", make_bot("expert", 0, HORIZON), states[::4]),
    ):
        p50, p95 = decision_times(bot, sample)
        if label.startswith("planner"):
            reference = p95
        relative = f" ({p95 / reference:,.0f}× planner)" if reference and p95 > reference else ""
        figures.append(
            Figure(
                f"{label}: CPU time per decision p50 / p95 ({len(sample)} positions)",
                f"{1000 * p50:.2f} / {1000 * p95:.2f} ms{relative}",
                "cardroom bench bots",
            )
        )
    if games:
        for bots, options in (
            (["planner", "greedy"], skip_options(players=2, match_target=None)),
            (["planner", "greedy"], skip_options(players=4, teams=True, match_target=None)),
            (["expert", "planner"], skip_options(players=2, match_target=None)),
        ):
            result = tournament(bots, options, games, seed=1, jobs=jobs).to_json()
            first = result["bots"][bots[0]]
            low, high = first["win_rate_95"]
            teams = " --teams" if options.teams else ""
            figures.append(
                Figure(
                    f"{bots[0]} vs {bots[1]}, {options.players} players{teams}: win rate",
                    f"{first['win_rate']:.1%} [{low:.1%}, {high:.1%}] of {first['games']}",
                    f"cardroom tournament --bots {','.join(bots)} --players {options.players}"
                    f"{teams} --games {games} --seed 1 --jobs {jobs}",
                )
            )
    return figures


def skyjo_positions(
    count: int, players: int = 2, seed: int = 1, searched: bool = False
) -> list[State]:
    """Positions of Hard-vs-Hard Skyjo rounds, one for every decision, until ``count``; with
    ``searched`` only those where the Master searches (some grid down to its last face-down
    cards, nobody closed): its slowest decisions."""
    skyjo = get_game("skyjo")
    engine = skyjo.engine
    assert engine is not None
    options = skyjo.options_from_json({"players": players})
    master = SKYJO_LEVELS["master"].make()
    found: list[State] = []
    game = 0
    while len(found) < count:
        state = engine.new_round(options, f"bench-bots:skyjo:{seed}:{game}")
        bots = [SKYJO_LEVELS["hard"].make(f"{game}:{seat}") for seat in range(players)]
        while state.result is None and len(found) < count:
            seen = engine.view(state, state.current)
            if not searched or master.searching(seen):  # type: ignore[attr-defined]
                found.append(state.copy())
            engine.apply_fast(state, bots[state.current].choose(seen))
        game += 1
    return found


def run_skyjo(decisions: int = 400) -> list[Figure]:
    """Skyjo's Hard and Master: CPU per decision over all of a round's decisions, and over
    those where the Master searches; the goal is the Master's p95 at most 1 s on one core."""
    engine = get_game("skyjo").engine
    assert engine is not None
    figures = []
    for label, level, players, searched in (
        ("counter (Hard)", "hard", 2, False),
        ("search (Master)", "master", 2, False),
        ("search (Master), where it searches", "master", 2, True),
        ("search (Master), where it searches, 4 players", "master", 4, True),
    ):
        states = skyjo_positions(decisions, players, searched=searched)
        times = []
        for index, state in enumerate(states):
            bot = SKYJO_LEVELS[level].make(index)  # a fresh bot: no memory of other rounds
            seen = engine.view(state, state.current)
            started = time.process_time()
            action = bot.choose(seen)
            times.append(time.process_time() - started)
            assert action in engine.legal_actions(state)
        times.sort()
        p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
        goal = " (goal ≤ 1,000 ms)" if level == "master" else ""
        figures.append(
            Figure(
                f"Skyjo {label}: CPU time per decision p50 / p95 ({len(states)} positions, "
                f"{players} players)",
                f"{1000 * p50:.2f} / {1000 * p95:.2f} ms{goal}",
                f"cardroom bench bots --game skyjo --decisions {decisions}",
            )
        )
    return figures


def main(decisions: int = 400, games: int = 0, jobs: int = 2, game: str = "skip") -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"Bots on {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}",
        title_justify="left",
    )
    for column in ("measured", "figure", "command"):
        table.add_column(column)
    for figure in run_skyjo(decisions) if game == "skyjo" else run(decisions, games, jobs):
        table.add_row(figure.what, figure.value, figure.command)
    Console().print(table)


if __name__ == "__main__":
    main()
