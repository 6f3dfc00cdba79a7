"""What a Ray cluster costs and gives: a tournament's games per second on two local processes
(``--jobs 2``, the reference) and on a local Ray of two workers, on the same deals, and what
one batch costs beside its games.

Run: ``cardroom bench cluster``. The machine's speed swings, so the Ray figures are given as
ratios to the reference measured in the same run. The per-batch cost (a batch that plays
nothing, sent to a worker and answered) says what more machines give: a cluster of N
machines of c cores plays about ``N·c·r / (1 + cost / batch time)`` games a second, where r is
one process's rate and a batch's time is its games over r.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from cardroom.batches import RayCluster, connected, run_batches
from cardroom.games import get_game
from cardroom.sim.tournament import batch_size, run, schedule

BOTS = ("greedy", "planner")
WORKERS = 2
EMPTY_BATCHES = 200


@dataclass(frozen=True, slots=True)
class Figure:
    what: str
    value: str
    goal: str = ""


def _nothing(batch: int) -> int:
    """A batch that plays nothing: what is left of it is the cluster's cost."""
    return batch


def measure(games: int, seed: int) -> tuple[list[Figure], str]:
    """The figures, and the note on N machines."""
    terminal = get_game("skip").terminal
    options = terminal.options_from_cli(2, [], teams=False, **terminal.tournament_options)
    total = len(schedule(list(BOTS), options, games, seed))
    started = time.perf_counter()
    local = run(list(BOTS), options, games, seed, jobs=WORKERS)
    local_seconds = time.perf_counter() - started
    cluster = RayCluster(workers=WORKERS)
    started = time.perf_counter()
    with connected(cluster):
        ray_start = time.perf_counter() - started
        started = time.perf_counter()
        on_ray = run(list(BOTS), options, games, seed, cluster=cluster)
        ray_seconds = time.perf_counter() - started
        started = time.perf_counter()
        list(run_batches(_nothing, list(range(EMPTY_BATCHES)), cluster))
        empty_seconds = time.perf_counter() - started
        started = time.perf_counter()
        list(run_batches(_nothing, [0] * WORKERS, cluster))
        workers_start = time.perf_counter() - started
    per_batch = max(0.0, empty_seconds - workers_start) / EMPTY_BATCHES * WORKERS
    same = "yes" if on_ray.digest == local.digest else "NO"
    local_rate = total / local_seconds
    ray_rate = total / ray_seconds
    size = batch_size(total)
    per_game = WORKERS / local_rate  # one process's seconds per game
    overhead = per_batch / (size * per_game)
    figures = [
        Figure("games (same deals both ways)", f"{total} ({' vs '.join(BOTS)}, seed {seed})"),
        Figure("--jobs 2: games/s (the reference)", f"{local_rate:.1f}"),
        Figure(
            "local Ray, 2 workers: games/s",
            f"{ray_rate:.1f} ({ray_rate / local_rate:.2f}× the reference)",
            "≥ 0.8× once started",
        ),
        Figure("the same games, move for move (digest)", same, "yes"),
        Figure("starting a local Ray (once a run)", f"{ray_start:.1f} s"),
        Figure("starting the run's workers (actors)", f"{workers_start:.2f} s"),
        Figure(
            "cost of one batch (sent, run, answered)",
            f"{1000 * per_batch:.2f} ms per worker "
            f"({overhead:.1%} of a batch of {size} games here)",
            "< 5% of a batch",
        ),
    ]
    note = (
        f"A cluster of N machines of c cores plays about N·c·{local_rate / WORKERS:.1f}"
        f" / (1 + {overhead:.3f}) games a second of these bots (one process plays "
        f"{local_rate / WORKERS:.1f}; a batch of {size} games loses {overhead:.1%} to the "
        f"cluster), plus {workers_start:.1f} s to start its workers: e.g. 10 machines of 8 cores"
        f" ≈ {80 * local_rate / WORKERS / (1 + overhead):.0f} games/s. Slower bots (expert,"
        " master) make the batch's cost smaller still."
    )
    return figures, note


def main(games: int = 200, seed: int = 1) -> None:
    from rich.console import Console
    from rich.table import Table

    figures, note = measure(games, seed)
    table = Table(
        title=f"A tournament on a local Ray of {WORKERS} workers vs --jobs {WORKERS}",
        title_justify="left",
    )
    for column in ("measured", "figure", "goal"):
        table.add_column(column)
    for figure in figures:
        table.add_row(figure.what, figure.value, figure.goal)
    console = Console()
    console.print(table)
    console.print(note)
    console.print(
        f"command: cardroom bench cluster --games {games} --seed {seed}  "
        f"(the tournament: cardroom tournament --bots {','.join(BOTS)} --games {games} "
        f"--seed {seed}, with --jobs 2 and with --cluster ray --jobs 2)"
    )


if __name__ == "__main__":
    main()
