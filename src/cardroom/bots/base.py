"""What a bot is: something that picks an action from its own seat's view, and nothing else.

A bot never receives a ``State``: the view is all it knows (R7.2), so it cannot peek.
"""

from __future__ import annotations

from typing import Any, Protocol


class Bot(Protocol):
    """A player program. ``choose`` is called only when it is the bot's turn, with its game's
    ``SeatView`` (Skip's or Skyjo's), and answers one of that game's actions."""

    name: str

    def choose(self, view: Any) -> Any: ...
