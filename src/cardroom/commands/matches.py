"""``simulate``, ``replay`` and ``watch``: bot matches and game records in the terminal."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.batches import ClusterError, Refused
from cardroom.bots.specs import bot_label, make_bot_from_spec
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
    writable_folder,
)
from cardroom.commands.json_files import RECORDS_HINT, read_record, replay_hint
from cardroom.games import GAMES, get_game
from cardroom.games.base import ReplayError, derive_seed
from cardroom.progress import game_progress
from cardroom.sim.play import BotError, game_of, new_match, next_round, play_round
from cardroom.sim.render import rich_table
from cardroom.sim.simulate import Summary, close_bots, simulate

console = Console()

BOTS_HELP = (
    "Bots, comma-separated, repeated to fill the seats: names (planner), levels (master), "
    'settings (planner:defence=20) or programs (cmd:"python mybot.py", docs/bot-protocol.md).'
)
OPTION_HELP = "House rule key=value, repeatable (e.g. stock=low, match_target=200; docs/rules.md)."


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
    app.command("replay")(replay_command)
    app.command("watch")(watch_command)


def simulate_command(
    players: Annotated[int, typer.Option(help="Seats at the table (1-8).")] = 2,
    bots: Annotated[str, typer.Option(help=BOTS_HELP)] = "greedy",
    games: Annotated[int, typer.Option(min=1, help="Matches to play.")] = 100,
    seed: Annotated[int, typer.Option(help="The same seed gives the same output.")] = 1,
    teams: Annotated[bool, typer.Option(help="Teams of two, partners opposite (R2.3).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    records: Annotated[
        Path | None,
        typer.Option(help="Folder to write one game record (JSON) per match to; made if needed."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
    cluster: Annotated[str | None, typer.Option(help=CLUSTER_HELP)] = None,
    address: Annotated[str | None, typer.Option(help=ADDRESS_HELP)] = None,
    jobs: Annotated[
        int | None,
        typer.Option(min=1, help="With --cluster: worker processes (default: its CPUs)."),
    ] = None,
    batch: Annotated[int | None, typer.Option(min=1, help=BATCH_HELP)] = None,
    secret: Annotated[str | None, typer.Option(help=SECRET_HELP)] = None,
) -> None:
    """Play many bot matches and print who wins, from which seat, and how fast."""
    game = parse_game(game)
    options = game_options(game, players, teams, option)
    names = parse_bots(bots, game)
    if records is not None:
        writable_folder(records, "game records")
    if jobs is not None and cluster is None:
        fail("--jobs goes with --cluster ray (a simulation runs in this process)")
    where = cluster_of(cluster, address, jobs)
    key = secret_of(secret, names)
    try:
        with game_progress("simulating", games, quiet=as_json) as advance:
            summary = simulate(
                options,
                names,
                games,
                seed,
                records=records,
                on_game=advance,
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
    except OSError as error:
        fail(f"cannot write the game records: {error}", 1, label="failed")
    check_answered(
        [(bot_label(name), s.decisions, s.turns_lost) for name, s in summary.bots.items()]
    )
    if as_json:
        data = summary.to_json()
        if key:
            data["secret"] = key
        print(json.dumps(data, indent=2, sort_keys=True))
    else:
        print_summary(summary)
        if key:
            console.print(
                f"secret {key} (a program played, so the deals are keyed with it; "
                f"--seed {seed} --secret {key} plays these games again)"
            )


def game_options(game: str, players: int, teams: bool, pairs: list[str] | None) -> Any:
    """The options of ``game`` from the command line (Skyjo has no teams)."""
    return cli_options(game, players, teams, pairs)


def print_summary(summary: Summary) -> None:
    o = summary.options
    terminal = get_game(game_of(o)).terminal
    console.print(
        terminal.simulate_headline(
            o, summary.games, summary.rounds, summary.turns_per_round, summary.stalemates
        )
    )
    table = Table(title="Results by bot", title_justify="left")
    for column in ("bot", "seats played", "wins", "win rate", "points / round"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name, stats in sorted(summary.bots.items()):
        table.add_row(
            bot_label(name),
            str(stats.seats_played),
            str(stats.wins),
            f"{stats.win_rate:.1%}",
            f"{stats.points_per_round:.1f}",
        )
    console.print(table)
    seats = Table(title="Match wins by seat", title_justify="left")
    for seat in range(o.players):
        seats.add_column(f"seat {seat + 1}", justify="right")
    seats.add_row(*(str(w) for w in summary.seat_wins))
    console.print(seats)


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, docs/notation.md).")],
) -> None:
    """Replay a game record move by move; refuse it if any move is illegal or altered."""
    record = read_record(file)
    played = record.get("game", "skip") if isinstance(record, dict) else "skip"
    if played not in GAMES:
        *others, last = GAMES
        known = f"{', '.join(others)} and {last}" if others else last
        fail(f"{file}: a record of an unknown game {played!r}; this replays {known} records")
    game = get_game(played)
    hint = game.terminal.rules_hint
    try:
        match = game.replay_record(record)
    except ReplayError as error:
        fail(f"{file}: {error}; {replay_hint(str(error), hint)}")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        # Whatever the record schema lets through and the replay trips on: a refusal all the same.
        fail(f"{file}: the record is malformed ({type(error).__name__}: {error}); {RECORDS_HINT}")
    names = [seat.get("name") or f"Seat {i + 1}" for i, seat in enumerate(record.get("seats", []))]
    names = [str(name) for name in names[: match.options.players]]
    names += [f"Seat {i + 1}" for i in range(len(names), match.options.players)]
    rounds = game.terminal.round_facts(match)
    moves = sum(facts.moves for facts in rounds)
    console.print(f"[green]valid:[/] {len(rounds)} rounds, {moves} moves replayed")
    console.print(rich_table(game.terminal.position(match, names)))
    console.print(rich_table(game.terminal.scores(match, names)))
    if match.winners is not None:
        console.print(
            "Winner: " + " & ".join(names[s] for s in match.winners)
            if match.winners
            else "No winner"
        )


def watch_command(
    players: Annotated[int, typer.Option(help="Seats at the table (1-8).")] = 4,
    bots: Annotated[str, typer.Option(help=BOTS_HELP)] = "greedy,random",
    seed: Annotated[
        int, typer.Option(help="Deals and bots' choices: the same seed shows the same match.")
    ] = 1,
    teams: Annotated[bool, typer.Option(help="Teams of two, partners opposite (R2.3).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    pause: Annotated[float, typer.Option(min=0, help="Seconds to wait between rounds.")] = 1.0,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
) -> None:
    """Watch a bot match, round by round, in the terminal."""
    game = parse_game(game)
    options = game_options(game, players, teams, option)
    names_in_order = parse_bots(bots, game)
    seat_bots = [names_in_order[i % len(names_in_order)] for i in range(players)]
    names = [f"{bot_label(name)} {i + 1}" for i, name in enumerate(seat_bots)]
    table_bots = [
        make_bot_from_spec(name, derive_seed(seed, "bot", i), game=game)
        for i, name in enumerate(seat_bots)
    ]
    try:
        watch(game, options, seed, table_bots, names, pause)
    except BotError as error:
        fail(str(error), 1, label="failed")
    finally:
        close_bots(table_bots)
    check_answered(
        [
            (name, getattr(bot, "decisions", 0), getattr(bot, "turns_lost", 0))
            for bot, name in zip(table_bots, names, strict=True)
        ]
    )


def watch(
    game: str, options: Any, seed: int, table_bots: list[Any], names: list[str], pause: float
) -> None:
    """Play and show the match, one round at a time, ``pause`` seconds apart."""
    played = get_game(game)
    terminal = played.terminal
    match = new_match(played, options, seed)
    console.print(terminal.watch_opening(match, names))
    while True:
        play_round(match, table_bots)
        console.rule(terminal.watch_round(match, names))
        console.print(rich_table(terminal.position(match, names)))
        last = terminal.round_facts(match)[-1]
        console.print(points_line(names, last.points or (), match.scores))
        if match.over:
            break
        time.sleep(pause)
        next_round(match)
    console.print(rich_table(terminal.scores(match, names)))
    if match.winners:
        console.print(terminal.winners_line(match, names))


def points_line(names: list[str], points: Sequence[int], totals: Sequence[int]) -> str:
    """A round's points and the totals after it, by name (``watch``, either game)."""
    this_round = ", ".join(f"{names[s]} {p}" for s, p in enumerate(points))
    return f"Points this round: {this_round}   Totals: " + ", ".join(
        f"{names[s]} {t}" for s, t in enumerate(totals)
    )
