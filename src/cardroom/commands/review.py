"""``review``: a finished Skip game's costliest turns for one seat, as the expert sees them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.bots.review import STOCK_CARD, Review, TurnReview, review
from cardroom.commands.common import fail
from cardroom.games.skip import Options, ReplayError, replay
from cardroom.games.skip.cards import card_name
from cardroom.games.skip.facts import steps_of_record

console = Console()


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)


def review_command(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="A Skip game record (JSON).")
    ],
    seat: Annotated[int, typer.Option(help="The seat to review, 1 to the number of players.")],
    top: Annotated[int, typer.Option(min=1, help="How many of the costliest turns to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
) -> None:
    """Score every turn of one seat with the expert, from that seat's view at the time, and
    list the costliest with what the expert would have played and why."""
    record = load_record(file)
    options = Options.from_json(record["options"])
    if not 1 <= seat <= options.players:
        fail(f"--seat is 1 to {options.players} for this game, not {seat}")
    result = review(options, str(record.get("seed", "")), steps_of_record(record), seat - 1)
    if as_json:
        data = result.to_json(top)
        data["seat"] = seat
        print(json.dumps(data, indent=2))
        return
    names = [s.get("name") for s in record.get("seats") or []]
    name = names[seat - 1] if seat <= len(names) and names[seat - 1] else f"Seat {seat}"
    print_review(result, name, top)


def load_record(file: Path) -> dict:
    """A Skip record that replays (R7.5), or a one-line refusal."""
    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(f"cannot read {file} as JSON: {error}", 1)
    if not isinstance(record, dict) or record.get("game", "skip") != "skip":
        fail("review reads Skip game records (cardroom simulate --records, or a finished match)")
    try:
        replay(record)
    except ReplayError as error:
        fail(f"{error}; see cardroom replay", 1)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        fail(f"the record is malformed ({type(error).__name__}: {error})", 1)
    return record


def print_review(result: Review, name: str, top: int) -> None:
    costly = result.costliest(top)
    console.print(
        f"[bold]{name}[/]: {len(result.turns)} turns, {result.decisions} decisions reviewed; "
        f"{result.total / STOCK_CARD:.2f} stock cards given away in all "
        "(the expert's evaluation: a stock card played = 1). "
        "H hand, S stock, D your discard pile, B building pile."
    )
    if not costly:
        console.print("Every turn matched the expert's choice.")
        return
    table = Table(title=f"The {len(costly)} costliest turns", title_justify="left")
    table.add_column("round", justify="right")
    table.add_column("turn", justify="right")
    table.add_column("cost", justify="right")
    table.add_column("played", overflow="fold")
    table.add_column("the expert instead", overflow="fold")
    table.add_column("why", overflow="fold", ratio=2)
    for turn in costly:
        table.add_row(
            str(turn.round),
            str(turn.turn),
            f"{turn.cost / STOCK_CARD:.2f}",
            played_text(turn),
            "; ".join(describe(a) for a in turn.expert),
            turn.reason,
        )
    console.print(table)


def played_text(turn: TurnReview) -> str:
    """The step where the most was lost, in the turn's count of steps."""
    return f"{describe(turn.instead_of)} (step {turn.instead_at} of {len(turn.played)})"


def describe(action: Any) -> str:
    """An action as a short phrase: "H7→B2", "S→B1", "D3→B1", "discard 9 on D3"."""
    kind = getattr(action, "kind", "")
    if kind == "play":
        source = {
            "hand": f"H{card_name(action.card)}",
            "stock": "S",
            "discard": f"D{action.pile + 1}",
            "partner_stock": "partner's S",
            "partner_discard": f"partner's D{action.pile + 1}",
        }[action.source]
        return f"{source}→B{action.to + 1}"
    if kind == "discard":
        whose = "partner's " if action.partner else ""
        return f"discard {card_name(action.card)} on {whose}D{action.pile + 1}"
    return str(kind or action)
