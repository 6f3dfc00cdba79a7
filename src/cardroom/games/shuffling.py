"""A seeded shuffle that deals exactly what ``random.Random.shuffle`` deals, in half its time.

Game records hold the rounds these shuffles dealt, so the sequence of draws must never change.
"""

from __future__ import annotations

import random

__all__ = ["shuffle"]


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)`` step for step (Fisher-Yates from the top, each index drawn by
    rejection from ``getrandbits``) without its method calls per card."""
    getrandbits = rng.getrandbits
    size = len(cards)
    steps = _STEPS.get(size)
    if steps is None:
        steps = _steps(size)
        if len(_STEPS) < _MAX_SIZES:
            _STEPS[size] = steps
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """Each place from the top, and how many bits random.shuffle draws for it (enough for
    the number of places up to it)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}
_MAX_SIZES = 512
"""The steps of at most this many pile sizes are kept (a deck and every size a reshuffled
draw pile can have): a bound, not a guess."""
