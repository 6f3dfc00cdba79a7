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

from cardroom.bots.specs import bot_label, make_bot_from_spec
from cardroom.commands.common import (
    GAME_HELP,
    check_answered,
    fail,
    parse_bots,
    parse_game,
    skyjo_options,
    writable_folder,
)
from cardroom.commands.json_files import RECORDS_HINT, read_record, replay_hint
from cardroom.commands.progress import game_progress
from cardroom.games import skyjo
from cardroom.games.base import derive_seed
from cardroom.games.skip import Match, Options, OptionsError, ReplayError, replay, view
from cardroom.sim.play import BotError, play_round, play_skyjo_round
from cardroom.sim.render import (
    position_table,
    scores_table,
    skyjo_grids_table,
    skyjo_scores_table,
)
from cardroom.sim.simulate import Summary, close_bots, simulate

console = Console()

BOTS_HELP = (
    "Bots, comma-separated, repeated to fill the seats: names (planner), levels (master), "
    'settings (planner:defence=20) or programs (cmd:"python mybot.py", docs/bot-protocol.md).'
)
OPTION_HELP = "House rule key=value, repeatable (e.g. stock=low, match_target=200; docs/rules.md)."
RULES_HINT = "the rules, by id (R1.1 …), are in docs/rules.md"
SKYJO_RULES_HINT = "the rules, by id (S1.1 …), are in docs/skyjo-rules.md"


def parse_options(players: int, teams: bool, pairs: list[str] | None, **base: object) -> Options:
    try:
        return Options.parse_pairs(pairs or [], players=players, teams=teams, **base)
    except OptionsError as error:
        fail(f"{error}; {RULES_HINT}", label="bad options")


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
) -> None:
    """Play many bot matches and print who wins, from which seat, and how fast."""
    game = parse_game(game)
    options = game_options(game, players, teams, option)
    names = parse_bots(bots, game)
    if records is not None:
        writable_folder(records, "game records")
    try:
        with game_progress("simulating", games, quiet=as_json) as advance:
            summary = simulate(options, names, games, seed, records=records, on_game=advance)
    except BotError as error:
        fail(str(error), 1, label="failed")
    except OSError as error:
        fail(f"cannot write the game records: {error}", 1, label="failed")
    check_answered(
        [(bot_label(name), s.decisions, s.turns_lost) for name, s in summary.bots.items()]
    )
    if as_json:
        print(json.dumps(summary.to_json(), indent=2, sort_keys=True))
    else:
        print_summary(summary)


def game_options(game: str, players: int, teams: bool, pairs: list[str] | None) -> Any:
    """The options of ``game`` from the command line (Skyjo has no teams)."""
    if game == "skip":
        return parse_options(players, teams, pairs)
    if teams:
        fail("Skyjo has no teams; --teams is a Skip option")
    return skyjo_options(pairs, players)


def print_summary(summary: Summary) -> None:
    o = summary.options
    if isinstance(o, skyjo.Options):
        console.print(
            f"{summary.games} Skyjo games, {o.players} players, to {o.end_score}: "
            f"{summary.rounds} rounds, {summary.turns_per_round:.1f} turns per round"
        )
    else:
        console.print(
            f"{summary.games} matches, {o.players} players{' in teams' if o.teams else ''}, "
            f"stock {o.stock}, {target_text(o)}: {summary.rounds} rounds, "
            f"{summary.turns_per_round:.1f} turns per round, {summary.stalemates} stalemates "
            "(R6.4)"
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


def target_text(o: Options) -> str:
    return "single round" if o.match_target is None else f"to {o.match_target}"


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, docs/notation.md).")],
) -> None:
    """Replay a game record move by move; refuse it if any move is illegal or altered."""
    record = read_record(file)
    played = record.get("game", "skip") if isinstance(record, dict) else "skip"
    if played not in ("skip", "skyjo"):
        fail(f"{file}: a record of an unknown game {played!r}; this replays skip and skyjo records")
    hint = RULES_HINT if played == "skip" else SKYJO_RULES_HINT
    try:
        match = skyjo.replay(record) if played == "skyjo" else replay(record)
    except ReplayError as error:
        fail(f"{file}: {error}; {replay_hint(str(error), hint)}")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        # Whatever the record schema lets through and the replay trips on: a refusal all the same.
        fail(f"{file}: the record is malformed ({type(error).__name__}: {error}); {RECORDS_HINT}")
    names = [seat.get("name") or f"Seat {i + 1}" for i, seat in enumerate(record.get("seats", []))]
    names = [str(name) for name in names[: match.options.players]]
    names += [f"Seat {i + 1}" for i in range(len(names), match.options.players)]
    moves = sum(len(log.moves) for log in match.rounds)
    console.print(f"[green]valid:[/] {len(match.rounds)} rounds, {moves} moves replayed")
    if isinstance(match, skyjo.Match):  # played == "skyjo"
        console.print(skyjo_grids_table(match.view(None), names))
        console.print(skyjo_scores_table(match, names))
    else:
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
        if game == "skyjo":
            watch_skyjo(options, seed, table_bots, names, pause)
        else:
            watch(options, seed, table_bots, names, pause)
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
    options: Options, seed: int, table_bots: list[Any], names: list[str], pause: float
) -> None:
    """Play and show the match, one round at a time, ``pause`` seconds apart."""
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
        console.print(points_line(names, log.result.points, match.scores))
        if match.over:
            break
        time.sleep(pause)
        match.next_round()
    console.print(scores_table(match, names))
    if match.winners:
        console.print("[bold]Match won by " + " & ".join(names[s] for s in match.winners) + "[/]")


def points_line(names: list[str], points: Sequence[int], totals: Sequence[int]) -> str:
    """A round's points and the totals after it, by name (``watch``, either game)."""
    this_round = ", ".join(f"{names[s]} {p}" for s, p in enumerate(points))
    return f"Points this round: {this_round}   Totals: " + ", ".join(
        f"{names[s]} {t}" for s, t in enumerate(totals)
    )


def watch_skyjo(
    options: skyjo.Options, seed: int, table_bots: list[Any], names: list[str], pause: float
) -> None:
    """Play and show a Skyjo game, one round at a time, ``pause`` seconds apart."""
    match = skyjo.Match(options, seed)
    console.print(f"[bold]{', '.join(names)}[/] play Skyjo to {options.end_score}.")
    while True:
        play_skyjo_round(match, table_bots)
        result = match.state.result
        assert result is not None
        doubled = " (doubled, S4.3)" if result.doubled else ""
        console.rule(f"Round {match.round_number}: closed by {names[result.closer]}{doubled}")
        console.print(skyjo_grids_table(match.view(None), names))
        console.print(points_line(names, result.points, match.scores))
        if match.over:
            break
        time.sleep(pause)
        match.next_round()
    console.print(skyjo_scores_table(match, names))
    if match.winners:
        console.print("[bold]Won by " + " & ".join(names[s] for s in match.winners) + "[/]")
