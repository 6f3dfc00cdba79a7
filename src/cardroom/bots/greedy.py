"""``greedy``: stock first, then plays that lead to the stock card, then discards kept descending.

A fast rule bot for simulations and the Easy level. It looks only one card ahead and plays
whatever fits, so it often opens piles for the next player.
"""

from __future__ import annotations

from typing import Final

from cardroom.games.skip import PASS, WILD, Action, SeatView
from cardroom.games.skip.actions import (
    DISCARD,
    PLAY_DISCARD,
    PLAY_HAND,
    PLAY_PARTNER_STOCK,
    PLAY_STOCK,
)

SLOTS: Final = (0, 1, 2, 3)


class GreedyBot:
    name = "greedy"
    trusted = True
    """Every choice is legal by construction (the engine's tests prove it on many games), so
    simulations apply it without the rules' check."""

    def __init__(self, seed: str | int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        me = view.seat
        assert me is not None
        values = view.values
        hand = view.hand
        v0, v1, v2, v3 = values
        at = ((v0 * 13 + v1) * 13 + v2) * 13 + v3
        piles = _PILES[at] or _piles(values, at)
        slot_of = piles[0]

        # 1. The stock card (own, then the partner's) whenever it fits.
        stock_top = view.stock_tops[me]
        if stock_top is not None and slot_of[stock_top] >= 0:
            return PLAY_STOCK[slot_of[stock_top]]
        partners = view.partners
        if partners is not None:
            top = view.stock_tops[partners[me]]
            if top is not None and slot_of[top] >= 0:
                return PLAY_PARTNER_STOCK[slot_of[top]]

        d0, d1, d2, d3 = view.discards[me]  # four piles (R4.4), unpacked: no loop per decision
        t0 = d0[-1] if d0 else None
        t1 = d1[-1] if d1 else None
        t2 = d2[-1] if d2 else None
        t3 = d3[-1] if d3 else None
        tops = [t0, t1, t2, t3]
        shown = 0  # the discard tops as bits
        if t0 is not None:
            shown |= 1 << t0
        if t1 is not None:
            shown |= 1 << t1
        if t2 is not None:
            shown |= 1 << t2
        if t3 is not None:
            shown |= 1 << t3
        # The hand's cards as bits (bit 0: a wild), summed at every decision: a memo by hand
        # was a dictionary lookup, dearer than five shifts compiled, and no faster in Python.
        held = 0
        for card in hand:
            held |= 1 << card

        # 2. A play that leads toward the stock card: the shortest chain of available cards.
        # A chain needs each value from a pile's next card up to the stock card once, from the
        # hand or a discard top, with wilds in hand filling the gaps (``missing``: the values
        # neither holds, as bits): one mask and a bit count. Piles come highest first, so the
        # first chain that can be made is the shortest.
        if stock_top:
            missing = ~(held | shown)
            wilds = hand.count(WILD)
            target = 1 << stock_top
            for need, slot in piles[1]:
                if need < stock_top and ((target - (1 << need)) & missing).bit_count() <= wilds:
                    if need in tops:
                        return PLAY_DISCARD[tops.index(need)][slot]
                    if need in hand:
                        return PLAY_HAND[need][slot]
                    return PLAY_HAND[WILD][slot]

        # 3. Anything else that fits, without spending wilds: discard tops first, then hand.
        for i, top in enumerate(tops):
            if top and slot_of[top] >= 0:
                return PLAY_DISCARD[i][slot_of[top]]
        for card in hand:
            if card and slot_of[card] >= 0:
                return PLAY_HAND[card][slot_of[card]]

        # 4. End the turn with a discard that keeps piles descending; wilds are kept unless
        # nothing else is held.
        if not hand:
            return PASS
        return _best_discard(held & ~1 or 1, shown, tops)


def _piles(values: tuple[int, ...], at: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """What the building piles take: for each card (0, a wild, to 12), the slot it goes on, -1
    for none (a wild on the highest pile, the earliest among equals); and each pile's next card
    with its slot, highest first (the earliest slot among equals), the order in which chains
    toward a target are shortest.

    Memoised at ``at``, the pile values as one number in base 13: there are at most 13**4
    configurations and games revisit them constantly. A list indexed by that number finds one
    with a multiplication or three, where a dictionary keyed by the tuple hashed it and
    compared keys in memory spread over megabytes (a cache miss each). A short run still meets
    thousands once each, so a miss is kept cheap too.
    """
    v0, v1, v2, v3 = values
    slot_of = [-1] * 14  # by card, and a place for a 13 on a pile showing 12 (a made-up position)
    slot_of[v3 + 1] = 3  # the earliest slot last, so it wins among equal piles
    slot_of[v2 + 1] = 2
    slot_of[v1 + 1] = 1
    slot_of[v0 + 1] = 0
    slot_of[WILD] = values.index(max(values))
    # By next card, highest first, then by slot: (11 - value) * 4 + slot orders both at once.
    a, b, c, d = sorted([(11 - v0) * 4, (11 - v1) * 4 + 1, (11 - v2) * 4 + 2, (11 - v3) * 4 + 3])
    piles = (tuple(slot_of), (_STEPS[a], _STEPS[b], _STEPS[c], _STEPS[d]))
    _PILES[at] = piles
    return piles


_STEPS: Final[dict[int, tuple[int, int]]] = {
    (11 - value) * 4 + slot: (value + 1, slot) for value in range(13) for slot in SLOTS
}
"""A pile's sort key in ``_piles`` back to its (next card, slot)."""

_PILES: Final[list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None]] = [None] * 13**4


def _best_discard(cards: int, shown: int, tops: list[int | None]) -> Action:
    """Keep discard piles descending, in this order of preference: a card one below a pile's
    top, a card equal to a top, the highest card on an empty pile, the smallest step down;
    only then bury a lower card, as little as possible. ``cards`` are the ones greedy may
    discard, and ``shown`` the discard tops, as bits of one int: ``bit_length`` finds the
    highest."""
    below = cards & (shown >> 1)
    if below:
        card = below.bit_length() - 1
        return DISCARD[card][tops.index(card + 1)]
    equal = cards & shown
    if equal:
        card = equal.bit_length() - 1
        return DISCARD[card][tops.index(card)]
    if None in tops:
        return DISCARD[cards.bit_length() - 1][tops.index(None)]
    best_step, best_card, best_pile = 13, -1, -1
    for i, top in enumerate(tops):
        assert top is not None
        under = cards & ((1 << top) - 1)
        if under:
            card = under.bit_length() - 1
            if top - card < best_step:
                best_step, best_card, best_pile = top - card, card, i
    if best_pile >= 0:
        return DISCARD[best_card][best_pile]
    lowest = (cards & -cards).bit_length() - 1
    return DISCARD[lowest][tops.index(max(tops))]  # type: ignore[type-var]
