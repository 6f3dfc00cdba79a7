"""Engine speed and memory: whole greedy games, legal-action listings, applied moves, state size.

Run: ``cardroom bench engine`` (or ``python -m cardroom.benchmarks.engine``). One process,
one core, CPU time. Skip: 2-player greedy games as ``simulate`` plays them, raced batch by
batch against Skip's reference (``games/skip/reference.py``: the same games in the tightest
plain Python), so the ratio holds on a shared machine; the table says whether the compiled
build (mypyc) or pure Python ran.
Goals (issue 16): pure Python at 2x its former ~480 rounds per CPU second, i.e. at least 0.71 of
the tight reference; a compiled build within 2x of the fastest JS peer. ``--game skyjo`` measures
Skyjo instead: whole greedy games to 100 as ``simulate`` and ``tournament`` play them (a view
per decision, the bot's choice from it, the rules' check, the move applied without events),
in CPU time and as a ratio to a reference loop timed in the same run, since a shared machine's
speed moves by tens of percent. Goal: at least 1,000 two-player games per second.
"""

from __future__ import annotations

import gc
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardroom.bots import make_bot
from cardroom.build import running
from cardroom.games import get_game
from cardroom.games.base import StateEngine
from cardroom.sim.play import play_match

SKIP = get_game("skip")
SKYJO = get_game("skyjo")


def _engine(game: Any) -> StateEngine:
    assert game.engine is not None, f"{game.title} has no state engine to measure"
    return game.engine


def _options(players: int) -> Any:
    """Skip's single-round options for ``players`` (the default stock)."""
    return SKIP.options_from_json({"players": players, "match_target": None})


@dataclass
class Figure:
    what: str
    value: float
    unit: str
    digits: int = 0


def games_per_second(players: int, seconds: float, batches: int = 7) -> tuple[float, float, float]:
    """Single-round greedy matches with the default stock, played as ``simulate`` plays them
    (trusted bots, no move log), in CPU time: (best, median) games per CPU second, and rounds
    per game. The best batch and the median are both reported: a shared machine's speed moves
    by tens of percent from second to second."""
    options = _options(players)
    bots = [make_bot("greedy", seat) for seat in range(players)]
    rates = []
    games = rounds = 0
    for _ in range(batches):
        start = time.process_time()
        played = 0
        while time.process_time() - start < seconds / batches or played < 5:
            match = play_match(options, f"bench/{games}", bots, record=False)
            rounds += len(match.rounds)
            games += 1
            played += 1
        rates.append(played / (time.process_time() - start))
    return max(rates), statistics.median(rates), rounds / games


@dataclass
class Race:
    """The engine against the tight reference on the same 2-player games, batch by batch."""

    engine: list[float]
    reference: list[float]
    ratios: list[float]
    rounds_per_game: float


def race_reference(seconds: float, batches: int = 7, players: int = 2) -> Race:
    """Greedy games per CPU second of the engine (as ``simulate`` plays them) and of
    Skip's reference (the same games in the tightest plain Python), batches interleaved so
    both see the same machine; a batch's ratio compares neighbours in time."""
    options = _options(players)
    bots = [make_bot("greedy", seat) for seat in range(players)]
    reference_game = _engine(SKIP).reference
    assert reference_game is not None
    engine, reference, ratios = [], [], []
    games = rounds = 0
    for batch in range(batches):
        first = games
        start = time.process_time()
        while time.process_time() - start < seconds / batches / 2 or games - first < 5:
            rounds += len(play_match(options, f"race/{games}", bots, record=False).rounds)
            games += 1
        engine.append((games - first) / (time.process_time() - start))
        start = time.process_time()
        for game in range(first, games):
            reference_game(players, options.stock, f"race/{game}")
        reference.append((games - first) / (time.process_time() - start))
        ratios.append(engine[batch] / reference[batch])
    return Race(engine, reference, ratios, rounds / games)


JS_PEER_PER_REFERENCE = 7.5 / 2.8
"""The fastest JavaScript peer's games per CPU second over the tight reference's: both were
measured against the engine of issue 16 (7.5x and 2.8x its ~480 rounds per CPU second)."""


