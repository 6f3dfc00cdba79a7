"""What a bot is: something that picks an action from its own seat's view, and nothing else.

A bot never receives a ``State``: the view is all it knows (R7.2), so it cannot peek.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


class Bot(Protocol):
    """A player program. ``choose`` is called only when it is the bot's turn, with its game's
    ``SeatView`` (Skip's or Skyjo's), and answers one of that game's actions."""

    name: str

    def choose(self, view: Any) -> Any: ...


@runtime_checkable
class Observer(Protocol):
    """A bot that follows the whole game, not only its own turns (an external program): it is
    told the game's start, every move (actions are public; a card drawn is not in them),
    each round's end in its own seat's view, and the result."""

    def begin(self, seat: int, options: Any) -> None: ...

    def observe(self, round_number: int, seat: int, action: Any) -> None: ...

    def round_over(self, round_number: int, view: Any) -> None: ...

    def end(self, winners: tuple[int, ...], scores: list[int]) -> None: ...
