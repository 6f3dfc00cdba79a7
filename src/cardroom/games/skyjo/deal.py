"""A set deal for Skyjo, for tests: who starts the turns, the grids' cards, the draw pile's top.

Every round of a match with a set deal is dealt with these cards in these places and the rest
shuffled from the seed (``games/arranging.py``). JSON form, every part optional::

    {"first": 1, "grids": [[12, 12, 12], [-2]], "discard": 5, "draw": [0, 7]}

``grids[seat]`` lists a grid's cards by position (``column * 3 + row``, from 0: the first
column top to bottom, then the next); ``discard`` is the discard pile's first card; ``draw``
lists the draw pile's cards from the top down. ``first`` starts the turns after the reveals,
in every round (instead of S1.3's highest pair or S4.4's closer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..arranging import arrange, card_list, card_rows, check_counts, seat_or_none
from ..base import OptionsError
from .cards import COPIES, DECK, GRID

KEYS = ("first", "grids", "discard", "draw")


def _is_card(value: Any) -> bool:
    return type(value) is int and value in COPIES


@dataclass(frozen=True, slots=True)
class SetDeal:
    first: int | None = None
    grids: tuple[tuple[int, ...], ...] = ()
    discard: int | None = None
    draw: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, data: Any, players: int) -> SetDeal:
        """A set deal for ``players`` seats, checked against the 150 cards (S1.1)."""
        if isinstance(data, SetDeal):
            data = data.to_json()
        if not isinstance(data, dict) or set(data) - set(KEYS):
            raise OptionsError(f"a set deal is an object with some of {', '.join(KEYS)}")
        grids = card_rows(data.get("grids"), "grids", players, _is_card)
        if any(len(grid) > GRID for grid in grids):
            raise OptionsError(f"a set deal's grids hold at most {GRID} cards each (S1.2)")
        discard = data.get("discard")
        if discard is not None and not _is_card(discard):
            raise OptionsError(f"a set deal's discard is a card -2 to 12, not {discard!r}")
        draw = card_list(data.get("draw"), "draw", _is_card)
        if len(draw) > len(DECK) - players * GRID - 1:
            raise OptionsError("a set deal's draw pile is longer than the cards left to draw")
        placed = [card for grid in grids for card in grid] + list(draw)
        check_counts(placed + ([] if discard is None else [discard]), DECK, "S1.1")
        return cls(seat_or_none(data.get("first"), players), grids, discard, draw)

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "grids": [list(grid) for grid in self.grids],
            "discard": self.discard,
            "draw": list(self.draw),
        }

    def apply(self, deck: list[int]) -> None:
        """Put the set cards in place in a shuffled ``deck`` dealt as ``rules.new_round``
        deals it: seat ``s``'s grid is ``deck[s * 12:(s + 1) * 12]``; the last card turns as the
        discard pile's first, and the draw pile's top is the card before it."""
        placements = [
            (seat * GRID + position, card)
            for seat, grid in enumerate(self.grids)
            for position, card in enumerate(grid)
        ]
        if self.discard is not None:
            placements.append((len(deck) - 1, self.discard))
        placements += [(len(deck) - 2 - depth, card) for depth, card in enumerate(self.draw)]
        arrange(deck, placements)
