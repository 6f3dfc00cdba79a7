"""``tournament``: bots against bots on duplicate deals, with win rates you can trust."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cardroom.batches import ClusterError, Refused
from cardroom.bots import bots_for
from cardroom.bots.specs import bot_label
from cardroom.commands.common import (
    ADDRESS_HELP,
    BATCH_HELP,
    CLUSTER_HELP,
    GAME_HELP,
    SECRET_HELP,
    check_answered,
    cli_options,
    cluster_of,
    fail,
    parse_bots,
    parse_game,
    secret_of,
    writable_file,
)
from cardroom.games import get_game
from cardroom.progress import game_progress
from cardroom.sim.play import BotError, game_of
from cardroom.sim.tournament import GameResult, Tournament, run, schedule

console = Console()


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


def tournament_command(
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bots, comma-separated: names (planner), levels (master), settings "
            '(planner:defence=0) or programs (cmd:"python mybot.py"). Default: '
            "expert,planner,greedy for Skip, counter,greedy for Skyjo.",
            show_default=False,
        ),
    ] = None,
    players: Annotated[int, typer.Option(help="Seats at the table (2-8).")] = 2,
    games: Annotated[
        int, typer.Option(min=1, help="Games per pairing, rounded up to whole seat rotations.")
    ] = 100,
    seed: Annotated[int, typer.Option(help="The same seed gives the same deals.")] = 1,
    jobs: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Worker processes playing games at once (default: one per core, or per CPU "
            "of the cluster).",
        ),
    ] = None,
    teams: Annotated[bool, typer.Option(help="Teams of two, partners opposite (R2.3).")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="House rule key=value, repeatable (match_target=500 for matches).",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option(min=0.01, help="Seconds a cmd: bot has per decision.")
    ] = 5.0,
    plot: Annotated[
        Path | None, typer.Option(help="Draw win rates with 95% intervals to this image (.png).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
    cluster: Annotated[str | None, typer.Option(help=CLUSTER_HELP)] = None,
    address: Annotated[str | None, typer.Option(help=ADDRESS_HELP)] = None,
    batch: Annotated[int | None, typer.Option(min=1, help=BATCH_HELP)] = None,
    secret: Annotated[str | None, typer.Option(help=SECRET_HELP)] = None,
) -> None:
    """Play every pairing of the bots on duplicate deals and report win rates with intervals.

    A Skip game is one round (unless match_target is set); a Skyjo game is a whole game to
    its end score."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    game = parse_game(game)
    terminal = get_game(game).terminal
    options = cli_options(game, players, teams, option, **terminal.tournament_options)
    if bots is None:
        bots = terminal.tournament_bots or ",".join(bots_for(game))
    entrants = parse_bots(bots, game)
    if options.players < 2:
        fail("a tournament needs at least 2 players")
    if len(set(entrants)) < 2 or len(set(entrants)) < len(entrants):
        fail(
            "a tournament compares bots: give 2 or more different ones (e.g. --bots "
            f"{entrants[0]},{'random' if entrants[0] != 'random' else 'greedy'}); "
            f"for one bot alone use cardroom simulate --bots {entrants[0]}"
        )
    if plot is not None:
        check_plot_path(plot)
    where = cluster_of(cluster, address, jobs)
    key = secret_of(secret, entrants)
    total = len(schedule(entrants, options, games, seed))
    workers = jobs or os.cpu_count() or 1
    standings = Standings(entrants)
    try:
        with game_progress("tournament", total, quiet=as_json, status=standings.line) as advance:

            def counted(result: GameResult) -> None:
                standings.add(result)
                advance()

            result = run(
                entrants,
                options,
                games,
                seed,
                jobs=workers,
                timeout=timeout,
                on_game=counted,
                secret=key,
                cluster=where,
                batch=batch,
            )
    except BotError as error:
        fail(str(error), 1, label="failed")
    except Refused as error:
        fail(str(error))
    except ClusterError as error:
        fail(str(error), 1, label="failed")
    check_answered(
        [
            (bot_label(name), len(stats.times), stats.turns_lost)
            for name, stats in result.stats.items()
        ]
    )
    if plot is not None:
        try:
            draw_plot(result, plot)
        except OSError as error:
            fail(f"cannot write the plot to {plot}: {error}", 1, label="failed")
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print_tournament(result)
        if plot is not None:
            console.print(f"plot written to {plot}")


