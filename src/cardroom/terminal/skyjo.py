"""Skyjo's board in the terminal: your grid, the draw and discard piles, the card you drew,
and every other grid, from your view's JSON (docs/notation.md, "Skyjo views").

Keys: your grid is the block 1-4 / a s d f / z x c v (column 1-4, row 1-3, as laid out on
the keyboard); n draws from the draw pile, m picks the discard pile (to take its top, or to
discard the card you drew).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from cardroom.terminal.board import Board, Pick, RuleLine, Spot, joined

COLUMNS, ROWS = 4, 3
CELL_KEYS = ("1234", "asdf", "zxcv")  # by row, then column
"""The key of each place in your grid, laid out as the grid is."""


def card_text(card: Any) -> Text:
    """A card by its value's colour (the web's bands); face down ``?``; removed ``×``."""
    if card is None:
        return Text("×", style="dim")
    if card == "?":
        return Text("?", style="bold grey50")
    value = int(card)
    colour = (
        "dodger_blue2"
        if value < 0
        else "cyan"
        if value == 0
        else "green3"
        if value <= 4
        else "yellow"
        if value <= 8
        else "red"
    )
    return Text(str(value), style=f"bold {colour}")


def grid_sum(grid: list[list[Any]]) -> int:
    """The sum of a grid's face-up cards: what it shows, not what it will score."""
    return sum(card for column in grid for card in column if isinstance(card, int))


