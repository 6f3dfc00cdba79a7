"""``calibrate``: rate the bot levels against each other, print the ladder and, with
``--write``, ship the figures the lobby and the league use (``bots/calibration.json``)."""

from __future__ import annotations

import json
import logging
import os
import shlex
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.batches import ClusterError
from cardroom.bots.calibrated import CALIBRATION_FILE, calibrations, spec_of
from cardroom.bots.levels import levels_for
from cardroom.commands.common import (
    ADDRESS_HELP,
    BATCH_HELP,
    CLUSTER_HELP,
    GAME_HELP,
    cli_options,
    cluster_of,
    fail,
    parse_game,
)
from cardroom.games import get_game
from cardroom.progress import game_progress
from cardroom.sim.play import BotError
from cardroom.sim.tournament import schedule

if TYPE_CHECKING:  # the ratings (and the league's tables) load when a calibration runs
    from cardroom.sim.calibration import Calibration

console = Console()


def register(app: typer.Typer) -> None:
    app.command("calibrate")(calibrate_command)


def calibrate_command(
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
    games: Annotated[
        int, typer.Option(min=2, help="Games per pairing, rounded up to whole seat rotations.")
    ] = 400,
    seed: Annotated[int, typer.Option(help="The same seed gives the same deals.")] = 1,
    players: Annotated[int, typer.Option(help="Seats at the table (2-8).")] = 2,
    teams: Annotated[bool, typer.Option(help="Teams of two, partners opposite (R2.3).")] = False,
    every_pairing: Annotated[
        bool,
        typer.Option(help="Every level against every other, not only its neighbours."),
    ] = False,
    only: Annotated[
        str | None,
        typer.Option(
            "--levels",
            help="A part of the ladder, comma-separated (e.g. hard,master: one step measured "
            "again after a change); default: every level. Not with --write.",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Worker processes playing games at once (default: one per core, or per CPU "
            "of the cluster).",
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option(
            help=f"Store the result for the lobby and the league (bots/{CALIBRATION_FILE.name})."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    cluster: Annotated[str | None, typer.Option(help=CLUSTER_HELP)] = None,
    address: Annotated[str | None, typer.Option(help=ADDRESS_HELP)] = None,
    batch: Annotated[int | None, typer.Option(min=1, help=BATCH_HELP)] = None,
) -> None:
    """Rate the bot levels (Beginner … Master) by playing them against each other on
    duplicate deals: OpenSkill ratings with 95% intervals, and how often each level beats the
    one below it (the ladder wants 65–75%)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    game = parse_game(game)
    levels = levels_for(game)
    if len(levels) < 2:
        fail(f"{game} has fewer than two levels to compare")
    terminal = get_game(game).terminal
    options: Any = cli_options(game, players, teams, [], **terminal.tournament_options)
    from cardroom.sim.calibration import calibrate, pairings_of

    ladder = part_of(list(levels), only)
    if write and len(ladder) < len(levels):
        fail("--write stores the whole ladder: leave --levels out")
    where = cluster_of(cluster, address, jobs)
    pairings = None if every_pairing else pairings_of(ladder, options)
    total = len(schedule(ladder, options, games, seed, pairings))
    try:
        with game_progress("calibration", total, quiet=as_json) as advance:
            result = calibrate(
                game,
                ladder,
                options,
                games,
                seed,
                jobs=jobs or os.cpu_count() or 1,
                every_pairing=every_pairing,
                on_game=advance,
                cluster=where,
                batch=batch,
            )
    except (BotError, ClusterError) as error:
        fail(str(error), 1, label="failed")
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print_calibration(result, {lv.id: lv.name for lv in levels.values()})
    if write:
        store(result)
        if not as_json:
            console.print(f"written to {CALIBRATION_FILE}")


def part_of(ladder: list[str], only: str | None) -> list[str]:
    """The levels ``--levels`` names, in the ladder's order (at least two)."""
    if only is None:
        return ladder
    named = [name.strip().lower() for name in only.split(",") if name.strip()]
    unknown = [name for name in named if name not in ladder]
    if unknown:
        fail(f"--levels: no level {', '.join(unknown)}; the levels are {', '.join(ladder)}")
    part = [level for level in ladder if level in named]
    if len(part) < 2:
        fail("--levels: name at least two levels to compare")
    return part


def store(result: Calibration) -> None:
    """Put ``result`` in the shipped file beside the other games' and modes' calibrations,
    with the levels' specs it measured and the command that made it."""
    levels = levels_for(result.game)
    entry = {
        **result.to_json(),
        "specs": {level: spec_of(levels[level]) for level in levels},
        "command": "cardroom " + shlex.join(sys.argv[1:]),
    }
    calibrations.cache_clear()  # another run may have written since this one began
    shipped = dict(calibrations())
    shipped[f"{result.game}/{result.mode}"] = entry
    document = {
        "about": "The bot levels' ratings, written by `cardroom calibrate --write` "
        "(see cardroom/sim/calibration.py); do not edit by hand.",
        "calibrations": dict(sorted(shipped.items())),
    }
    try:
        CALIBRATION_FILE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        fail(f"cannot write {CALIBRATION_FILE}: {error}", 1, label="failed")
    calibrations.cache_clear()


def print_calibration(result: Calibration, names: dict[str, str]) -> None:
    from cardroom.sim.calibration import SPACING

    console.print(
        f"{result.games} {result.game} games, mode {result.mode}, seed {result.seed}: "
        "ratings on the league's scale (OpenSkill, ordinal = mu − 3σ; the levels start at 25)"
    )
    ratings = Table(title="Levels", title_justify="left")
    for column in ("level", "rating", "95% interval", "mu", "sigma"):
        ratings.add_column(column, justify="left" if column == "level" else "right")
    for rated in result.levels:
        ratings.add_row(
            names.get(rated.level, rated.level),
            f"{rated.ordinal:.1f}",
            f"{rated.low:.1f}–{rated.high:.1f}",
            f"{rated.mu:.2f}",
            f"{rated.sigma:.2f}",
        )
    console.print(ratings)
    low, high = SPACING
    steps = Table(
        title=f"The ladder: each level against the one below (goal {low:.0%}–{high:.0%})",
        title_justify="left",
    )
    for column in ("level", "beats", "games", "win rate", "95% interval", ""):
        steps.add_column(column, justify="left" if column in ("level", "beats") else "right")
    for step in result.steps:
        lo, hi = step.interval
        verdict = "✓" if step.spaced else ("too close" if step.rate < low else "too far apart")
        steps.add_row(
            names.get(step.upper, step.upper),
            names.get(step.lower, step.lower),
            str(step.games),
            f"{step.rate:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            verdict,
        )
    console.print(steps)
