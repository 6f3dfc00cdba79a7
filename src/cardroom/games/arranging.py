"""Set deals for tests: chosen cards put where a test needs them, the rest as the seed shuffled.

A test that needs a player to move first, or a stock that cannot run out in one turn, sets the
deal instead of hoping for a seed (``docs/adding-a-game.md``, "Set deals"). The arrangement is
part of a game's options, so the options, the seed and the steps still give one match, and a set
deal replays like any other. Tables refuse set deals unless the server runs with
``CARDROOM_SET_DEALS=1`` (the test servers), and a set deal is never ranked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .base import OptionsError


def arrange(deck: list[int], placements: Sequence[tuple[int, int]]) -> None:
    """Put each ``(index, card)`` of ``placements`` into ``deck`` in place, by swapping the card
    from a place no earlier placement took, so the deck keeps the same cards (conserved)."""
    taken: set[int] = set()
    for index, card in placements:
        if deck[index] != card:
            source = next(
                (i for i, found in enumerate(deck) if found == card and i not in taken), None
            )
            if source is None:  # checked by ``check_counts`` before any deal
                raise OptionsError(f"the deck holds no more {card!r} to place")
            deck[index], deck[source] = deck[source], deck[index]
        taken.add(index)


def check_counts(cards: Sequence[int], deck: Sequence[int], rule: str) -> None:
    """Refuse a set deal that asks for more copies of a card than the deck holds."""
    have = Counter(deck)
    for card, wanted in Counter(cards).items():
        if wanted > have[card]:
            raise OptionsError(
                f"a set deal asks for {wanted} cards {card!r}, the deck holds {have[card]} ({rule})"
            )


def seat_or_none(value: Any, players: int) -> int | None:
    """The ``first`` of a set deal: a seat of the table, or None (the rules choose)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise OptionsError(f"a set deal's first player is a seat 0-{players - 1}, not {value!r}")
    return value


def card_rows(
    value: Any, name: str, rows: int, is_card: Callable[[Any], bool]
) -> tuple[tuple[int, ...], ...]:
    """``rows`` lists of cards (one per seat) from JSON, each card checked by ``is_card``."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or len(value) > rows:
        raise OptionsError(f"a set deal's {name} is a list of at most {rows} lists of cards")
    return tuple(card_list(row, f"{name}[{seat}]", is_card) for seat, row in enumerate(value))


def card_list(value: Any, name: str, is_card: Callable[[Any], bool]) -> tuple[int, ...]:
    """A list of cards from JSON, each checked by ``is_card``."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(is_card(card) for card in value):
        raise OptionsError(f"a set deal's {name} is a list of cards, not {value!r}")
    return tuple(value)
