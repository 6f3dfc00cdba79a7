"""A game's text (``Game.terminal``: ``TextTable``s in rich's console markup) as rich
renderables for the terminal."""

from __future__ import annotations

from typing import Literal, cast

from rich.table import Table

from cardroom.games.terminal import TextTable

Justify = Literal["default", "left", "center", "right", "full"]


def rich_table(text: TextTable) -> Table:
    """The table as rich draws it: its title on the left, a line above its total."""
    table = Table(title=text.title, title_justify="left")
    for heading, justify in text.columns:
        if justify == "left":
            table.add_column(heading)
        else:
            table.add_column(heading, justify=cast(Justify, justify))
    for row in text.rows:
        table.add_row(*row)
    if text.total is not None:
        table.add_row(*text.total, end_section=True)
    return table
