"""``review``: a finished game's costliest turns for one seat, as the game's judge sees them
(Skip: the expert, in stock cards; Skyjo: the Hard counter, in expected points)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.review import Review, TurnReview
from cardroom.bots.reviews import REVIEWERS, review_match
from cardroom.commands.common import fail
from cardroom.commands.json_files import RECORDS_HINT, read_record, replay_hint
from cardroom.games import get_game
from cardroom.games.base import ReplayError

console = Console()


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)


def review_command(
    file: Annotated[
        Path, typer.Argument(help="A Skip or Skyjo game record (JSON, docs/notation.md).")
    ],
    seat: Annotated[int, typer.Option(help="The seat to review, 1 to the number of players.")],
    top: Annotated[int, typer.Option(min=1, help="How many of the costliest turns to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
) -> None:
    """Score every turn of one seat with the expert, from that seat's view at the time, and
    list the costliest with what the expert would have played and why."""
    record = load_record(file)
    game = record.get("game", "skip")
    options = get_game(game).options_from_json(record["options"])
    if not 1 <= seat <= options.players:
        fail(f"--seat is 1 to {options.players} for this game, not {seat}")
    played = get_game(game)
    steps = played.steps_of_record(record)
    result = review_match(game, options, str(record.get("seed", "")), steps, seat - 1)
    if as_json:
        data = result.to_json(top)
        data["seat"] = seat
        print(json.dumps(data, indent=2))
        return
    names = [s.get("name") for s in record.get("seats") or []]
    name = names[seat - 1] if seat <= len(names) and names[seat - 1] else f"Seat {seat}"
    print_review(result, name, top, played.terminal.describe_action)


def load_record(file: Path) -> dict:
    """A Skip or Skyjo record that replays (R7.5), or a one-line refusal."""
    record = read_record(file)
    if not isinstance(record, dict) or record.get("game", "skip") not in REVIEWERS:
        fail(
            f"{file}: review reads Skip and Skyjo game records "
            f"(cardroom simulate --records, or a finished match); {RECORDS_HINT}"
        )
    game = record.get("game", "skip")
    try:
        get_game(game).replay_record(record)
    except ReplayError as error:
        hint = get_game(game).terminal.rules_hint
        fail(f"{file}: {error}; {replay_hint(str(error), hint)}")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        fail(f"{file}: the record is malformed ({type(error).__name__}: {error}); {RECORDS_HINT}")
    return record


def print_review(result: Review, name: str, top: int, describe: Callable[[Any], str] = str) -> None:
    costly = result.costliest(top)
    scale = result.scale
    if scale.name == "points":
        how = (
            f"expected points given away in all ({scale.judge}'s weighing; lower is better). "
            "C column, R row."
        )
    else:
        how = (
            "stock cards given away in all (the expert's evaluation: a stock card played = 1). "
            "H hand, S stock, D your discard pile, B building pile."
        )
    console.print(
        f"[bold]{name}[/]: {len(result.turns)} turns, {result.decisions} decisions reviewed; "
        f"{result.total / scale.unit:.2f} {how}"
    )
    if not costly:
        console.print(f"Every turn matched {scale.judge}'s choice.")
        return
    table = Table(title=f"The {len(costly)} costliest turns", title_justify="left")
    table.add_column("round", justify="right")
    table.add_column("turn", justify="right")
    table.add_column("cost", justify="right")
    table.add_column("played", overflow="fold")
    table.add_column(f"{scale.judge} instead", overflow="fold")
    table.add_column("why", overflow="fold", ratio=2)
    for turn in costly:
        table.add_row(
            str(turn.round),
            str(turn.turn),
            f"{turn.cost / scale.unit:.2f}",
            played_text(turn, describe),
            "; ".join(describe(a) for a in turn.expert),
            turn.reason,
        )
    console.print(table)


def played_text(turn: TurnReview, describe: Callable[[Any], str] = str) -> str:
    """The step where the most was lost, in the turn's count of steps."""
    return f"{describe(turn.instead_of)} (step {turn.instead_at} of {len(turn.played)})"
