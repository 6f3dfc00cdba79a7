"""What one seat, or a spectator, may see of a round (R7.2).

A view is built from the state by copying only what is visible, so hidden cards (other hands,
stock cards below the top, the draw order) cannot leak by accident: they are never read here.
Views are what the server sends, what bots decide from, and what the UI renders.
"""

from __future__ import annotations

import functools
from typing import Any, Final, NamedTuple

from .actions import Action
from .cards import card_to_json
from .options import Options
from .rules import list_actions
from .state import RoundResult, State


class SeatView(NamedTuple):
    """One seat's view of a round; ``seat`` is None for a spectator (who holds no hand).

    An immutable tuple: cheap to build, since bots receive one for every decision.
    """

    seat: int | None
    options: Options
    players: int
    dealer: int
    partners: tuple[int, ...] | None
    current: int
    turn: int
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_tops: tuple[int | None, ...]
    stock_counts: tuple[int, ...]
    discards: tuple[tuple[tuple[int, ...], ...], ...]
    building: tuple[tuple[int, ...], ...]
    values: tuple[int, ...]
    draw_count: int
    completed_count: int
    result: RoundResult | None
    scores: tuple[int, ...] = ()
    """The match scores so far (R6.2), after this round once it is over."""

    @property
    def match_target(self) -> int | None:
        """The points that win the match; None for a single round (R6.3)."""
        return self.options.match_target

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.current and self.result is None

    @property
    def partner(self) -> int | None:
        if self.seat is None or self.partners is None:
            return None
        return self.partners[self.seat]

    def legal_actions(self) -> list[Action]:
        """The actions this seat may make now (empty when it is not its turn)."""
        if not self.my_turn:
            return []
        assert self.seat is not None
        partner = self.partner
        return list_actions(
            hand=self.hand,
            stock=_top_only(self.stock_tops[self.seat]),
            discards=self.discards[self.seat],
            partner_stock=_top_only(self.stock_tops[partner]) if partner is not None else None,
            partner_discards=self.discards[partner] if partner is not None else None,
            values=self.values,
            team_discards=partner is not None and self.options.team_discards,
            no_wild_discards=self.options.no_wild_discards,
            can_draw=bool(self.draw_count or self.completed_count),
        )

    def to_json(self) -> dict[str, Any]:
        """The view's JSON form (``docs/notation.md``); wilds are written ``"W"``."""
        cards = _cards_json
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "partners": list(self.partners) if self.partners is not None else None,
            "current": self.current,
            "turn": self.turn,
            "hand": cards(self.hand) if self.seat is not None else None,
            "hand_counts": list(self.hand_counts),
            "stock_tops": [None if t is None else card_to_json(t) for t in self.stock_tops],
            "stock_counts": list(self.stock_counts),
            "discards": [[cards(p) for p in piles] for piles in self.discards],
            "building": [
                {"cards": cards(pile), "value": value, "next": value + 1}
                for pile, value in zip(self.building, self.values, strict=True)
            ],
            "draw_count": self.draw_count,
            "completed_count": self.completed_count,
            "result": self.result.to_json() if self.result is not None else None,
            "scores": list(self.scores),
            "match_target": self.match_target,
            "options": dict(_options_fields(self.options)),
        }


_CARD_JSON: tuple[int | str, ...] = tuple(card_to_json(c) for c in range(13))  # by card


def _cards_json(seq: tuple[int, ...]) -> list[int | str]:
    card_json = _CARD_JSON
    return [card_json[c] for c in seq]


@functools.lru_cache(maxsize=256)
def _options_fields(options: Options) -> tuple[tuple[str, Any], ...]:
    """A match's options as (name, value) pairs, listed once: every view carries them. A set
    deal (a test's) places hidden cards, so no view shows it (R7.2)."""
    return tuple((name, value) for name, value in options.to_json().items() if name != "deal")


def _top_only(top: int | None) -> tuple[int, ...]:
    return () if top is None else (top,)


_new_view: Final = tuple.__new__


def view(state: State, seat: int | None) -> SeatView:
    """The view of ``seat`` (None: a spectator). The only way a state reaches anyone (R7.2).

    The match scores come from the state, where the match keeps them (zeros for a lone round).
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    if state._kept:  # the rules' copies of the per-seat fields, kept up to date move by move
        hand = tuple(state._hands[seat]) if seat is not None else ()  # kept sorted
        hand_counts = tuple(state._hand_counts)
        stock_tops = tuple(state._stock_tops)
        stock_counts = tuple(state._stock_counts)
        discards = tuple(state._seen_discards)
    else:
        hand = tuple(sorted(state._hands[seat])) if seat is not None else ()
        hand_counts, stock_tops, stock_counts, discards = _seat_fields(state)
    # tuple.__new__ with the fields in declaration order: the NamedTuple's keyword-taking
    # constructor costs a third of the build.
    return _new_view(
        SeatView,
        (
            seat,
            state.options,
            state.players,
            state.dealer,
            state.partners,
            state.current,
            state.turn,
            hand,
            hand_counts,
            stock_tops,
            stock_counts,
            discards,
            tuple(state.building),
            tuple(state.values),
            len(state.draw),
            len(state.completed),
            state.result,
            state.scores or (0,) * state.players,
        ),
    )


def _seat_fields(
    state: State,
) -> tuple[
    tuple[int, ...],
    tuple[int | None, ...],
    tuple[int, ...],
    tuple[tuple[tuple[int, ...], ...], ...],
]:
    """The four per-seat fields of a view, from the card lists: for a state whose lists were
    handed out (``State.hands``), so the rules' copies of them may be out of date."""
    hand_counts: list[int] = []
    stock_tops: list[int | None] = []
    stock_counts: list[int] = []
    discards: list[tuple[tuple[int, ...], ...]] = []
    for hand, stock, piles in zip(state._hands, state._stocks, state._discards, strict=True):
        hand_counts.append(len(hand))
        stock_tops.append(stock[-1] if stock else None)
        stock_counts.append(len(stock))
        discards.append(tuple(piles))
    return tuple(hand_counts), tuple(stock_tops), tuple(stock_counts), tuple(discards)