class SkyjoBoard(Board):
    """Skyjo as your seat sees it: face-down cards are ``?`` to everyone, yourself included;
    the card you drew is yours alone (S2.2)."""

    DEFAULT_CSS = """
    SkyjoBoard #table { height: auto; }
    SkyjoBoard #mine { width: 30; height: auto; }
    SkyjoBoard #mine-title { height: 1; }
    SkyjoBoard .cell { width: 7; }
    SkyjoBoard #piles-column { width: 12; height: auto; }
    SkyjoBoard #spot-draw, SkyjoBoard #spot-discard { width: 11; }
    SkyjoBoard #drawn { height: 3; width: 11; content-align: center middle; }
    SkyjoBoard #others { width: 1fr; height: auto; padding: 1 0 0 1; }
    """

    keys_help = (
        "Your grid is the keys 1-4 / asdf / zxcv, as it is laid out; n draws, m picks the "
        "discard pile (then a card of your grid). Esc lets go."
    )
    rules: ClassVar[Sequence[RuleLine]] = (
        RuleLine("S1.2", "12 cards face down in 4 columns of 3; first, everyone turns two."),
        RuleLine("S1.3", "The highest two cards start the first round; then clockwise."),
        RuleLine("S2.1", "Take the discard pile's top and swap it with any card of yours."),
        RuleLine(
            "S2.2",
            "Or draw a card: swap it with one of yours, or discard it and turn one "
            "of your face-down cards.",
        ),
        RuleLine("S2.3", "An empty draw pile is refilled from the discard pile but its top."),
        RuleLine("S3.1", "Three equal face-up cards in a column are removed."),
        RuleLine("S4.1", "Once someone has every card face up, everyone else plays once more."),
        RuleLine("S4.2", "Your round score is the sum of your cards."),
        RuleLine("S4.3", "The closer without the strictly lowest score scores double (if > 0)."),
        RuleLine("S5.1", "At the end score the game ends: the lowest total wins."),
    )

    def compose(self) -> ComposeResult:
        with Horizontal(id="table"):
            with Vertical(id="mine"):
                yield Static(id="mine-title")
                for row in range(1, ROWS + 1):
                    with Horizontal(classes="row"):
                        for column in range(1, COLUMNS + 1):
                            key = CELL_KEYS[row - 1][column - 1]
                            yield Spot(f"cell-{column}-{row}", key, classes="cell")
            with Vertical(id="piles-column"):
                yield Static("piles", classes="dim")
                yield Spot("draw", "n")
                yield Spot("discard", "m")
                yield Static(id="drawn")
            yield Static(id="others")

    def on_mount(self) -> None:
        self.redraw()

    # -- the view ----------------------------------------------------------------------------

    @property
    def me(self) -> int:
        return int(self.view["seat"])

    def redraw(self) -> None:
        view, me = self.view, self.me
        grid = view["grids"][me]
        self.query_one("#mine-title", Static).update(
            Text.assemble(
                ("You", "bold"), f" · total {view['scores'][me]} · showing {grid_sum(grid)}"
            )
        )
        for column in range(1, COLUMNS + 1):
            for row in range(1, ROWS + 1):
                spot = self.spot(f"cell-{column}-{row}")
                spot.show(card_text(grid[column - 1][row - 1]))
                self.style_spot(spot)
        draw = self.spot("draw")
        draw.show(Text("draw", style="bold"))
        draw.border_subtitle = f"{view['draw_count']}"
        discard = self.spot("discard")
        top = view["discard_top"]
        discard.show(card_text(top) if top is not None else Text("·", style="dim"))
        discard.border_subtitle = f"{view['discard_count']}"
        for spot in (draw, discard):
            self.style_spot(spot)
        drawn = view.get("drawn")
        held: RenderableType = Text("")
        if view["holding"]:
            holder = (
                "you drew" if view["current"] == me else f"{self.seat_name(view['current'])} drew"
            )
            held = Group(Text(holder, style="dim"), card_text(drawn if drawn is not None else "?"))
        self.query_one("#drawn", Static).update(held)
        self.query_one("#others", Static).update(self.others())

    def others(self) -> Columns:
        """Every other grid as its owner's neighbours see it, with the totals."""
        view, me = self.view, self.me
        tables = []
        for seat, grid in enumerate(view["grids"]):
            if seat == me:
                continue
            turn = "▶ " if seat == view["current"] and view["result"] is None else ""
            closer = " (closed)" if seat == view.get("closer") else ""
            table = Table.grid(padding=(0, 1))
            for _ in range(COLUMNS):
                table.add_column(justify="right", min_width=2)
            for row in range(ROWS):
                table.add_row(*(card_text(grid[c][row]) for c in range(COLUMNS)))
            title = Text(f"{turn}{self.seat_name(seat)}{closer}", style="bold" if turn else "")
            total = Text(f"total {view['scores'][seat]} · showing {grid_sum(grid)}", "dim")
            tables.append(Group(title, table, total))
        return Columns(tables, padding=(0, 3))

    def headline(self) -> str:
        view = self.view
        scores = self.scores_line()
        if view["result"] is not None:
            turn = "round over"
        elif view["current"] == self.me:
            what = "turn two cards (S1.2)" if view["phase"] == "reveal" else "your turn"
            turn = f"[b reverse] {what} [/]"
        else:
            turn = f"{self.seat_name(view['current'])} plays"
        closer = view.get("closer")
        last = (
            f" · {self.seat_name(closer)} closed: last turns (S4.1)" if closer is not None else ""
        )
        return f"to {view['end_score']} · {scores} · {turn}{last}"

    # -- picks -------------------------------------------------------------------------------

    def pick(self, name: str) -> Pick:
        view, selected = self.view, self.selected
        if name == "draw":
            return Pick({"type": "draw"})
        if name == "discard":
            if name == selected:
                self.select(None)
                return Pick(words="Let go.")
            if view["phase"] == "reveal":
                return Pick(words="First turn two cards of your grid (S1.2).")
            self.select(name)
            if view["holding"]:
                return Pick(words=f"Discard the {view['drawn']}: now a face-down card to turn.")
            return Pick(words=f"Take the {view['discard_top']}: now the card of yours it replaces.")
        _, column, row = name.split("-")
        place = {"column": int(column), "row": int(row)}
        if view["phase"] == "reveal":
            return Pick({"type": "reveal", **place})
        if selected == "discard":
            return Pick({"type": "discard" if view["holding"] else "take", **place})
        if view["holding"]:
            return Pick({"type": "exchange", **place})
        return Pick(
            words=f"First take the discard pile's {view['discard_top']} (m) or draw a card (n)."
        )

    def spots_of(self, action: dict[str, Any]) -> tuple[str, ...]:
        kind = action["type"]
        if kind == "draw":
            return ("draw",)
        cell = f"cell-{action['column']}-{action['row']}"
        return ("discard", cell) if kind in ("take", "discard") else (cell,)

    # -- words -------------------------------------------------------------------------------

    def describe(self, event: dict[str, Any]) -> str | None:
        who, d = self.seat_name(event.get("seat")), event.get("detail") or {}
        at = f"column {d.get('column')}, row {d.get('row')}"
        match event["kind"]:
            case "dealt":
                return f"Cards dealt; the discard pile starts with {d['discard']}"
            case "revealed":
                return f"{who} turned a {d['card']} ({at})"
            case "starts":
                if d.get("rule") == "S1.3":
                    return f"{who} starts: the highest two cards ({d.get('sum')}, S1.3)"
                return f"{who} starts: closed the last round (S4.4)"
            case "drew":
                return f"{who} drew a card"
            case "took":
                return (
                    f"{who} took the {d['card']} for {at}; the {d['replaced']} went to the discard"
                )
            case "exchanged":
                gone = f"the {d['replaced']} went to the discard"
                return f"{who} put a drawn {d['card']} at {at}; {gone}"
            case "discarded":
                return f"{who} discarded a drawn {d['card']} and turned a {d['turned']} ({at})"
            case "column_removed":
                return f"{who} cleared column {d['column']}: three {d['card']}s (S3.1)"
            case "closed":
                return f"{who} closed the round: everyone else plays once more (S4.1)"
            case "reshuffled":
                return f"The discards became a new draw pile ({d['cards']} cards, S2.3)"
            case "timed_out":
                return f"{who} ran out of time: drew, discarded and turned a card"
            case "round_over":
                return self.round_words(d)
            case _:
                return None  # turns and the final turning up: the board shows them

    def round_words(self, result: dict[str, Any]) -> str:
        sums = ", ".join(f"{self.seat_name(s)} {n}" for s, n in enumerate(result.get("sums") or []))
        closer = result.get("closer")
        words = f"{self.seat_name(closer)} closed the round. Sums: {sums}"
        if result.get("doubled"):
            words += "; the closer's sum was not the strictly lowest, so it counts double (S4.3)"
        points = result.get("points") or []
        best = min(points) if points else 0
        lowest = [self.seat_name(s) for s, p in enumerate(points) if p == best]
        return f"{words}. Lowest this round: {joined(lowest)}"
