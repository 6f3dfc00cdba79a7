"""The complete state of one Skyjo round, face-down cards and the draw order included.

A ``State`` never leaves the engine: people and bots see it only through ``views.view``.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .cards import GRID, HIDDEN, Cell
from .options import Options

Phase = Literal["reveal", "play", "over"]

REVEALS = 2
"""S1.2: each player turns two of their cards face up before the first turn."""


class RoundResult(NamedTuple):
    """How a round was scored (S4.2, S4.3): everyone's sum, and the points it counts."""

    closer: int
    sums: tuple[int, ...]
    points: tuple[int, ...]
    doubled: bool

    def to_json(self) -> dict[str, object]:
        return {
            "closer": self.closer,
            "sums": list(self.sums),
            "points": list(self.points),
            "doubled": self.doubled,
        }


@dataclass(slots=True, eq=False)
class State:
    """Every card's place in a round and whose turn it is.

    ``cards[seat][pos]`` is the card at a grid position (None once its column is removed),
    ``up[seat][pos]`` whether it lies face up. ``draw`` and ``discard`` have their top last.
    ``drawn`` is the card a player has drawn and not yet placed (S2.2). ``shown`` and
    ``reveals_left`` are what every view shows of the grids and the reveals, kept by the rules
    as cards move and turn (``show``), so that a view copies them instead of building them.
    """

    options: Options
    players: int
    rng: random.Random
    draw: list[int]
    discard: list[int]
    cards: list[list[int | None]]
    up: list[list[bool]]
    starter: int | None
    """The seat that starts the turns: given (S4.4), or None until the reveals decide (S1.3)."""
    phase: Phase = "reveal"
    current: int = 0
    turn: int = 0
    reveals: list[int] | None = None
    drawn: int | None = None
    closer: int | None = None
    result: RoundResult | None = None
    scores: tuple[int, ...] = ()
    """The match totals as the match last set them (for the views; the rules never read them)."""
    shown: list[tuple[Cell, ...]] = field(default_factory=list)
    """Per seat, the grid's cells as every view shows them: built from the faces, never from a
    face-down card's value, and shared by the views instead of rebuilt for each one."""
    reveals_left: tuple[int, ...] = ()
    """Per seat, the cards still to turn before the first turn (S1.2), as the views show it."""

    def __post_init__(self) -> None:
        if self.reveals is None:
            self.reveals = [0] * self.players
        self.show()

    def show(self, seat: int | None = None) -> None:
        """Rebuild what the views show of a seat's grid, or of everything (every grid and the
        reveals left) by default. The rules call it, or ``show_turned``, whenever a card moves
        or turns; a position edited by hand calls it before taking views."""
        if seat is None:
            self.shown = [shown_cells(c, u) for c, u in zip(self.cards, self.up, strict=True)]
            self.reveals_left = left_to_reveal(self.reveals or [0] * self.players)
        else:
            self.shown[seat] = shown_cells(self.cards[seat], self.up[seat])

    def show_turned(self, seat: int, pos: int) -> None:
        """Show the card that now lies face up at a position (``show`` for one card)."""
        cells = list(self.shown[seat])
        cells[pos] = self.cards[seat][pos]
        self.shown[seat] = tuple(cells)

    def face_down(self, seat: int) -> list[int]:
        """The positions of the seat's face-down cards, in order."""
        up, cards = self.up[seat], self.cards[seat]
        return [p for p in range(GRID) if cards[p] is not None and not up[p]]

    def present(self, seat: int) -> list[int]:
        """The positions still holding a card (not removed with a column, S3.1)."""
        return [p for p, card in enumerate(self.cards[seat]) if card is not None]

    def all_up(self, seat: int) -> bool:
        """S4.1: every remaining card is face up (true too when every column is removed)."""
        return not self.face_down(seat)

    def next_seat(self, seat: int) -> int:
        """S1.3: play goes clockwise, seat by seat."""
        return (seat + 1) % self.players

    def copy(self) -> State:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            options=self.options,
            players=self.players,
            rng=rng,
            draw=self.draw[:],
            discard=self.discard[:],
            cards=[row[:] for row in self.cards],
            up=[row[:] for row in self.up],
            starter=self.starter,
            phase=self.phase,
            current=self.current,
            turn=self.turn,
            reveals=list(self.reveals or ()),
            drawn=self.drawn,
            closer=self.closer,
            result=self.result,
            scores=self.scores,
        )

    def all_cards(self) -> list[int]:
        """Every card of the round wherever it is, for conservation checks (S1.1)."""
        cards = self.draw + self.discard
        for grid in self.cards:
            cards += [c for c in grid if c is not None]
        if self.drawn is not None:
            cards.append(self.drawn)
        return cards

    def fingerprint(self) -> str:
        """A short digest of the whole state, to detect altered game records."""
        parts = [repr(self.draw), repr(self.discard), repr(self.cards), repr(self.up)]
        parts.append(repr((self.phase, self.current, self.turn, self.reveals, self.drawn)))
        parts.append(repr((self.closer, self.starter)))
        return format(zlib.crc32("|".join(parts).encode()), "08x")


def shown_cells(cards: Sequence[int | None], up: Sequence[bool]) -> tuple[Cell, ...]:
    """A grid as everyone sees it: a face-up card's value, HIDDEN for a face-down card (its
    owner included), None for a removed one (S3.1)."""
    cells = zip(cards, up, strict=True)
    return tuple([card if face_up or card is None else HIDDEN for card, face_up in cells])


def left_to_reveal(reveals: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the cards still to turn before the first turn (S1.2)."""
    return tuple([REVEALS - r for r in reveals])
