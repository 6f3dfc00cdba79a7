"""``bench``: the benchmarks of ``cardroom.benchmarks``, run from the CLI.

They are part of the installed package, so they run from a wheel as from a checkout; each is
imported only when its command runs (they pull in the server, matplotlib...).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Annotated

import typer

from cardroom.commands.common import GAME_HELP, fail, parse_game

bench = typer.Typer(help="Benchmarks: print what was measured, the figures and the command.")


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"cardroom.benchmarks.{name}")


@bench.command("engine")
def engine(
    seconds: Annotated[
        float, typer.Option(min=0.01, help="Seconds per game-speed measurement.")
    ] = 3.0,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
) -> None:
    """Games per second, legal-action listings and moves per second, memory per state."""
    if parse_game(game) == "skyjo":
        _load("engine").main_skyjo(seconds)
    else:
        _load("engine").main(seconds)


@bench.command("bots")
def bots(
    decisions: Annotated[int, typer.Option(min=4, help="Positions to time each bot on.")] = 400,
    games: Annotated[
        int, typer.Option(min=0, help="Tournament games per comparison (0: none).")
    ] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes for the tournaments.")] = 2,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
) -> None:
    """Bot decision times (p50/p95) and, with --games, duplicate-deal win rates (Skip; Skyjo's
    strength is ``cardroom tournament --game skyjo``, docs/bots.md)."""
    game = parse_game(game)
    if game == "skyjo" and games:
        fail("--games is Skip's; for Skyjo run cardroom tournament --game skyjo (docs/bots.md)")
    _load("bots").main(decisions, games, jobs, game)


@bench.command("weights")
def weights(
    games: Annotated[int, typer.Option(min=1, help="Duplicate games per variant.")] = 400,
    seed: Annotated[
        int, typer.Option(help="The same seed gives the same deals, so the same table.")
    ] = 21,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 2,
    focus: Annotated[
        str | None, typer.Option(help="Only this weight (e.g. empty_pile); default: all.")
    ] = None,
    around: Annotated[
        str, typer.Option(help="Vary the weights of: planner (the defaults) or expert.")
    ] = "planner",
    teams: Annotated[
        bool, typer.Option(help="4 players in teams of two instead of 2 players (R2.3).")
    ] = False,
) -> None:
    """Each planner weight halved and doubled, against the default planner: which ones matter."""
    screen = _load("weights")
    if around not in screen.BASES:
        fail(f"--around is {' or '.join(screen.BASES)}, not {around!r}")
    if focus is not None and focus not in screen.tunable(around, teams):
        fail(f"--focus is one of {', '.join(screen.tunable(around, teams))}, not {focus!r}")
    screen.main(games, seed, jobs, focus, around, teams)


@bench.command("server")
def server(
    tables: Annotated[
        int, typer.Option(min=1, help="Concurrent two-seat tables (one socket each).")
    ] = 500,
    seconds: Annotated[float, typer.Option(min=0.1, help="Seconds per measurement.")] = 10.0,
    think: Annotated[
        float, typer.Option(min=0, help="Mean seconds a client thinks per move.")
    ] = 1.0,
    churn: Annotated[
        float,
        typer.Option(
            min=0, help="Watchers a second who open a table's socket, read it, close (0: none)."
        ),
    ] = 40.0,
) -> None:
    """Game-server moves per second and move latency vs a bare WebSocket echo."""
    _load("server_load").main(tables, seconds, think, churn)


@bench.command("soak")
def soak(
    minutes: Annotated[float, typer.Option(min=0.05, help="Minutes of load.")] = 10.0,
    tables: Annotated[
        int, typer.Option(min=1, help="People at once, each making tables and playing them.")
    ] = 200,
    db: Annotated[
        str | None, typer.Option(help="postgresql://… (default: SQLite in a temporary folder).")
    ] = None,
    redis: Annotated[
        str | None, typer.Option(help="redis://… : with --db, two server processes.")
    ] = None,
    every: Annotated[float, typer.Option(min=0.5, help="Seconds between samples.")] = 10.0,
    watchers: Annotated[float, typer.Option(min=0.1, help="Watcher visits a second.")] = 5.0,
    out: Annotated[
        str | None, typer.Option(help="The plot's PNG (default: soak-TIME.png).")
    ] = None,
) -> None:
    """A server under a life-like load for minutes or hours: is what it holds flat?"""
    flat = _load("soak").main(minutes, tables, db, redis, every, watchers, out)
    if not flat:
        raise typer.Exit(1)


@bench.command("firstload")
def firstload(
    trials: Annotated[
        int, typer.Option(min=1, help="Loads of each kind (the median is shown).")
    ] = 3,
) -> None:
    """The lobby's first load on a throttled phone in Chromium: ready time, requests, bytes."""
    _load("first_load").main(trials)


