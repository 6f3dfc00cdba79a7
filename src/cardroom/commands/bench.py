"""``bench``: the benchmark scripts under ``benchmarks/``, run from the CLI."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated

import typer

bench = typer.Typer(help="Benchmarks: print what was measured, the figures and the command.")


def _load(name: str):
    """Import ``benchmarks.<name>`` from the project checkout (they are not installed code)."""
    root = Path(__file__).resolve().parents[3]
    if not (root / "benchmarks" / f"{name}.py").exists():
        raise typer.BadParameter(
            f"benchmarks/{name}.py not found under {root}; run from a checkout"
        )
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"benchmarks.{name}")


@bench.command("engine")
def engine(
    seconds: Annotated[float, typer.Option(help="Seconds per game-speed measurement.")] = 3.0,
) -> None:
    """Games per second, legal-action listings and moves per second, memory per state."""
    _load("engine").main(seconds)


@bench.command("bots")
def bots(
    decisions: Annotated[int, typer.Option(help="Positions to time each bot on.")] = 400,
    games: Annotated[int, typer.Option(help="Tournament games per comparison (0: none).")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes for the tournaments.")] = 2,
) -> None:
    """Bot decision times (p50/p95) and, with --games, duplicate-deal win rates."""
    _load("bots").main(decisions, games, jobs)


@bench.command("weights")
def weights(
    games: Annotated[int, typer.Option(help="Duplicate games per variant.")] = 400,
    seed: Annotated[int, typer.Option(help="The same seed gives the same deals.")] = 21,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 2,
    focus: Annotated[str | None, typer.Option(help="Only this weight (e.g. empty_pile).")] = None,
    around: Annotated[
        str, typer.Option(help="Vary the weights of: planner (the defaults) or expert.")
    ] = "planner",
) -> None:
    """Each planner weight halved and doubled, against the default planner: which ones matter."""
    screen = _load("weights")
    if around not in screen.BASES:
        raise typer.BadParameter(" or ".join(screen.BASES), param_hint="--around")
    screen.main(games, seed, jobs, focus, around)


@bench.command("server")
def server(
    tables: Annotated[
        int, typer.Option(help="Concurrent two-seat tables (one socket each).")
    ] = 500,
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 10.0,
    think: Annotated[float, typer.Option(help="Mean seconds a client thinks per move.")] = 1.0,
) -> None:
    """Game-server moves per second and move latency vs a bare WebSocket echo."""
    _load("server_load").main(tables, seconds, think)


@bench.command("finishing")
def finishing() -> None:
    """A table's move latency while another match is counted by the league (off the writer)."""
    _load("finishing").main()


def register(app: typer.Typer) -> None:
    app.add_typer(bench, name="bench")
