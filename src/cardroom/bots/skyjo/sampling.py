"""Guessing the hidden cards of a Skyjo round: a full engine ``State`` consistent with what
one seat sees (R7.2), for search bots to play forward with the engine's own rules.

Every hidden place (face-down cards of all grids, the seat's own included; the draw pile; the
discard pile below its top) is filled from the unseen cards: the deck (S1.1) less every card
the seat sees. Cards the seat remembers burying in the discard pile (``buried``: cards left
there and covered, removed columns, S3.1) go below the top first, so they are not guessed
into a grid or the draw pile.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from cardroom.games.skyjo import HIDDEN, SeatView, State
from cardroom.games.skyjo.cards import COPIES, GRID

from .common import visible_cards


def unseen_cards(view: SeatView) -> list[int]:
    """The cards ``view.seat`` cannot see, as a sorted list (a multiset)."""
    pool = Counter(COPIES)
    pool.subtract(visible_cards(view))
    if any(n < 0 for n in pool.values()):
        raise ValueError("the view shows more copies of a card than the deck holds")
    return sorted(pool.elements())


def determinize(
    view: SeatView, rng: random.Random, buried: Mapping[int, int] | None = None
) -> State:
    """A state whose visible parts equal ``view`` and whose hidden parts are a random deal of
    the unseen cards; ``buried`` are cards known to lie below the discard top."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to search for")
    if view.phase != "play":
        raise ValueError("only a round in play is guessed (the reveals need no search)")
    if view.holding and view.current != me:
        raise ValueError("another seat's drawn card cannot be placed in a guess")
    pool = unseen_cards(view)
    below = view.discard_count - 1 if view.discard_top is not None else 0
    known: list[int] = []
    if buried:
        left = Counter(pool)
        for card, count in sorted(buried.items()):
            take = min(count, left[card], below - len(known))
            if take > 0:
                known += [card] * take
                left[card] -= take
        pool = sorted(left.elements())
    rng.shuffle(pool)
    cards: list[list[int | None]] = []
    up: list[list[bool]] = []
    for grid in view.grids:
        row: list[int | None] = []
        faces: list[bool] = []
        for cell in grid:
            if cell is None:
                row.append(None)
                faces.append(False)
            elif cell == HIDDEN:
                row.append(pool.pop())
                faces.append(False)
            else:
                row.append(int(cell))
                faces.append(True)
        cards.append(row)
        up.append(faces)
    if len(pool) != view.draw_count + below - len(known):
        raise ValueError(
            f"{len(pool)} unseen cards left for {view.draw_count} to draw and "
            f"{below - len(known)} unknown discards"
        )
    draw = pool[: view.draw_count]
    discard = known + pool[view.draw_count :]
    rng.shuffle(discard)
    if view.discard_top is not None:
        discard.append(view.discard_top)
    assert all(len(row) == GRID for row in cards)
    return State(
        options=view.options,
        players=view.players,
        rng=random.Random(rng.getrandbits(64)),
        draw=draw,
        discard=discard,
        cards=cards,
        up=up,
        starter=view.starter,
        phase="play",
        current=view.current,
        turn=view.turn,
        reveals=[2] * view.players,
        drawn=view.drawn if view.holding else None,
        closer=view.closer,
        scores=view.scores,
    )