def reference_loop_seconds(
    repeats: int = 5, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, float]:
    """(best, median) seconds of a fixed pure-Python loop: how fast this core is right now.

    On a shared virtual machine this moves by tens of percent; compare games/s between runs
    only together with this figure.
    """
    times = []
    for _ in range(repeats):
        start = clock()
        total = 0
        for i in range(1_000_000):
            total += i & 7
        times.append(clock() - start)
    return min(times), statistics.median(times)


def sample_positions(count: int) -> list:
    """States taken from greedy 4-player games, to time listings and moves on real positions."""
    options = _options(4)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    rules = _engine(SKIP)
    new_round, view, apply = rules.new_round, rules.view, rules.apply
    states: list[Any] = []
    actions: list[Any] = []
    seed = 0
    while len(states) < count:
        state = new_round(options, f"positions/{seed}")
        seed += 1
        while state.result is None and len(states) < count:
            action = bots[state.current].choose(view(state, state.current))
            states.append(state.copy())
            actions.append(action)
            apply(state, action)
    return list(zip(states, actions, strict=True))


def listings_per_second(positions: list, repeats: int = 3) -> float:
    legal_actions = _engine(SKIP).legal_actions
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for state, _ in positions:
            legal_actions(state)
        best = min(best, time.perf_counter() - start)
    return len(positions) / best


def moves_per_second(positions: list, repeats: int = 3) -> float:
    apply = _engine(SKIP).apply
    best = float("inf")
    for _ in range(repeats):
        copies = [(state.copy(), action) for state, action in positions]
        start = time.perf_counter()
        for state, action in copies:
            apply(state, action)
        best = min(best, time.perf_counter() - start)
    return len(positions) / best


