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
        stock_top = view.stock_tops[me]
        piles = _PILES.get(values) or _piles(values)
        slot_of = piles[0]

        # 1. The stock card (own, then the partner's) whenever it fits.
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
        discard_tops = [t0, t1, t2, t3]

        # 2. A play that leads toward the stock card: the shortest chain of available cards.
        if stock_top:
            held = _HELD.get(hand)
            if held is None:
                held = _held(hand)
            have = held[0]  # with the numbers on the discard tops (wilds count apart)
            if t0:
                have |= 1 << t0
            if t1:
                have |= 1 << t1
            if t2:
                have |= 1 << t2
            if t3:
                have |= 1 << t3
            step = _first_step_toward(stock_top, piles[1], hand, discard_tops, have, held[1])
            if step is not None:
                return step

        # 3. Anything else that fits, without spending wilds: discard tops first, then hand.
        for i, top in enumerate(discard_tops):
            if top and slot_of[top] >= 0:
                return PLAY_DISCARD[i][slot_of[top]]
        for card in hand:
            if card and slot_of[card] >= 0:
                return PLAY_HAND[card][slot_of[card]]

        # 4. End the turn with a discard that keeps piles descending.
        if not hand:
            return PASS
        return _best_discard(hand, discard_tops)


def _piles(values: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """What the building piles take: for each card (0, a wild, to 12), the slot it goes on, -1
    for none (a wild on the highest pile); and each pile's next card with its slot, highest
    first (the earliest slot among equals), the order in which chains toward a target are
    shortest.

    Memoised: there are at most 13**4 pile configurations and games revisit them constantly.
    """
    slots = {}
    highest = 3
    for j in (3, 2, 1, 0):
        value = values[j]
        slots[value + 1] = j
        if value >= values[highest]:
            highest = j
    slots[WILD] = highest
    steps = tuple(sorted(((values[j] + 1, j) for j in SLOTS), key=lambda step: (-step[0], step[1])))
    slot_of = tuple(slots.get(card, -1) for card in range(WILD, 13))
    piles = _PILES[values] = (slot_of, steps)
    return piles


_PILES: Final[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]] = {}


def _held(hand: tuple[int, ...]) -> tuple[int, int]:
    """A hand's numbers as a bit mask, and its wilds. Memoised: a view's hand is sorted, so
    there are at most 8,568 hands of up to five cards."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    held = _HELD[hand] = (mask & ~1, hand.count(WILD))
    return held


_HELD: Final[dict[tuple[int, ...], tuple[int, int]]] = {}


def _first_step_toward(
    target: int,
    steps: tuple[tuple[int, int], ...],
    hand: tuple[int, ...],
    tops: list[int | None],
    have: int,
    wilds: int,
) -> Action | None:
    """The first play of the shortest chain that makes ``target`` playable, if any.

    A chain needs each value between a pile's next card and the target once, from the hand or
    a discard top (``have``, as bits), with wilds in hand filling the gaps: one mask and a bit
    count. ``steps`` come highest first, so the first chain that can be made is the shortest.
    """
    missing = ~have
    for need, slot in steps:
        if need < target and (((1 << target) - (1 << need)) & missing).bit_count() <= wilds:
            if need in tops:
                return PLAY_DISCARD[tops.index(need)][slot]
            if need in hand:
                return PLAY_HAND[need][slot]
            return PLAY_HAND[WILD][slot]
    return None


def _best_discard(hand: tuple[int, ...], tops: list[int | None]) -> Action:
    """Keep discard piles descending, in this order of preference: a card one below a pile's
    top, a card equal to a top, the highest card on an empty pile, the smallest step down;
    only then bury a lower card, as little as possible. Wilds are kept unless nothing else is
    held. Cards are bits of one int, the highest first: ``bit_length`` finds it."""
    kept = _DISCARDABLE.get(hand)
    if kept is None:
        kept = _discardable(hand)
    cards, highest, lowest = kept
    shown = 0
    for top in tops:
        if top is not None:
            shown |= 1 << top
    below = cards & (shown >> 1)
    if below:
        card = below.bit_length() - 1
        return DISCARD[card][tops.index(card + 1)]
    equal = cards & shown
    if equal:
        card = equal.bit_length() - 1
        return DISCARD[card][tops.index(card)]
    if None in tops:
        return DISCARD[highest][tops.index(None)]
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
    return DISCARD[lowest][tops.index(max(tops))]  # type: ignore[type-var]


def _discardable(hand: tuple[int, ...]) -> tuple[int, int, int]:
    """The cards greedy may discard (its numbers, or its wilds when it holds nothing else) as a
    bit mask, the highest and the lowest. Memoised per sorted hand, like ``_held``."""
    numbers = [card for card in hand if card != WILD] or [WILD]
    mask = 0
    for card in numbers:
        mask |= 1 << card
    kept = _DISCARDABLE[hand] = (mask, max(numbers), min(numbers))
    return kept


_DISCARDABLE: Final[dict[tuple[int, ...], tuple[int, int, int]]] = {}
