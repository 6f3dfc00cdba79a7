"""``simulate``, ``replay`` and ``watch``: bot matches and game records in the terminal."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots import BOTS, make_bot
from cardroom.commands.progress import game_progress
from cardroom.games.skip import Match, Options, OptionsError, ReplayError, replay, view
from cardroom.sim.play import play_round
from cardroom.sim.render import position_table, scores_table
from cardroom.sim.simulate import Summary, simulate

console = Console()
errors = Console(stderr=True)
RULES_HINT = "The rules and house rules, by id (R1.1 …), are in docs/rules.md."


def parse_options(players: int, teams: bool, pairs: list[str] | None, **base: object) -> Options:
    try:
        return Options.parse_pairs(pairs or [], players=players, teams=teams, **base)
    except OptionsError as error:
        errors.print(f"[red]bad options:[/] {error}")
        errors.print(RULES_HINT)
        raise typer.Exit(2) from None


def parse_bots(spec: str) -> list[str]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if not names or unknown:
        errors.print(
            f"[red]unknown bot(s):[/] {', '.join(unknown) or spec!r}; "
            f"choose from {', '.join(sorted(BOTS))}"
        )
        raise typer.Exit(2)
    return names


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
    app.command("replay")(replay_command)
    app.command("watch")(watch_command)


def simulate_command(
    players: Annotated[int, typer.Option(help="Seats at the table (1-8).")] = 2,
    bots: Annotated[
        str, typer.Option(help="Bot names, comma-separated, repeated to fill seats.")
    ] = "greedy",
    games: Annotated[int, typer.Option(min=1, help="Matches to play.")] = 100,
    seed: Annotated[int, typer.Option(help="The same seed gives the same output.")] = 1,
    teams: Annotated[bool, typer.Option(help="Teams of two, partners opposite (R2.3).")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="House rule key=value, repeatable (docs/rules.md)."),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Write one game record per match here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play many bot matches and print who wins, from which seat, and how fast."""
    options = parse_options(players, teams, option)
    names = parse_bots(bots)
    with game_progress("simulating", games, quiet=as_json) as advance:
        summary = simulate(options, names, games, seed, records=records, on_game=advance)
    if as_json:
        print(json.dumps(summary.to_json(), indent=2, sort_keys=True))
    else:
        print_summary(summary)


def print_summary(summary: Summary) -> None:
    o = summary.options
    target = "single round" if o.match_target is None else f"to {o.match_target}"
    console.print(
        f"{summary.games} matches, {o.players} players{' in teams' if o.teams else ''}, "
        f"stock {o.stock}, {target}: {summary.rounds} rounds, "
        f"{summary.turns_per_round:.1f} turns per round, {summary.stalemates} stalemates (R6.4)"
    )
    table = Table(title="Results by bot", title_justify="left")
    for column in ("bot", "seats played", "wins", "win rate", "points / round"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name, stats in sorted(summary.bots.items()):
        table.add_row(
            name,
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
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="A game record (JSON).")
    ],
) -> None:
    """Replay a game record move by move; refuse it if any move is illegal or altered."""
    try:
        record = json.loads(file.read_text())
        match = replay(record)
    except json.JSONDecodeError as error:
        errors.print(f"[red]refused:[/] {file} is not JSON ({error})")
        raise typer.Exit(1) from None
    except ReplayError as error:
        errors.print(f"[red]refused:[/] {error}")
        errors.print(RULES_HINT)
        raise typer.Exit(1) from None
    names = [seat.get("name", f"Seat {i + 1}") for i, seat in enumerate(record.get("seats", []))]
    names += [f"Seat {i + 1}" for i in range(len(names), match.options.players)]
    moves = sum(len(log.moves) for log in match.rounds)
    console.print(f"[green]valid:[/] {len(match.rounds)} rounds, {moves} moves replayed")
    console.print(position_table(view(match.state, None), names))
    console.print(scores_table(match, names))
    if match.winners is not None:
        console.print(
            "Winner: " + " & ".join(names[s] for s in match.winners)
            if match.winners
            else "No winner"
        )


def watch_command(
    players: Annotated[int, typer.Option(help="Seats at the table (1-8).")] = 4,
    bots: Annotated[str, typer.Option(help="Bot names, comma-separated.")] = "greedy,random",
    seed: Annotated[int, typer.Option()] = 1,
    teams: Annotated[bool, typer.Option()] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o")] = None,
    pause: Annotated[float, typer.Option(help="Seconds between rounds.")] = 1.0,
) -> None:
    """Watch a bot match, round by round, in the terminal."""
    options = parse_options(players, teams, option)
    names_in_order = parse_bots(bots)
    seat_bots = [names_in_order[i % len(names_in_order)] for i in range(players)]
    names = [f"{name} {i + 1}" for i, name in enumerate(seat_bots)]
    table_bots = [make_bot(name, f"{seed}/{i}") for i, name in enumerate(seat_bots)]
    match = Match(options, seed)
    target = "a single round" if options.match_target is None else f"{options.match_target} points"
    console.print(
        f"[bold]{', '.join(names)}[/] play to {target}; seat {match.first_dealer + 1} deals."
    )
    while True:
        play_round(match, table_bots)
        log = match.rounds[-1]
        assert log.result is not None
        winners = " & ".join(names[s] for s in log.result.winners) or "nobody"
        how = "stalemate (R6.4)" if log.result.stalemate else "stock emptied"
        console.rule(f"Round {log.number}: won by {winners} ({how}) after {log.turns} turns")
        console.print(position_table(view(match.state, None), names))
        console.print(
            "Points this round: "
            + ", ".join(f"{names[s]} {p}" for s, p in enumerate(log.result.points))
            + "   Totals: "
            + ", ".join(f"{names[s]} {t}" for s, t in enumerate(match.scores))
        )
        if match.over:
            break
        time.sleep(pause)
        match.next_round()
    console.print(scores_table(match, names))
    if match.winners:
        console.print("[bold]Match won by " + " & ".join(names[s] for s in match.winners) + "[/]")
