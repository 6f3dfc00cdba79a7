"""``keep``: add up a Skyjo or Skip game played with physical cards, from its kept-game file.

The arithmetic is the score keeper's (``cardroom.keeper``), which is the engines' own: the
command only reads the file, and prints the sheet as a table, CSV or JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.commands import json_files
from cardroom.commands.common import fail
from cardroom.keeper import (
    KeeperError,
    KeptGame,
    SkipRound,
    SkyjoRound,
    SkyjoSettings,
    from_json,
    to_csv,
    to_json,
)

console = Console()
HINT = json_files.KEPT_GAMES_HINT


def register(app: typer.Typer) -> None:
    app.command("keep")(keep_command)


def keep_command(
    file: Annotated[Path, typer.Argument(help="A kept-game JSON file (docs/keeper.md).")],
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the sheet as CSV.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the game with its results as JSON.")
    ] = False,
) -> None:
    """Add up a game played with physical cards (Skyjo or Skip): every round scored as the
    engines score it, the running totals, the leader, the end and the winners."""
    if as_csv and as_json:
        fail("choose --csv or --json, not both")
    kept = read_kept_game(file)
    if as_csv:
        print(to_csv(kept), end="")
    elif as_json:
        print(json.dumps(to_json(kept, results=True), indent=2, ensure_ascii=False))
    else:
        console.print(sheet_table(kept))
        console.print(escape(kept.sheet.outcome))


def read_kept_game(path: Path) -> KeptGame:
    """The kept game in ``path``, or a one-line refusal naming the file and the field."""
    data = json_files.read_kept_game(path)
    try:
        return from_json(data)
    except KeeperError as error:
        fail(f"{path}: {error}; {HINT}")


def sheet_table(kept: KeptGame) -> Table:
    """Rounds by players: each round's points, a mark for the closer or who went out (and
    ×2 for a doubled closer, S4.3), the running totals, and the note saying why."""
    sheet, settings = kept.sheet, kept.settings
    if isinstance(settings, SkyjoSettings):
        title = f"Skyjo, to {settings.end_score} (S5.1)"
        legend = "points (running total); * closed the round, ×2 doubled (S4.3)"
    else:
        target = settings.match_target
        title = "Skip, " + ("a single round" if target is None else f"to {target}") + " (R6.3)"
        if settings.teams:
            title += ", teams " + " v ".join(" & ".join(team) for team in settings.teams)
        legend = "points (running total); * went out"
    table = Table(title=escape(title), caption=legend, title_justify="left")
    table.add_column("round", justify="right")
    for name in kept.players:
        table.add_column(escape(name), justify="right")
    table.add_column("note")
    for entry, line in zip(kept.rounds, sheet.lines, strict=True):
        cells = []
        for seat, (points, total) in enumerate(zip(line.points, line.totals, strict=True)):
            mark = ""
            if isinstance(entry, SkyjoRound) and seat == entry.closer:
                mark = " ×2*" if line.doubled else " *"
            elif isinstance(entry, SkipRound) and seat == entry.went_out:
                mark = " *"
            cells.append(f"{points}{mark} [dim]({total})[/]")
        note = escape(line.note) + (" [bold]game over[/]" if line.ends else "")
        table.add_row(str(line.number), *cells, note)
    best = sheet.winners if sheet.winners is not None else sheet.leaders
    totals = [
        f"[bold green]{total}[/]" if seat in best else f"[bold]{total}[/]"
        for seat, total in enumerate(sheet.totals)
    ]
    table.add_row("total", *totals, "winner" if sheet.over else "leader", end_section=True)
    return table
