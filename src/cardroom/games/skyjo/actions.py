"""What a player can do (S1.2, S2): small immutable values, listed and compared cheaply.

- ``reveal``: turn a face-down card before the first turn (S1.2).
- ``take``: take the discard pile's top and exchange it with the card at ``position`` (S2.1).
- ``draw``: draw the draw pile's top (S2.2); the turn goes on with ``exchange`` or ``discard``.
- ``exchange``: put the drawn card at ``position``; the card there is discarded (S2.2).
- ``discard``: discard the drawn card and turn the face-down card at ``position`` (S2.2).
- ``timeout``: what a table plays for a player whose time ran out (never sent by people).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .cards import GRID, column_of, row_of

Kind = Literal["reveal", "take", "draw", "exchange", "discard", "timeout"]
KINDS: tuple[str, ...] = ("reveal", "take", "draw", "exchange", "discard", "timeout")
PLACED: frozenset[str] = frozenset({"reveal", "take", "exchange", "discard"})
"""The kinds that name a grid position."""


class Action(NamedTuple):
    kind: Kind
    position: int = -1

    def __str__(self) -> str:
        if self.kind not in PLACED:
            return {"draw": "draw a card", "timeout": "time out"}[self.kind]
        where = f"column {column_of(self.position) + 1}, row {row_of(self.position) + 1}"
        return {
            "reveal": f"turn the card in {where}",
            "take": f"take the discard and exchange it with the card in {where}",
            "exchange": f"exchange the drawn card with the card in {where}",
            "discard": f"discard the drawn card and turn the card in {where}",
        }[self.kind]


DRAW = Action("draw")
TIMEOUT = Action("timeout")

REVEAL_AT: tuple[Action, ...] = tuple(Action("reveal", p) for p in range(GRID))
TAKE_AT: tuple[Action, ...] = tuple(Action("take", p) for p in range(GRID))
EXCHANGE_AT: tuple[Action, ...] = tuple(Action("exchange", p) for p in range(GRID))
DISCARD_AT: tuple[Action, ...] = tuple(Action("discard", p) for p in range(GRID))
"""Each kind's action at every grid position, made once: listings and bots index them."""


def reveal(position: int) -> Action:
    return Action("reveal", position)


def take(position: int) -> Action:
    return Action("take", position)


def exchange(position: int) -> Action:
    return Action("exchange", position)


def discard(position: int) -> Action:
    return Action("discard", position)
