"""The complete state of one Skip round, hidden cards included.

A ``State`` never leaves the engine: people and bots see it only through ``views.view``. It is
a plain mutable object because the rules update it thousands of times per second; ``copy``
gives an independent one for search.
"""

from __future__ import annotations

import random
import zlib
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


class State:
    """Every card's place in a round, whose turn it is, and the counters the rules need.

    Discard and building piles are tuples, replaced on change, so views can share them.

    The seats' card lists (hands, stocks, discard piles) are the rules' own: a state copies
    those it is given. Beside them the rules keep the per-seat fields every view shows (hand
    counts, stock tops and sizes, each seat's discard piles as one tuple), updated by the move
    that changes them, so a view reads them instead of rebuilding them at every decision. Any
    other code reaches the lists through ``hands``, ``stocks`` and ``discards``, and may change
    them by hand (tests build positions so): from then on the kept fields are not trusted, and
    views rebuild them from the lists. A ``copy`` trusts its own again.

    Hands are kept sorted (a state sorts the hands it is given, the rules sort a hand after a
    draw, and taking a card out keeps the order): a hand is a set of cards whose order no rule
    reads, and a view, built at every decision, then copies it without sorting it.
    """

    __slots__ = (
        "_discards",
        "_hand_counts",
        "_hands",
        "_kept",
        "_seen_discards",
        "_stock_counts",
        "_stock_tops",
        "_stocks",
        "building",
        "completed",
        "current",
        "dealer",
        "draw",
        "idle_turns",
        "moves",
        "options",
        "partners",
        "played_this_turn",
        "players",
        "result",
        "rng",
        "scores",
        "timeouts_in_a_row",
        "turn",
        "values",
    )

    options: Options
    players: int
    dealer: int
    partners: tuple[int, ...] | None
    rng: random.Random
    draw: list[int]
    _stocks: list[list[int]]
    _hands: list[list[int]]
    _discards: list[list[tuple[int, ...]]]
    building: list[tuple[int, ...]]
    values: list[int]
    completed: list[int]
    current: int
    turn: int
    played_this_turn: bool
    idle_turns: int
    timeouts_in_a_row: int
    moves: int
    result: RoundResult | None
    scores: tuple[int, ...]
    """The match scores (R6.2) as the match last set them: before this round, then after it.
    Only shown to players (R7.2); the rules never read them. Empty means all zero."""
    _kept: bool
    """The per-seat fields below are true: only the rules have reached the card lists."""
    _hand_counts: list[int]
    _stock_tops: list[int | None]
    _stock_counts: list[int]
    _seen_discards: list[tuple[tuple[int, ...], ...]]

    def __init__(
        self,
        options: Options,
        players: int,
        dealer: int,
        partners: tuple[int, ...] | None,
        rng: random.Random,
        draw: list[int],
        stocks: list[list[int]],
        hands: list[list[int]],
        discards: list[list[tuple[int, ...]]],
        building: list[tuple[int, ...]] | None = None,
        values: list[int] | None = None,
        completed: list[int] | None = None,
        current: int = 0,
        turn: int = 0,
        played_this_turn: bool = False,
        idle_turns: int = 0,
        timeouts_in_a_row: int = 0,
        moves: int = 0,
        result: RoundResult | None = None,
        scores: tuple[int, ...] = (),
    ) -> None:
        self.options = options
        self.players = players
        self.dealer = dealer
        self.partners = partners
        self.rng = rng
        self.draw = draw
        self._stocks = [stock[:] for stock in stocks]
        self._hands = [sorted(hand) for hand in hands]  # kept sorted by the rules too
        self._discards = [piles[:] for piles in discards]
        self.building = [()] * BUILDING_SLOTS if building is None else building
        self.values = [0] * BUILDING_SLOTS if values is None else values
        self.completed = [] if completed is None else completed
        self.current = current
        self.turn = turn
        self.played_this_turn = played_this_turn
        self.idle_turns = idle_turns
        self.timeouts_in_a_row = timeouts_in_a_row
        self.moves = moves
        self.result = result
        self.scores = scores
        self._kept = True
        self._hand_counts = [len(hand) for hand in self._hands]
        self._stock_tops = [stock[-1] if stock else None for stock in self._stocks]
        self._stock_counts = [len(stock) for stock in self._stocks]
        self._seen_discards = [tuple(piles) for piles in self._discards]

    @property
    def hands(self) -> list[list[int]]:
        """Every seat's hand. Handed out to be read or changed: the kept fields are not
        trusted from now on."""
        self._kept = False
        return self._hands

    @hands.setter
    def hands(self, hands: list[list[int]]) -> None:
        self._kept = False
        self._hands = hands

    @property
    def stocks(self) -> list[list[int]]:
        """Every seat's stock, its top card last; handed out as ``hands`` is."""
        self._kept = False
        return self._stocks

    @stocks.setter
    def stocks(self, stocks: list[list[int]]) -> None:
        self._kept = False
        self._stocks = stocks

    @property
    def discards(self) -> list[list[tuple[int, ...]]]:
        """Every seat's four discard piles; handed out as ``hands`` is."""
        self._kept = False
        return self._discards

    @discards.setter
    def discards(self, discards: list[list[tuple[int, ...]]]) -> None:
        self._kept = False
        self._discards = discards

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
        """An independent copy, random generator included, for search and tests; its card
        lists are its own, so its kept fields are trusted."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            options=self.options,
            players=self.players,
            dealer=self.dealer,
            partners=self.partners,
            rng=rng,
            draw=self.draw[:],
            stocks=self._stocks,
            hands=self._hands,
            discards=self._discards,
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
            cards += self._stocks[seat] + self._hands[seat]
            for pile in self._discards[seat]:
                cards += list(pile)
        return cards

    def fingerprint(self) -> str:
        """A short digest of the whole state, to detect altered game records.

        Cards are 0..12, so every pile is its own bytes; ``|`` (124) cannot be a card.
        """
        parts = [bytes(self.draw), bytes(self.completed)]
        parts += [bytes(pile) for pile in self.building]
        for seat in range(self.players):
            parts.append(bytes(self._stocks[seat]))
            parts.append(bytes(sorted(self._hands[seat])))
            parts += [bytes(pile) for pile in self._discards[seat]]
        counters = (self.current, self.turn, self.idle_turns, self.timeouts_in_a_row)
        parts.append(b"".join(n.to_bytes(4, "big") for n in counters))
        return format(zlib.crc32(b"|".join(parts)), "08x")