class Standings:
    """The live table beside the progress bar: each bot's win rate so far, as games come back
    (from local processes or a cluster's batches)."""

    def __init__(self, entrants: list[str]) -> None:
        self.games = dict.fromkeys(entrants, 0)
        self.wins = dict.fromkeys(entrants, 0.0)

    def add(self, result: GameResult) -> None:
        seats = result.game.seats
        for name in set(seats):
            self.games[name] += 1
            if any(seats[s] == name for s in result.winners):
                self.wins[name] += 1
            elif not result.winners:
                self.wins[name] += 0.5

    def line(self) -> str:
        return " · ".join(
            f"{bot_label(name)} {self.wins[name] / games:.0%}"
            for name, games in self.games.items()
            if games
        )


def print_tournament(result: Tournament) -> None:
    data = result.to_json()
    o = result.options
    terminal = get_game(game_of(o)).terminal
    console.print(terminal.tournament_headline(o, data, len(result.lineups)))
    if result.secret:
        console.print(
            f"secret {result.secret} (a program played, so the deals are keyed with it; "
            f"--seed {result.seed} --secret {result.secret} plays these games again)"
        )
    # Two narrow tables rather than one wide one: both fit 80 columns, a long bot spec wraps
    # in its own column and no figure is ever cut short.
    results = _table("Results by bot", "games", "wins", "win rate", "95% interval")
    play = _table(
        "How they play",
        "points\n/ round",
        "turns\nto win",
        "decision\np50",
        "decision\np95",
        "turns\nlost",
    )
    for name, stats in data["bots"].items():
        name = stats["name"]
        low, high = stats["win_rate_95"]
        turns = stats["mean_turns_to_win"]
        results.add_row(
            name,
            str(stats["games"]),
            str(stats["wins"]),
            f"{stats['win_rate']:.1%}",
            f"{low:.1%}–{high:.1%}",
        )
        play.add_row(
            name,
            f"{stats['mean_points_per_round']:.1f}",
            "-" if turns is None else f"{turns:.1f}",
            f"{stats['decision_ms_p50']:.2f} ms",
            f"{stats['decision_ms_p95']:.2f} ms",
            str(stats["turns_lost"]),
        )
    console.print(results)
    console.print(play)
    if len(result.lineups) > 1:
        pairs = _table("By pairing (one section each)", "win rate", "95% interval")
        for index, pairing in enumerate(data["pairings"]):
            for name, s in pairing["bots"].items():
                low, high = s["win_rate_95"]
                pairs.add_row(bot_label(name), f"{s['win_rate']:.1%}", f"{low:.1%}–{high:.1%}")
            if index < len(data["pairings"]) - 1:
                pairs.add_section()
        console.print(pairs)


def _table(title: str, *figures: str) -> Table:
    """A table whose first column (a bot spec) folds when long and whose figures never wrap."""
    table = Table(title=title, title_justify="left")
    table.add_column("bot", overflow="fold", ratio=1, min_width=10)
    for column in figures:
        table.add_column(column, justify="right", no_wrap=True)
    return table


def check_plot_path(path: Path) -> None:
    """Refuse a plot that could not be written before playing, not after."""
    writable_file(path, "the plot")
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        fail(f"--plot needs a file name ending in {', '.join('.' + f for f in PLOT_FORMATS)}")


PLOT_FORMATS = ("png", "svg", "pdf")


def draw_plot(result: Tournament, path: Path) -> None:
    """Win rates as points with their 95% Wilson intervals (matplotlib, no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = result.to_json()["bots"]
    names = [data[n]["name"] for n in data]
    rates = [data[n]["win_rate"] for n in data]
    low = [r - data[n]["win_rate_95"][0] for n, r in zip(data, rates, strict=True)]
    high = [data[n]["win_rate_95"][1] - r for n, r in zip(data, rates, strict=True)]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.4 * len(names) + 2), 3.6))
    axes.bar(names, rates, color="#5b8def", alpha=0.8)
    axes.errorbar(names, rates, yerr=[low, high], fmt="none", ecolor="black", capsize=6)
    axes.axhline(1 / max(1, len(result.lineups[0])), color="grey", linestyle="--", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% Wilson interval)")
    o = result.options
    title = get_game(game_of(o)).terminal.plot_title(o, result.games)
    axes.set_title(f"{title}, seed {result.seed}", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