def bytes_per_state(players: int, count: int = 500) -> float:
    options = _options(players)
    new_round = _engine(SKIP).new_round
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = [new_round(options, seed) for seed in range(count)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del states
    return (after - before) / count


def run(seconds: float = 3.0) -> list[Figure]:
    figures = []
    best, median = reference_loop_seconds(clock=time.process_time)
    label = "reference loop, 1M iterations, best CPU time (machine speed)"
    figures.append(Figure(label, best * 1000, "ms"))
    figures.append(Figure("reference loop, 1M iterations, median", median * 1000, "ms"))
    race = race_reference(seconds)
    label = f"2-player greedy games, engine ({running()}), as simulate plays them"
    figures.append(Figure(f"{label}, best batch", max(race.engine), "games/CPU s"))
    figures.append(Figure(f"{label}, median batch", statistics.median(race.engine), "games/CPU s"))
    rounds = statistics.median(race.engine) * race.rounds_per_game
    figures.append(Figure("  the same in rounds, median batch", rounds, "rounds/CPU s"))
    label = "2-player greedy games, tight plain-Python reference (games/skip/reference.py)"
    figures.append(Figure(f"{label}, median", statistics.median(race.reference), "games/CPU s"))
    ratio = statistics.median(race.ratios)
    figures.append(Figure("engine ÷ tight reference, median of batches", ratio, "×", 2))
    figures.append(
        Figure(
            "engine ÷ fastest JS peer (estimated: 2.68 × the tight reference)",
            ratio / JS_PEER_PER_REFERENCE,
            "×",
            2,
        )
    )
    for players in (4, 6):
        best, median, _ = games_per_second(players, seconds)
        label = f"{players}-player greedy games (one round, default stock)"
        figures.append(Figure(f"{label}, best batch", best, "games/CPU s"))
        figures.append(Figure(f"{label}, median batch", median, "games/CPU s"))
    # 20,000 positions at the default 3 s; fewer for a quick look (--seconds 0.1).
    positions = sample_positions(max(500, round(20_000 * min(1.0, seconds / 3.0))))
    figures.append(
        Figure("legal-action listings (4-player positions)", listings_per_second(positions), "/s")
    )
    figures.append(Figure("applied moves, checked, with events", moves_per_second(positions), "/s"))
    for players in (2, 4):
        figures.append(
            Figure(
                f"memory per {players}-player state (fresh deal)", bytes_per_state(players), "bytes"
            )
        )
    return figures


def skyjo_games_per_second(
    players: int, seconds: float, batches: int = 7
) -> tuple[float, float, float]:
    """Whole Skyjo games to 100 between greedy bots, in CPU time: (best, median) games per
    CPU second, moves per game. Time another process takes from this core is not counted."""
    options = SKYJO.options_from_json({"players": players})
    bots = [make_bot("greedy", seat, game="skyjo") for seat in range(players)]
    rates = []
    games = moves = 0
    for _ in range(batches):
        start = time.process_time()
        played = 0
        while time.process_time() - start < seconds / batches or played < 2:
            match = play_match(options, f"bench/{games}", bots)
            moves += sum(len(log.moves) for log in match.rounds)  # not match.moves(): a copy
            games += 1
            played += 1
        rates.append(played / (time.process_time() - start))
    return max(rates), statistics.median(rates), moves / games


def skyjo_told_moves_per_second(count: int, repeats: int = 3) -> float:
    """Moves applied as a table applies them (``apply``: checked, with the events it tells),
    on positions of 2-player greedy games, per CPU second."""
    rules = _engine(SKYJO)
    options = SKYJO.options_from_json({"players": 2})
    bots = [make_bot("greedy", seat, game="skyjo") for seat in range(2)]
    positions: list[tuple[Any, Any]] = []
    seed = 0
    while len(positions) < count:
        state = rules.new_round(options, f"positions/{seed}")
        seed += 1
        while state.result is None and len(positions) < count:
            action = bots[state.current].choose(rules.view(state, state.current))
            positions.append((state.copy(), action))
            rules.apply(state, action)
    best = float("inf")
    for _ in range(repeats):
        copies = [(state.copy(), action) for state, action in positions]
        start = time.process_time()
        for state, action in copies:
            rules.apply(state, action)
        best = min(best, time.process_time() - start)
    return len(positions) / best


def run_skyjo(seconds: float = 3.0) -> list[Figure]:
    figures = []
    reference, median = reference_loop_seconds(clock=time.process_time)
    label = "reference loop, 1M iterations, best CPU time (machine speed)"
    figures.append(Figure(label, reference * 1000, "ms"))
    figures.append(Figure("reference loop, 1M iterations, median", median * 1000, "ms"))
    for players in (2, 4):
        best, median, moves = skyjo_games_per_second(players, seconds)
        label = f"{players}-player greedy Skyjo games (to 100)"
        figures.append(Figure(f"{label}, best batch", best, "games/CPU s"))
        figures.append(Figure(f"{label}, median batch", median, "games/CPU s"))
        figures.append(
            Figure(
                f"  {players}-player games in one reference loop's time, best batch",
                best * reference,
                "games/loop",
                1,
            )
        )
        figures.append(Figure(f"  moves per {players}-player game", moves, "moves"))
    count = max(500, round(20_000 * min(1.0, seconds / 3.0)))
    figures.append(
        Figure(
            "Skyjo moves applied as a table does (checked, with events)",
            skyjo_told_moves_per_second(count),
            "/CPU s",
        )
    )
    return figures


def main_skyjo(seconds: float = 3.0) -> None:
    _print(
        run_skyjo(seconds),
        "command: cardroom bench engine --game skyjo   goal: ≥ 1,000 two-player greedy games "
        "per CPU second, best batch\na game: play_match as simulate plays it (a view per "
        "decision, greedy's choice, the rules' check, the move applied without events); "
        "games per reference loop compare runs on machines of other speeds",
    )


def main(seconds: float = 3.0) -> None:
    _print(
        run(seconds),
        "command: cardroom bench engine   goals (issue 16): pure Python ≥ 2× the ~480 2-player "
        "rounds per CPU second of before (engine ÷ tight reference ≥ 0.71); a compiled build "
        "within 2× of the fastest JS peer (engine ÷ JS peer ≥ 0.5)",
    )


def _print(figures: list[Figure], caption: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"cardroom bench engine — Python {platform.python_version()}, {platform.machine()}",
        caption=caption,
    )
    table.add_column("measured")
    table.add_column("figure", justify="right")
    table.add_column("unit")
    for figure in figures:
        table.add_row(figure.what, f"{figure.value:,.{figure.digits}f}", figure.unit)
    Console().print(table)


if __name__ == "__main__":
    main()
