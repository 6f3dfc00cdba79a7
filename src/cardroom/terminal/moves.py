"""The board of a game the terminal has no kit for (a game from ``CARDROOM_GAMES``): its view
field by field and its legal moves as a list, one key each. Any game of the registry can be
played before it has a board of its own."""

from __future__ import annotations

import json
import string
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from cardroom.terminal.board import Board, Pick, Spot

MOVE_KEYS = string.digits[1:] + "abcdefgijklmnoprstuvwxyz"
"""Keys for the listed moves (``h`` and ``q`` keep their meaning)."""


class MovesBoard(Board):
    """The view's JSON and the legal moves by key."""

    DEFAULT_CSS = """
    MovesBoard #fields { height: auto; }
    MovesBoard #move-list { height: auto; }
    MovesBoard .move { height: 1; border: none; content-align: left middle; text-align: left; }
    """

    keys_help = "Each legal move has a key (1-9, a-z) or a click."

    def compose(self) -> ComposeResult:
        yield Static(id="fields")
        yield Vertical(id="move-list")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        fields = Table.grid(padding=(0, 1))
        fields.add_column(style="bold")
        fields.add_column()
        for key, value in self.view.items():
            fields.add_row(str(key), json.dumps(value)[:200])
        self.query_one("#fields", Static).update(fields)
        box = self.query_one("#move-list", Vertical)
        spots = list(box.query(Spot))
        wanted = min(len(self.legal), len(MOVE_KEYS))
        if len(spots) < wanted:  # a spot per move, kept (hidden) when fewer moves are legal
            box.mount_all(
                Spot(f"move-{i}", MOVE_KEYS[i], classes="move") for i in range(len(spots), wanted)
            )
            self.call_after_refresh(self.redraw)
        for i, spot in enumerate(spots):
            words = json.dumps(self.legal[i], separators=(",", ":")) if i < wanted else ""
            spot.show(Text.assemble((f"{spot.key}  ", "bold"), words), hidden=i >= wanted)
            self.style_spot(spot)

    def pick(self, name: str) -> Pick:
        index = int(name.rpartition("-")[2])
        return Pick(self.legal[index]) if index < len(self.legal) else Pick(words="No such move.")

    def spots_of(self, action: dict[str, Any]) -> tuple[str, ...]:
        return (f"move-{self.legal.index(action)}",) if action in self.legal else ()

    def headline(self) -> str:
        return f"turn of {self.seat_name(self.view.get('current'))}"

    def describe(self, event: dict[str, Any]) -> str | None:
        detail = json.dumps(event.get("detail") or {}, separators=(",", ":"))
        return f"{self.seat_name(event.get('seat'))}: {event['kind']} {detail}"

    def round_words(self, result: dict[str, Any]) -> str:
        return json.dumps(result, separators=(",", ":"))
