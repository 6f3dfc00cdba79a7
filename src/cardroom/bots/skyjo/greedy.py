"""Skyjo ``greedy``: one look at the cards, no counting, no thought of the closer's doubling.

It takes the discard when it lowers a card or completes a column, draws otherwise; a low
card replaces the highest face-up card or a face-down one, anything else is discarded and a
card turned. The Easy level, and the baseline the stronger bot is measured against.
"""

from __future__ import annotations

import random

from cardroom.games.skyjo import DRAW, Action, SeatView
from cardroom.games.skyjo.actions import DISCARD_AT, EXCHANGE_AT, REVEAL_AT, TAKE_AT
from cardroom.games.skyjo.cards import LOWEST, ROWS, Cell

from .common import completing_position, present_positions

LOW = 4
"""A card at most this low is worth placing on a face-down card (the deck averages about 5)."""


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: str | int = 0, low: int = LOW) -> None:
        self.rng = random.Random(f"skyjo-greedy-bot:{seed}")
        self.low = low
        self._grid: tuple[Cell, ...] | None = None
        self._look: tuple[list[int], int | None, int] = ([], None, LOWEST - 1)

    def choose(self, view: SeatView) -> Action:
        grid = view.grids[view.seat]  # type: ignore[index]
        if grid is not self._grid:  # a turn's two decisions see the same grid: read it once
            self._look_at(grid)
        hidden, highest, top = self._look
        if view.phase == "reveal":
            return REVEAL_AT[self.rng.choice(hidden)]
        holding = view.holding
        card = view.drawn if holding else view.discard_top
        place = self._place(grid, hidden, highest, top, card) if card is not None else None
        if not holding:
            return TAKE_AT[place] if place is not None else DRAW
        if place is not None:
            return EXCHANGE_AT[place]
        if hidden:
            return DISCARD_AT[hidden[0]]
        return EXCHANGE_AT[highest if highest is not None else present_positions(grid)[0]]

    def _look_at(self, grid: tuple[Cell, ...]) -> None:
        """The face-down positions (HIDDEN), and the position (the first of equals; None when
        no card is up) and value of the highest face-up card. Once a turn, the bot's most
        frequent loop."""
        hidden = []
        highest, top = None, LOWEST - 1
        p = 0
        for cell in grid:
            if cell.__class__ is int:  # not ``cell == HIDDEN``: an int to str comparison is slow
                if cell > top:  # type: ignore[operator]
                    highest, top = p, cell
            elif cell is not None:
                hidden.append(p)
            p += 1  # noqa: SIM113 (cheaper than enumerate's pairs, in the bot's hottest loop)
        self._grid, self._look = grid, (hidden, highest, top)

    def _place(
        self, grid: tuple[Cell, ...], hidden: list[int], highest: int | None, top: int, card: int
    ) -> int | None:
        """Where ``card`` does good: a column it completes, the highest face-up card (``top``)
        it undercuts, or a face-down card when it is low; None when nowhere."""
        if grid.count(card) >= ROWS - 1:  # else no column of it lacks only this card
            pos = completing_position(grid, card)
            if pos is not None:
                return pos
        if highest is not None and top > card and (card <= self.low or top - card >= 3):
            return highest
        if hidden and card <= self.low:
            return hidden[0]
        return None
