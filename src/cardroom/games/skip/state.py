"""The complete state of one Skip round, hidden cards included.

A ``State`` never leaves the engine: people and bots see it only through ``views.view``. It is
a plain mutable object because the rules update it thousands of times per second; ``copy``
gives an independent one for search.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from typing import NamedTuple

from ..base import IllegalMove
from .options import Options

__all__ = ["BUILDING_SLOTS", "DISCARD_PILES", "IllegalMove", "RoundResult", "State"]

BUILDING_SLOTS = 4
DISCARD_PILES = 4


class RoundResult(NamedTuple):
    """How a round ended (R6.1, R6.4): who won, the points each seat scores, and why."""

    winners: tuple[int, ...]
    points: tuple[int, ...]
    stalemate: bool
    stock_left: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "winners": list(self.winners),
            "points": list(self.points),
            "stalemate": self.stalemate,
            "stock_left": list(self.stock_left),
        }


@dataclass(slots=True, eq=False)
class State:
    """Every card's place in a round, whose turn it is, and the counters the rules need.

    Discard and building piles are tuples, replaced on change, so views can share them.
    """

    options: Options
    players: int
    dealer: int
    partners: tuple[int, ...] | None
    rng: random.Random
    draw: list[int]
    stocks: list[list[int]]
    hands: list[list[int]]
    discards: list[list[tuple[int, ...]]]
    building: list[tuple[int, ...]] = field(default_factory=lambda: [()] * BUILDING_SLOTS)
    values: list[int] = field(default_factory=lambda: [0] * BUILDING_SLOTS)
    completed: list[int] = field(default_factory=list)
    current: int = 0
    turn: int = 0
    played_this_turn: bool = False
    idle_turns: int = 0
    timeouts_in_a_row: int = 0
    moves: int = 0
    result: RoundResult | None = None
    scores: tuple[int, ...] = ()
    """The match scores (R6.2) as the match last set them: before this round, then after it.
    Only shown to players (R7.2); the rules never read them. Empty means all zero."""

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def step(self) -> int:
        """The seat offset of the next player: +1 clockwise, -1 counter-clockwise (R3.5)."""
        return 1 if self.options.direction == "clockwise" else -1

    def partner(self, seat: int) -> int | None:
        return self.partners[seat] if self.partners is not None else None

    def next_seat(self, seat: int) -> int:
        return (seat + self.step) % self.players

    def copy(self) -> State:
        """An independent copy, random generator included, for search and tests."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            options=self.options,
            players=self.players,
            dealer=self.dealer,
            partners=self.partners,
            rng=rng,
            draw=self.draw[:],
            stocks=[s[:] for s in self.stocks],
            hands=[h[:] for h in self.hands],
            discards=[piles[:] for piles in self.discards],
            building=self.building[:],
            values=self.values[:],
            completed=self.completed[:],
            current=self.current,
            turn=self.turn,
            played_this_turn=self.played_this_turn,
            idle_turns=self.idle_turns,
            timeouts_in_a_row=self.timeouts_in_a_row,
            moves=self.moves,
            result=self.result,
            scores=self.scores,
        )

    def all_cards(self) -> list[int]:
        """Every card of the round, wherever it is (for conservation checks)."""
        cards = self.draw + self.completed
        for pile in self.building:
            cards += list(pile)
        for seat in range(self.players):
            cards += self.stocks[seat] + self.hands[seat]
            for pile in self.discards[seat]:
                cards += list(pile)
        return cards

    def fingerprint(self) -> str:
        """A short digest of the whole state, to detect altered game records.

        Cards are 0..12, so every pile is its own bytes; ``|`` (124) cannot be a card.
        """
        parts = [bytes(self.draw), bytes(self.completed)]
        parts += [bytes(pile) for pile in self.building]
        for seat in range(self.players):
            parts.append(bytes(self.stocks[seat]))
            parts.append(bytes(sorted(self.hands[seat])))
            parts += [bytes(pile) for pile in self.discards[seat]]
        counters = (self.current, self.turn, self.idle_turns, self.timeouts_in_a_row)
        parts.append(b"".join(n.to_bytes(4, "big") for n in counters))
        return format(zlib.crc32(b"|".join(parts)), "08x")