@bench.command("journal")
def journal(
    tables: Annotated[int, typer.Option(min=1, help="Tables writing at once.")] = 200,
    moves: Annotated[int, typer.Option(min=1, help="Moves each table writes.")] = 50,
) -> None:
    """CPU per stored move through the journal (SQLite), with and without its fence."""
    _load("journal_cost").main(tables, moves)


@bench.command("finishing")
def finishing() -> None:
    """A table's move latency while another match is counted by the league (off the writer)."""
    _load("finishing").main()


@bench.command("abuse")
def abuse(
    messages: Annotated[
        int, typer.Option(min=1, help="Junk WebSocket messages to send.")
    ] = 100_000,
    sockets: Annotated[int, typer.Option(min=1, help="Sockets opened to one table.")] = 1000,
    requests: Annotated[int, typer.Option(min=1, help="Fuzzed HTTP requests.")] = 10_000,
    port: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=65535,
            help="The port (on 127.0.0.1) of the server it starts; it must be free. "
            "Default: a free port the system picks.",
        ),
    ] = None,
) -> None:
    """A hostile client's long run against a real server: floods, fuzz, privacy; what held.

    It starts its own server (``cardroom serve`` on a temporary SQLite database, on
    ``--port`` or a free port) and stops it at the end."""
    abuse_bench = _load("abuse")
    if port is not None and not abuse_bench.port_is_free(port):
        raise typer.BadParameter(f"port {port} is in use on 127.0.0.1", param_hint="--port")
    if not abuse_bench.main(messages, sockets, requests, port):
        fail("some probes did not hold (the table above)", 1)


@bench.command("review")
def review(
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play, then review.")] = 3,
    seed: Annotated[int, typer.Option(help="The same seed gives the same rounds.")] = 1,
) -> None:
    """Seconds to review a whole 2-player round, both seats (goal: under 10 s)."""
    _load("review").main(rounds, seed)


@bench.command("matchmaking")
def matchmaking(
    tickets: Annotated[int, typer.Option(min=2, help="Tickets arriving in the queue.")] = 5000,
    rate: Annotated[float, typer.Option(min=0.01, help="Tickets arriving per second.")] = 10.0,
    seed: Annotated[int, typer.Option(help="The same seed gives the same arrivals.")] = 19,
    redis: Annotated[
        str | None, typer.Option(help="A Redis URL: the shared store two processes use.")
    ] = None,
) -> None:
    """Wait percentiles and the mean rating gap of the ranked queue's matches, under load."""
    _load("matchmaking").main(tickets, rate, seed, redis)


@bench.command("cluster")
def cluster(
    games: Annotated[int, typer.Option(min=2, help="Tournament games, the same both ways.")] = 200,
    seed: Annotated[int, typer.Option(help="The same seed gives the same deals.")] = 1,
) -> None:
    """A tournament's games per second on a local Ray of 2 workers vs --jobs 2, and what one
    batch costs (what N machines would give)."""
    try:
        _load("cluster").main(games, seed)
    except ImportError:
        fail("bench cluster needs Ray: pip install 'cardroom[cluster]' (docs/cluster.md)")


def register(app: typer.Typer) -> None:
    app.add_typer(bench, name="bench")
