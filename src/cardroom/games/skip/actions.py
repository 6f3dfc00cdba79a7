"""What a player can do on a turn (R4): play a card onto a building pile, discard, or pass.

Actions are small immutable tuples so that bots can list and compare thousands of them cheaply.
Their JSON form is documented in ``docs/notation.md`` and implemented in ``notation.py``.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from .cards import card_name

Source = Literal["hand", "stock", "discard", "partner_stock", "partner_discard", ""]

SOURCES: tuple[str, ...] = ("hand", "stock", "discard", "partner_stock", "partner_discard")


class Action(NamedTuple):
    """One move.

    - play: ``source`` names where the card comes from; ``card`` is the hand card's value
      (hand plays only), ``pile`` the discard pile index (0-3, discard sources only),
      ``to`` the building slot (0-3).
    - discard: ``card`` from the hand onto discard pile ``pile``; ``partner`` puts it on the
      partner's pile (team discards house rule, R4.4).
    - pass: nothing else (R4.5).
    """

    kind: Literal["play", "discard", "pass", "timeout"]
    source: Source = ""
    card: int = -1
    pile: int = -1
    to: int = -1
    partner: bool = False

    @property
    def is_play(self) -> bool:
        return self.kind == "play"

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind == "discard":
            whose = "partner's " if self.partner else ""
            return f"discard {card_name(self.card)} on {whose}discard pile {self.pile + 1}"
        where = {
            "hand": f"hand {card_name(self.card)}",
            "stock": "stock",
            "discard": f"discard pile {self.pile + 1}",
            "partner_stock": "partner's stock",
            "partner_discard": f"partner's discard pile {self.pile + 1}",
        }[self.source]
        return f"play {where} to building pile {self.to + 1}"


PASS = Action("pass")

PLAY_STOCK: Final[tuple[Action, ...]] = tuple(
    Action("play", "stock", -1, -1, to) for to in range(4)
)
"""Every play, made once: ``PLAY_STOCK[to]``, ``PLAY_DISCARD[pile][to]``, ``PLAY_HAND[card][to]``
and ``DISCARD[card][pile]`` are the actions the functions below make, without building a tuple
per decision (bots and the legal list name thousands a second)."""
PLAY_PARTNER_STOCK: Final[tuple[Action, ...]] = tuple(
    Action("play", "partner_stock", -1, -1, to) for to in range(4)
)
PLAY_DISCARD: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("play", "discard", -1, pile, to) for to in range(4)) for pile in range(4)
)
PLAY_PARTNER_DISCARD: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("play", "partner_discard", -1, pile, to) for to in range(4)) for pile in range(4)
)
PLAY_HAND: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("play", "hand", card, -1, to) for to in range(4)) for card in range(13)
)
DISCARD: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("discard", "", card, pile, -1, False) for pile in range(4)) for card in range(13)
)
DISCARD_TO_PARTNER: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action("discard", "", card, pile, -1, True) for pile in range(4)) for card in range(13)
)


def play_hand(card: int, to: int) -> Action:
    return Action("play", "hand", card, -1, to)


def play_stock(to: int) -> Action:
    return Action("play", "stock", -1, -1, to)


def play_discard(pile: int, to: int) -> Action:
    return Action("play", "discard", -1, pile, to)


def play_partner_stock(to: int) -> Action:
    return Action("play", "partner_stock", -1, -1, to)


def play_partner_discard(pile: int, to: int) -> Action:
    return Action("play", "partner_discard", -1, pile, to)


def discard(card: int, pile: int, partner: bool = False) -> Action:
    return Action("discard", "", card, pile, -1, partner)
