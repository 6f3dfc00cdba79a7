"""A set deal for Skip, for tests: who plays first, the top cards of stocks and of the draw pile.

Every round of a match with a set deal is dealt with these cards in these places and the rest
shuffled from the seed (``games/arranging.py``). The first player's first hand is the top five
of the draw pile (R4.1). JSON form, every part optional::

    {"first": 0, "stocks": [[5, 9], ["W"]], "draw": [1, 2, 3, 4, 12]}

``stocks[seat]`` and ``draw`` list cards from the top down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..arranging import arrange, card_list, card_rows, check_counts, seat_or_none
from ..base import OptionsError
from .cards import card_from_json, card_to_json, deck_units, new_deck

KEYS = ("first", "stocks", "draw")


def _is_card(value: Any) -> bool:
    try:
        card_from_json(value)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class SetDeal:
    first: int | None = None
    stocks: tuple[tuple[int, ...], ...] = ()
    draw: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, data: Any, players: int, stock: int, extra_deck: bool) -> SetDeal:
        """A set deal for a table of ``players`` with stocks of ``stock`` cards, checked
        against the deck it deals from; ``OptionsError`` says what does not fit."""
        if isinstance(data, SetDeal):
            data = data.to_json()
        if not isinstance(data, dict) or set(data) - set(KEYS):
            raise OptionsError(f"a set deal is an object with some of {', '.join(KEYS)}")
        stocks = tuple(
            tuple(card_from_json(card) for card in row)
            for row in card_rows(data.get("stocks"), "stocks", players, _is_card)
        )
        draw = tuple(card_from_json(c) for c in card_list(data.get("draw"), "draw", _is_card))
        deck = new_deck(deck_units(players, extra_deck))
        if any(len(row) > stock for row in stocks):
            raise OptionsError(f"a set deal's stocks hold at most {stock} cards each (R3.2)")
        if len(draw) > len(deck) - players * stock:
            raise OptionsError("a set deal's draw pile is longer than the cards left to draw")
        check_counts([card for row in stocks for card in row] + list(draw), deck, "R1.2")
        return cls(seat_or_none(data.get("first"), players), stocks, draw)

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "stocks": [[card_to_json(card) for card in row] for row in self.stocks],
            "draw": [card_to_json(card) for card in self.draw],
        }

    def apply(self, deck: list[int], stock: int) -> None:
        """Put the set cards in place in a shuffled ``deck`` dealt as ``rules.new_round``
        deals it: seat ``s``'s stock is ``deck[s * stock:(s + 1) * stock]``, the rest is the
        draw pile, each with its top card last."""
        placements = [
            ((seat + 1) * stock - 1 - depth, card)
            for seat, row in enumerate(self.stocks)
            for depth, card in enumerate(row)
        ]
        placements += [(len(deck) - 1 - depth, card) for depth, card in enumerate(self.draw)]
        arrange(deck, placements)
