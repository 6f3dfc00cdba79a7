"""A player's turn as the player sees it: the plays open to them and where each one leads.

Bots search a turn thousands of times per decision, so they need a position that is cheap to
copy and hash, built from a ``SeatView`` only (R7.2). A play that turns up a hidden card (the
next stock card, R3.1, or a fresh hand, R4.3) ends what can be known: ``after_play`` says so,
and the searcher re-plans once the card is seen. ``tests/bots/test_turns.py`` checks every
transition against ``rules.apply`` so this model cannot drift from the rules.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action
from .cards import TOP_VALUE, WILD
from .views import SeatView

UNKNOWN = -1
"""A stock top that exists but has not been turned up yet (after its card above was played)."""


class TurnPosition(NamedTuple):
    """What the player to move knows mid-turn. Stocks are (top, count); top is ``UNKNOWN`` when
    just uncovered and None when the stock is empty. Partner fields are None without a partner.
    """

    hand: tuple[int, ...]
    stock: int | None
    stock_count: int
    discards: tuple[tuple[int, ...], ...]
    values: tuple[int, ...]
    partner_stock: int | None = None
    partner_stock_count: int = 0
    partner_discards: tuple[tuple[int, ...], ...] | None = None


class Outcome(NamedTuple):
    """Where a play leads: the new position, and what it turned up or ended."""

    position: TurnPosition
    revealed_stock: bool  # a stock card below the top is now face up but not yet seen
    refill: bool  # the hand is empty: up to five unseen cards are drawn now (R4.3)
    won: bool  # the last stock card of the player (or team) was played (R6.1)


def position_of(view: SeatView) -> TurnPosition:
    """The position of the seat whose view this is."""
    me = view.seat
    assert me is not None
    partner = view.partner
    return TurnPosition(
        hand=view.hand,
        stock=view.stock_tops[me],
        stock_count=view.stock_counts[me],
        discards=view.discards[me],
        values=view.values,
        partner_stock=view.stock_tops[partner] if partner is not None else None,
        partner_stock_count=view.stock_counts[partner] if partner is not None else 0,
        partner_discards=view.discards[partner] if partner is not None else None,
    )


def plays(position: TurnPosition) -> list[Action]:
    """Every legal play (not discards) from ``position`` (R4.2, R5.1, R5.2), hand cards first.

    The same list ``rules.list_actions`` gives minus its discards, built directly because
    search calls it at every node.
    """
    values = position.values
    fits: dict[int, list[int]] = {WILD: [0, 1, 2, 3]}
    for slot in range(4):
        fits.setdefault(values[slot] + 1, []).append(slot)
    actions: list[Action] = []
    for card in sorted(set(position.hand)):
        for slot in fits.get(card, ()):
            actions.append(Action("play", "hand", card, -1, slot))
    stock = position.stock
    if stock is not None and stock != UNKNOWN:
        for slot in fits.get(stock, ()):
            actions.append(Action("play", "stock", -1, -1, slot))
    for index, pile in enumerate(position.discards):
        if pile:
            for slot in fits.get(pile[-1], ()):
                actions.append(Action("play", "discard", -1, index, slot))
    partner_stock = position.partner_stock
    if partner_stock is not None and partner_stock != UNKNOWN:
        for slot in fits.get(partner_stock, ()):
            actions.append(Action("play", "partner_stock", -1, -1, slot))
    if position.partner_discards is not None:
        for index, pile in enumerate(position.partner_discards):
            if pile:
                for slot in fits.get(pile[-1], ()):
                    actions.append(Action("play", "partner_discard", -1, index, slot))
    return actions


def card_of(position: TurnPosition, action: Action) -> int:
    """The card a (legal) play moves."""
    source = action.source
    if source == "hand":
        return action.card
    if source == "stock":
        assert position.stock is not None
        return position.stock
    if source == "partner_stock":
        assert position.partner_stock is not None
        return position.partner_stock
    piles = position.discards if source == "discard" else position.partner_discards
    assert piles is not None
    return piles[action.pile][-1]


def after_play(position: TurnPosition, action: Action) -> Outcome:
    """The position after a legal play (R4.2, R5.2, R5.3), and what it turned up (R3.1, R4.3)."""
    hand, stock, stock_count = position.hand, position.stock, position.stock_count
    discards, partner_discards = position.discards, position.partner_discards
    partner_stock, partner_count = position.partner_stock, position.partner_stock_count
    revealed = refill = won = False
    source = action.source
    if source == "hand":
        at = hand.index(action.card)
        hand = hand[:at] + hand[at + 1 :]
        refill = not hand
    elif source == "stock":
        stock_count -= 1
        stock = UNKNOWN if stock_count else None
        revealed = stock_count > 0
        won = stock_count == 0 and partner_count == 0
    elif source == "partner_stock":
        partner_count -= 1
        partner_stock = UNKNOWN if partner_count else None
        revealed = partner_count > 0
        won = partner_count == 0 and stock_count == 0
    elif source == "discard":
        discards = _pop(discards, action.pile)
    else:
        assert partner_discards is not None
        partner_discards = _pop(partner_discards, action.pile)
    value = position.values[action.to] + 1
    values = list(position.values)
    values[action.to] = 0 if value == TOP_VALUE else value
    if value == TOP_VALUE and not hand and not won:
        # R4.3 with R5.4: a hand that stays empty mid-turn had nothing to draw; the completed
        # pile now has, so the rules draw for it (after the win check of R6.1).
        refill = True
    return Outcome(
        TurnPosition(
            hand,
            stock,
            stock_count,
            discards,
            tuple(values),
            partner_stock,
            partner_count,
            partner_discards,
        ),
        revealed,
        refill,
        won,
    )


def _pop(piles: tuple[tuple[int, ...], ...], index: int) -> tuple[tuple[int, ...], ...]:
    return (*piles[:index], piles[index][:-1], *piles[index + 1 :])
