"""Guessing the hidden cards: a full ``State`` consistent with what one seat sees (R7.2).

Search bots play many such guesses forward ("determinized" search). Every hidden place (other
hands, stock cards below the tops, the draw pile, the completed piles whose cards the view only
counts) is filled from the unseen cards: the full deck minus every card the seat can see.
"""

from __future__ import annotations

import random
from collections import Counter

from .cards import deck_units, new_deck
from .state import State
from .views import SeatView


def unseen_cards(view: SeatView) -> list[int]:
    """The cards ``view.seat`` cannot see, in a fixed order (a multiset, as a sorted list)."""
    pool = Counter(new_deck(deck_units(view.players, view.options.extra_deck)))
    seen: list[int] = list(view.hand)
    seen += [top for top in view.stock_tops if top is not None]
    for piles in view.discards:
        for pile in piles:
            seen += pile
    for pile in view.building:
        seen += pile
    pool.subtract(seen)
    if any(n < 0 for n in pool.values()):
        raise ValueError("the view shows more copies of a card than the deck holds")
    return sorted(pool.elements())


def determinize(view: SeatView, rng: random.Random) -> State:
    """A state whose visible parts equal ``view`` and whose hidden parts are a random deal of
    the unseen cards. Counters the view does not show (idle turns) start at zero."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view holds no hand to search from")
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for seat in range(view.players):
        if seat == me:
            hands.append(list(view.hand))
        else:
            hands.append(_take(pool, view.hand_counts[seat]))
    stocks = []
    for top, count in zip(view.stock_tops, view.stock_counts, strict=True):
        stocks.append([*_take(pool, count - 1), top] if top is not None else [])
    completed = _take(pool, view.completed_count)
    draw = _take(pool, view.draw_count)
    if pool:
        raise ValueError(f"{len(pool)} unseen cards have no hidden place in the view")
    return State(
        options=view.options,
        players=view.players,
        dealer=view.dealer,
        partners=view.partners,
        rng=random.Random(rng.getrandbits(64)),
        draw=draw,
        stocks=stocks,
        hands=hands,
        discards=[list(piles) for piles in view.discards],
        building=list(view.building),
        values=list(view.values),
        completed=completed,
        current=view.current,
        turn=view.turn,
        played_this_turn=False,
        idle_turns=0,
        moves=0,
        result=view.result,
    )


def _take(pool: list[int], count: int) -> list[int]:
    if count > len(pool):
        raise ValueError("the view counts more hidden cards than are unseen")
    taken = pool[len(pool) - count :]
    del pool[len(pool) - count :]
    return taken
