"""``greedy``: stock first, then plays that lead to the stock card, then discards kept descending.

A fast rule bot for simulations and the Easy level. It looks only one card ahead and plays
whatever fits, so it often opens piles for the next player.
"""

from __future__ import annotations

from cardroom.games.skip import PASS, WILD, Action, SeatView
from cardroom.games.skip.actions import (
    discard,
    play_discard,
    play_hand,
    play_partner_stock,
    play_stock,
)

SLOTS = (0, 1, 2, 3)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: str | int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        me = view.seat
        assert me is not None
        values = view.values
        hand = view.hand
        partner = view.partner
        stock_top = view.stock_tops[me]
        slot_for = _slots_by_card(values)

        # 1. The stock card (own, then the partner's) whenever it fits.
        if stock_top is not None and stock_top in slot_for:
            return play_stock(slot_for[stock_top])
        if partner is not None:
            top = view.stock_tops[partner]
            if top is not None and top in slot_for:
                return play_partner_stock(slot_for[top])

        discard_tops = [pile[-1] if pile else None for pile in view.discards[me]]

        # 2. A play that leads toward the stock card: the shortest chain of available cards.
        if stock_top:
            step = _first_step_toward(stock_top, values, hand, discard_tops)
            if step is not None:
                return step

        # 3. Anything else that fits, without spending wilds: discard tops first, then hand.
        for i, top in enumerate(discard_tops):
            if top and top in slot_for:
                return play_discard(i, slot_for[top])
        for card in hand:
            if card and card in slot_for:
                return play_hand(card, slot_for[card])

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
    wilds = hand.count(WILD)
    best_gap, best_slot = 12, -1
    for j in SLOTS:
        need = values[j] + 1
        gap = target - need
        if 0 < gap < best_gap:
            chain = (1 << target) - (1 << need)
            if (chain & ~have).bit_count() <= wilds:
                best_gap, best_slot = gap, j
    if best_slot < 0:
        return None
    need = values[best_slot] + 1
    if need in tops:
        return play_discard(tops.index(need), best_slot)
    if need in hand:
        return play_hand(need, best_slot)
    return play_hand(WILD, best_slot)


def _best_discard(hand: tuple[int, ...], tops: list[int | None]) -> Action:
    """Keep discard piles descending, in this order of preference: a card one below a pile's
    top, a card equal to a top, the highest card on an empty pile, the smallest step down;
    only then bury a lower card, as little as possible. Wilds are kept unless nothing else is
    held."""
    cards = sorted({c for c in hand if c != WILD}, reverse=True) or [WILD]
    for card in cards:
        if card + 1 in tops:
            return discard(card, tops.index(card + 1))
    for card in cards:
        if card in tops:
            return discard(card, tops.index(card))
    if None in tops:
        return discard(cards[0], tops.index(None))
    best = None
    for i, top in enumerate(tops):
        assert top is not None
        for card in cards:
            if card < top and (best is None or top - card < best[0]):
                best = (top - card, card, i)
                break
    if best is not None:
        return discard(best[1], best[2])
    i = max(range(len(tops)), key=lambda i: tops[i] or 0)
    return discard(cards[-1], i)
