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
        return _best_discard(hand, discard_tops, stock_top)


def _slots_by_card(values: tuple[int, ...]) -> dict[int, int]:
    """For each playable card, the slot it goes on; a wild goes on the highest pile."""
    slots: dict[int, int] = {}
    highest = 3
    for j in (3, 2, 1, 0):
        value = values[j]
        slots[value + 1] = j
        if value >= values[highest]:
            highest = j
    slots[WILD] = highest
    return slots


def _first_step_toward(
    target: int, values: tuple[int, ...], hand: tuple[int, ...], tops: list[int | None]
) -> Action | None:
    """The first play of the shortest chain that makes ``target`` playable, if any.

    A chain needs each value between the pile and the target once, from the hand or a discard
    top, with wilds in hand filling the gaps.
    """
    gaps = sorted((target - 1 - values[j], j) for j in SLOTS if values[j] + 1 < target)
    if not gaps:
        return None
    available = set(hand)
    available.update(tops)
    wilds = hand.count(WILD)
    for gap, j in gaps:
        need = values[j] + 1
        if gap - len(available.intersection(range(need, target))) > wilds:
            continue
        if need in tops:
            return play_discard(tops.index(need), j)
        if need in available:
            return play_hand(need, j)
        return play_hand(WILD, j)
    return None


def _best_discard(hand: tuple[int, ...], tops: list[int | None], stock_top: int | None) -> Action:
    """Keep discard piles descending: on a card one higher, then an equal card, then an empty
    pile, then the smallest step down; never bury a lower card if avoidable."""
    choices = sorted({c for c in hand if c != WILD} or {WILD}, reverse=True)
    if stock_top in choices and len(choices) > 1:
        choices.remove(stock_top)
        choices.append(stock_top)
    best_score, best_card, best_pile = -1000, choices[0], 0
    for card in choices:
        for i, top in enumerate(tops):
            if top is None:
                score = 600
            elif top == card + 1:
                return discard(card, i)
            elif top == card:
                score = 900
            elif top > card:
                score = 500 - 10 * (top - card)
            else:
                score = 100 - 10 * (card - top)
            if score > best_score:
                best_score, best_card, best_pile = score, card, i
    return discard(best_card, best_pile)
