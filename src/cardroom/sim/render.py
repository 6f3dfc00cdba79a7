"""Plain-text pictures of a position and a match, for the terminal (rich renderables)."""

from __future__ import annotations

from rich.table import Table

from cardroom.games.skip import Match, SeatView
from cardroom.games.skip.cards import describe
from cardroom.games.skyjo import Match as SkyjoMatch
from cardroom.games.skyjo import SeatView as SkyjoView

COLOURS = {range(1, 5): "blue", range(5, 9): "green", range(9, 13): "magenta"}


def card_markup(card: int | None) -> str:
    """A card in the R1.3 palette, the number always shown."""
    if card is None:
        return "[dim]·[/]"
    if card == 0:
        return "[bold dark_orange]W[/]"
    colour = next(c for r, c in COLOURS.items() if card in r)
    return f"[bold {colour}]{card}[/]"


def position_table(view: SeatView, names: list[str]) -> Table:
    """Building piles, then each seat's stock, discard piles and hand size (a spectator's view)."""
    piles = "  ".join(
        f"[{describe(pile[-1:]) if pile else '-'}→{value + 1 if value < 12 else '-'}]"
        for pile, value in zip(view.building, view.values, strict=True)
    )
    table = Table(
        title=f"Building piles {piles}   draw {view.draw_count}   completed {view.completed_count}",
        title_justify="left",
    )
    table.add_column("seat")
    table.add_column("stock top", justify="center")
    table.add_column("stock", justify="right")
    table.add_column("discard piles")
    table.add_column("hand", justify="right")
    for seat in range(view.players):
        marker = "▶ " if seat == view.current and view.result is None else "  "
        partner = ""
        if view.partners is not None:
            partner = f" (team {min(seat, view.partners[seat]) + 1})"
        discards = " [dim]│[/] ".join(
            " ".join(card_markup(c) for c in pile) if pile else "[dim]-[/]"
            for pile in view.discards[seat]
        )
        table.add_row(
            f"{marker}{names[seat]}{partner}",
            card_markup(view.stock_tops[seat]),
            str(view.stock_counts[seat]),
            discards,
            str(view.hand_counts[seat]),
        )
    return table


def scores_table(match: Match, names: list[str]) -> Table:
    """Points per round and the running totals (R6.2)."""
    table = Table(title="Scores", title_justify="left")
    table.add_column("round", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("how it ended")
    for log in match.rounds:
        if log.result is None:
            continue
        how = "stalemate (R6.4)" if log.result.stalemate else "stock emptied"
        if not log.result.winners:
            how += ", no winner"
        table.add_row(str(log.number), *(str(p) for p in log.result.points), how)
    table.add_row("total", *(f"[bold]{s}[/]" for s in match.scores), "", end_section=True)
    return table


def skyjo_grids_table(view: SkyjoView, names: list[str]) -> Table:
    """Every seat's grid as three rows of four columns (a spectator's view): ``?`` face
    down, ``·`` a removed column (S3.1)."""
    table = Table(
        title=f"Discard top {view.discard_top}   draw {view.draw_count}", title_justify="left"
    )
    table.add_column("seat")
    for row in range(3):
        table.add_column(f"row {row + 1}")
    table.add_column("face up", justify="right")
    for seat, grid in enumerate(view.grids):
        marker = "▶ " if seat == view.current and view.result is None else "  "
        rows = [
            " ".join(f"{_skyjo_cell(grid[column * 3 + row]):>3}" for column in range(4))
            for row in range(3)
        ]
        up = sum(c for c in grid if isinstance(c, int))
        table.add_row(f"{marker}{names[seat]}", *rows, str(up))
    return table


def _skyjo_cell(cell: int | str | None) -> str:
    return "·" if cell is None else str(cell)


def skyjo_scores_table(match: SkyjoMatch, names: list[str]) -> Table:
    """Points per round and the running totals (S4.2, S4.3, S5.1)."""
    table = Table(title="Scores", title_justify="left")
    table.add_column("round", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("closer")
    for log in match.rounds:
        if log.result is None:
            continue
        result = log.result
        closer = names[result.closer] + (" (doubled, S4.3)" if result.doubled else "")
        table.add_row(str(log.number), *(str(p) for p in result.points), closer)
    table.add_row("total", *(f"[bold]{s}[/]" for s in match.scores), "", end_section=True)
    return table
