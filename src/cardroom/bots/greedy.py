"""``greedy``: stock first, then plays that lead to the stock card, then discards kept descending.

A fast rule bot for simulations and the Easy level. It looks only one card ahead and plays
whatever fits, so it often opens piles for the next player.
"""

from __future__ import annotations

from cardroom.games.skip import PASS, WILD, Action, SeatView
from cardroom.games.skip.actions import (
    DISCARD,
    PLAY_DISCARD,
    PLAY_HAND,
    PLAY_PARTNER_STOCK,
    PLAY_STOCK,
)

SLOTS = (0, 1, 2, 3)


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
        slot_for = _SLOTS_CACHE.get(values)
        if slot_for is None:
            slot_for = _slots_by_card(values)

        # 1. The stock card (own, then the partner's) whenever it fits.
        if stock_top is not None:
            slot = slot_for.get(stock_top)
            if slot is not None:
                return PLAY_STOCK[slot]
        partners = view.partners
        if partners is not None:
            top = view.stock_tops[partners[me]]
            if top is not None:
                slot = slot_for.get(top)
                if slot is not None:
                    return PLAY_PARTNER_STOCK[slot]

        d0, d1, d2, d3 = view.discards[me]  # four piles (R4.4), unpacked: no loop per decision
        discard_tops = [
            d0[-1] if d0 else None,
            d1[-1] if d1 else None,
            d2[-1] if d2 else None,
            d3[-1] if d3 else None,
        ]

        # 2. A play that leads toward the stock card: the shortest chain of available cards.
        if stock_top:
            step = _first_step_toward(stock_top, values, hand, discard_tops)
            if step is not None:
                return step

        # 3. Anything else that fits, without spending wilds: discard tops first, then hand.
        for i, top in enumerate(discard_tops):
            if top:
                slot = slot_for.get(top)
                if slot is not None:
                    return PLAY_DISCARD[i][slot]
        for card in hand:
            if card:
                slot = slot_for.get(card)
                if slot is not None:
                    return PLAY_HAND[card][slot]

        # 4. End the turn with a discard that keeps piles descending.
        if not hand:
            return PASS
        return _best_discard(hand, discard_tops)


def _slots_by_card(values: tuple[int, ...]) -> dict[int, int]:
    """For each playable card, the slot it goes on; a wild goes on the highest pile.

    Memoised: there are at most 13**4 pile configurations and games revisit them constantly.
    """
    slots = _SLOTS_CACHE.get(values)
    if slots is None:
        slots = {}
        highest = 3
        for j in (3, 2, 1, 0):
            value = values[j]
            slots[value + 1] = j
            if value >= values[highest]:
                highest = j
        slots[WILD] = highest
        _SLOTS_CACHE[values] = slots
    return slots


_SLOTS_CACHE: dict[tuple[int, ...], dict[int, int]] = {}


def _first_step_toward(
    target: int, values: tuple[int, ...], hand: tuple[int, ...], tops: list[int | None]
) -> Action | None:
    """The first play of the shortest chain that makes ``target`` playable, if any.

    A chain needs each value between the pile and the target once, from the hand or a discard
    top, with wilds in hand filling the gaps. Values are bits in an int, so a chain's missing
    cards are one mask and a bit count.
    """
    have = 0
    for card in hand:
        have |= 1 << card
    for top in tops:
        if top:
            have |= 1 << top
    missing = ~have
    wilds = hand.count(WILD)
    best_gap, best_slot, best_need = 12, -1, 0
    for j in SLOTS:
        need = values[j] + 1
        gap = target - need
        if 0 < gap < best_gap and (((1 << target) - (1 << need)) & missing).bit_count() <= wilds:
            best_gap, best_slot, best_need = gap, j, need
    if best_slot < 0:
        return None
    if best_need in tops:
        return PLAY_DISCARD[tops.index(best_need)][best_slot]
    if best_need in hand:
        return PLAY_HAND[best_need][best_slot]
    return PLAY_HAND[WILD][best_slot]


def _best_discard(hand: tuple[int, ...], tops: list[int | None]) -> Action:
    """Keep discard piles descending, in this order of preference: a card one below a pile's
    top, a card equal to a top, the highest card on an empty pile, the smallest step down;
    only then bury a lower card, as little as possible. Wilds are kept unless nothing else is
    held."""
    cards = sorted({c for c in hand if c != WILD}, reverse=True) or [WILD]
    for card in cards:
        if card + 1 in tops:
            return DISCARD[card][tops.index(card + 1)]
    for card in cards:
        if card in tops:
            return DISCARD[card][tops.index(card)]
    if None in tops:
        return DISCARD[cards[0]][tops.index(None)]
    best = None
    for i, top in enumerate(tops):
        assert top is not None
        for card in cards:
            if card < top and (best is None or top - card < best[0]):
                best = (top - card, card, i)
                break
    if best is not None:
        return DISCARD[best[1]][best[2]]
    i = max(range(len(tops)), key=lambda i: tops[i] or 0)
    return DISCARD[cards[-1]][i]
