"""Skyjo's cards (S1.1): a card is its value, a plain ``int`` from -2 to 12."""

from __future__ import annotations

LOWEST = -2
HIGHEST = 12
COPIES: dict[int, int] = {-2: 5, -1: 10, 0: 15, **{value: 10 for value in range(1, HIGHEST + 1)}}
"""S1.1: five -2, ten -1, fifteen 0, and ten each of 1 to 12."""

DECK_SIZE = sum(COPIES.values())  # 150

HIDDEN = "?"
"""A face-down card, as every view shows it. A removed card (S3.1) is None."""

Cell = int | str | None
"""A grid position as views show it: a face-up card's value, HIDDEN, or None."""

ROWS = 3
COLUMNS = 4
GRID = ROWS * COLUMNS
"""S1.2: twelve cards as 4 columns of 3. A position is ``column * ROWS + row``, from 0."""


DECK: tuple[int, ...] = tuple(value for value, copies in COPIES.items() for _ in range(copies))


def new_deck() -> list[int]:
    """The 150 cards, unshuffled (S1.1)."""
    return list(DECK)


def position(column: int, row: int) -> int:
    return column * ROWS + row


def column_of(pos: int) -> int:
    return pos // ROWS


def row_of(pos: int) -> int:
    return pos % ROWS


def column_positions(column: int) -> tuple[int, ...]:
    return tuple(range(column * ROWS, column * ROWS + ROWS))


def card_from_json(value: object) -> int:
    """A card from its JSON form (a whole number -2..12); raises ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not LOWEST <= value <= HIGHEST:
        raise ValueError(f"a Skyjo card is a number from -2 to 12, not {value!r}")
    return value
