"""Skip between greedy bots in the tightest plain Python we could write: the yardstick of
``cardroom bench engine``.

The same games as the engine's (same deals, same greedy policy, same results; the tests
compare them), with no objects: lists of ints, one function, no views, no actions, no checks.
What the engine costs beyond this is the price of its views, actions and rules as objects.
Solo play, clockwise, the dealer's left starts (the default options) only.
"""

from __future__ import annotations

import random

from ..shuffling import shuffle
from .cards import deck_units, new_deck
from .match import draw_for_dealer

HAND = 5
TOP = 12


def play_match(players: int, stock: int, seed: str) -> tuple[tuple[int, ...], list[int], int]:
    """A match to the first round anyone wins (a single-round match, R6.3, R6.4): the winners,
    the scores, and the rounds played."""
    scores = [0] * players
    dealer = draw_for_dealer(players, seed)
    number = 0
    while True:
        number += 1
        winners, points = play_round(players, stock, f"{seed}/{number}", dealer)
        for seat in range(players):
            scores[seat] += points[seat]
        if winners:
            return winners, scores, number
        dealer = (dealer + 1) % players


def play_round(
    players: int, stock: int, seed: str, dealer: int
) -> tuple[tuple[int, ...], list[int]]:
    """One round between greedy players: (winners, points)."""
    rng = random.Random(f"skip-round:{seed}")
    draw = new_deck(deck_units(players))
    shuffle(rng, draw)
    stocks = [draw[i * stock : (i + 1) * stock] for i in range(players)]
    del draw[: players * stock]
    hands: list[list[int]] = [[] for _ in range(players)]
    discards: list[list[list[int]]] = [[[], [], [], []] for _ in range(players)]
    building: list[list[int]] = [[], [], [], []]
    values = [0, 0, 0, 0]
    completed: list[int] = []
    seat = (dealer + 1) % players
    idle = 0
    while True:
        # A turn: draw up to five (R4.1), reshuffling the completed piles when needed (R5.4).
        hand = hands[seat]
        my_stock = stocks[seat]
        piles = discards[seat]
        played = False
        need = HAND - len(hand)
        while need > 0:
            if not draw:
                if not completed:
                    break
                draw.extend(completed)
                completed.clear()
                shuffle(rng, draw)
            hand.append(draw.pop())
            need -= 1
        while True:
            # The greedy choice, then the play (or the end of the turn).
            v0, v1, v2, v3 = values
            slot_for = {v3 + 1: 3, v2 + 1: 2, v1 + 1: 1, v0 + 1: 0}
            high = 3
            if v2 >= values[high]:
                high = 2
            if v1 >= values[high]:
                high = 1
            if v0 >= values[high]:
                high = 0
            slot_for[0] = high
            top = my_stock[-1]
            to = slot_for.get(top, -1)
            source = 0  # 0 stock, 1 hand, 2 discard pile; -1 ends the turn
            card = top
            pile = -1
            if to < 0:
                tops = [p[-1] if p else None for p in piles]
                source = -1
                if top:
                    have = 0
                    for c in hand:
                        have |= 1 << c
                    for t in tops:
                        if t:
                            have |= 1 << t
                    missing = ~have
                    wilds = hand.count(0)
                    best_gap = 12
                    for j in (0, 1, 2, 3):
                        step = values[j] + 1
                        gap = top - step
                        if (
                            0 < gap < best_gap
                            and (((1 << top) - (1 << step)) & missing).bit_count() <= wilds
                        ):
                            best_gap, to, card = gap, j, step
                    if to >= 0:
                        if card in tops:
                            source, pile = 2, tops.index(card)
                        elif card in hand:
                            source = 1
                        else:
                            source, card = 1, 0
                if source < 0:
                    for i in (0, 1, 2, 3):
                        t = tops[i]
                        if t and t in slot_for:
                            source, pile, card, to = 2, i, t, slot_for[t]
                            break
                if source < 0:
                    for c in sorted(hand):
                        if c and c in slot_for:
                            source, card, to = 1, c, slot_for[c]
                            break
                if source < 0:
                    if hand:
                        card, pile = _discard(hand, tops)
                        hand.remove(card)
                        piles[pile].append(card)
                    break  # a discard or a pass ends the turn (R4.4, R4.5)
            # The play (R5): the card leaves its place for building pile ``to``.
            if source == 0:
                my_stock.pop()
            elif source == 1:
                hand.remove(card)
            else:
                piles[pile].pop()
            played = True
            value = values[to] + 1
            if value == TOP:
                completed.extend(building[to])
                completed.append(card)
                building[to] = []
                values[to] = 0
            else:
                building[to].append(card)
                values[to] = value
            if source == 0 and not my_stock:  # R6.1
                gain = 25 + 5 * sum(len(s) for s in stocks)
                return (seat,), [gain if s == seat else 0 for s in range(players)]
            if not hand:  # R4.3: an empty hand draws five and plays on
                need = HAND
                while need > 0:
                    if not draw:
                        if not completed:
                            break
                        draw.extend(completed)
                        completed.clear()
                        shuffle(rng, draw)
                    hand.append(draw.pop())
                    need -= 1
        # The end of a turn (R6.4): a whole cycle of turns changing nothing is a stalemate.
        if played or draw or completed:
            idle = 0
        else:
            idle += 1
            if idle >= players:
                left = [len(s) for s in stocks]
                fewest = min(left)
                if left.count(fewest) > 1:
                    return (), [0] * players
                winner = left.index(fewest)
                gain = 25 + 5 * (sum(left) - fewest)
                return (winner,), [gain if s == winner else 0 for s in range(players)]
        seat = (seat + 1) % players


def _discard(hand: list[int], tops: list[int | None]) -> tuple[int, int]:
    """Greedy's discard (card, pile): piles kept descending, wilds kept (``bots/greedy.py``)."""
    cards = sorted({c for c in hand if c}, reverse=True) or [0]
    for c in cards:
        if c + 1 in tops:
            return c, tops.index(c + 1)
    for c in cards:
        if c in tops:
            return c, tops.index(c)
    if None in tops:
        return cards[0], tops.index(None)
    best_step, best_card, best_pile = 99, -1, -1
    for i in (0, 1, 2, 3):
        t = tops[i]
        assert t is not None
        for c in cards:
            if c < t:
                if t - c < best_step:
                    best_step, best_card, best_pile = t - c, c, i
                break
    if best_pile >= 0:
        return best_card, best_pile
    i = max(range(4), key=lambda i: tops[i] or 0)
    return cards[-1], i
