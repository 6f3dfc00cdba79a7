"""What a bot is: something that picks an action from its own seat's view, and nothing else.

A bot never receives a ``State``: the view is all it knows (R7.2), so it cannot peek.
"""

from __future__ import annotations

from typing import Protocol

from cardroom.games.skip import Action, SeatView


class Bot(Protocol):
    """A player program. ``choose`` is called only when it is the bot's turn."""

    name: str

    def choose(self, view: SeatView) -> Action: ...
