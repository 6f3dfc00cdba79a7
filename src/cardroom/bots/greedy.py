"""``greedy``: stock first, then plays that lead to the stock card, then discards kept descending.

A fast rule bot for simulations and the Easy level. It looks only one card ahead and plays
whatever fits, so it often opens piles for the next player.
"""

from __future__ import annotations

import itertools
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
        # The cards the building piles take (not counting wilds, which go anywhere), as bits:
        # four shifts, where a memo by pile values cost a cache miss at every decision.
        fits = 2 << v0 | 2 << v1 | 2 << v2 | 2 << v3

        # 1. The stock card (own, then the partner's) whenever it fits.
        stock_top = view.stock_tops[me]
        if stock_top is not None and (stock_top == WILD or fits >> stock_top & 1):
            return PLAY_STOCK[_slot(values, stock_top)]
        partners = view.partners
        if partners is not None:
            top = view.stock_tops[partners[me]]
            if top is not None and (top == WILD or fits >> top & 1):
                return PLAY_PARTNER_STOCK[_slot(values, top)]

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
            at = ((v0 * 13 + v1) * 13 + v2) * 13 + v3
            for slot in _ORDERS[_ORDER_AT[at] or _order(values, at)]:
                need = values[slot] + 1
                if need < stock_top and ((target - (1 << need)) & missing).bit_count() <= wilds:
                    if need in tops:
                        return PLAY_DISCARD[tops.index(need)][slot]
                    if need in hand:
                        return PLAY_HAND[need][slot]
                    return PLAY_HAND[WILD][slot]

        # 3. Anything else that fits, without spending wilds: discard tops first, then hand.
        for i, top in enumerate(tops):
            if top and fits >> top & 1:
                return PLAY_DISCARD[i][values.index(top - 1)]
        for card in hand:
            if card and fits >> card & 1:
                return PLAY_HAND[card][values.index(card - 1)]

        # 4. End the turn with a discard that keeps piles descending; wilds are kept unless
        # nothing else is held.
        if not hand:
            return PASS
        return _best_discard(held & ~1 or 1, shown, tops)


def _slot(values: tuple[int, ...], card: int) -> int:
    """The building pile a card that fits goes on: the earliest showing one below it; a wild
    on the highest (the earliest among equals)."""
    return values.index(max(values) if card == WILD else card - 1)


def _order(values: tuple[int, ...], at: int) -> int:
    """The building piles by the card each takes next, highest first, the earliest slot among
    equals: the order in which chains toward a target are shortest. Returned, and memoised at
    ``at`` (the pile values in base 13), as its number in ``_ORDERS`` (1 to 24): a list of
    13**4 small ints, all the interpreter's shared ones, stays in the cache where a tuple per
    configuration did not."""
    v0, v1, v2, v3 = values
    # By next card, highest first, then by slot: (11 - value) * 4 + slot orders both at once.
    keys = sorted([(11 - v0) * 4, (11 - v1) * 4 + 1, (11 - v2) * 4 + 2, (11 - v3) * 4 + 3])
    number = _ORDERS.index(tuple(key & 3 for key in keys))
    _ORDER_AT[at] = number
    return number


_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((), *itertools.permutations(SLOTS))
"""The 24 orders of the four building piles, numbered from 1 (0: not worked out yet)."""

_ORDER_AT: Final[list[int]] = [0] * 13**4


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
