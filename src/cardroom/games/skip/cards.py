"""Cards and decks (R1).

A card is a plain ``int`` on the hot path: ``WILD`` (0) or a number 1..12. Colours are cosmetic
(R1.3) and live in the clients.
"""

from __future__ import annotations

from collections.abc import Iterable

WILD = 0
NUMBERS = range(1, 13)
TOP_VALUE = 12
UNIT_SIZE = 54  # R1.2: four of each number and six wilds
WILDS_PER_UNIT = 6
COPIES_PER_UNIT = 4


STANDARD_UNITS = 3  # R1.2: the 162-card deck
LARGE_TABLE_UNITS = 5  # R2.2: 7-8 players, beyond the official 2-6


def deck_units(players: int, extra_deck: bool = False) -> int:
    """How many 54-card units a table uses (R2.2): the official 162 cards up to 6 players, 270
    for 7-8 (162 would leave 2 cards to draw), one unit more with the extra deck house rule."""
    units = STANDARD_UNITS if players <= 6 else LARGE_TABLE_UNITS
    return units + (1 if extra_deck else 0)


def new_deck(units: int) -> list[int]:
    """An unshuffled deck of ``units`` deck units (R1.2)."""
    per_unit = [n for n in NUMBERS for _ in range(COPIES_PER_UNIT)] + [WILD] * WILDS_PER_UNIT
    return per_unit * units


def card_name(card: int) -> str:
    """A card as people write it: ``"7"`` or ``"W"`` for a wild."""
    return "W" if card == WILD else str(card)


def card_from_json(value: object) -> int:
    """Parse a card from its JSON form (1..12 or ``"W"``); raises ``ValueError``."""
    if value == "W" or value == "w":
        return WILD
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TOP_VALUE:
        raise ValueError(f'a card is a number 1-12 or "W" for a wild, not {value!r}')
    return value


def card_to_json(card: int) -> int | str:
    return "W" if card == WILD else card


def describe(cards: Iterable[int]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"
