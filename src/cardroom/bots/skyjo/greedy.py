"""Skyjo ``greedy``: one look at the cards, no counting, no thought of the closer's doubling.

It takes the discard when it lowers a card or completes a column, draws otherwise; a low
card replaces the highest face-up card or a face-down one, anything else is discarded and a
card turned. The Easy level, and the baseline the stronger bot is measured against.
"""

from __future__ import annotations

import random

from cardroom.games.skyjo import DRAW, Action, SeatView
from cardroom.games.skyjo.actions import discard, exchange, reveal, take

from .common import completing_position, hidden_positions, my_grid, present_positions

LOW = 4
"""A card at most this low is worth placing on a face-down card (the deck averages about 5)."""


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: str | int = 0, low: int = LOW) -> None:
        self.rng = random.Random(f"skyjo-greedy-bot:{seed}")
        self.low = low

    def choose(self, view: SeatView) -> Action:
        grid = my_grid(view)
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            return reveal(self.rng.choice(hidden))
        if not view.holding:
            card = view.discard_top
            place = self._place(grid, hidden, card) if card is not None else None
            return take(place) if place is not None else DRAW
        assert view.drawn is not None
        place = self._place(grid, hidden, view.drawn)
        if place is not None:
            return exchange(place)
        if hidden:
            return discard(hidden[0])
        return exchange(self._highest(grid))

    def _place(self, grid: tuple, hidden: list[int], card: int) -> int | None:
        """Where ``card`` does good: a column it completes, the highest face-up card it
        undercuts, or a face-down card when it is low; None when nowhere."""
        pos = completing_position(grid, card)
        if pos is not None:
            return pos
        if any(isinstance(cell, int) for cell in grid):
            highest = self._highest(grid)
            if grid[highest] > card and (card <= self.low or grid[highest] - card >= 3):
                return highest
        if hidden and card <= self.low:
            return hidden[0]
        return None

    @staticmethod
    def _highest(grid: tuple) -> int:
        up = [p for p, cell in enumerate(grid) if isinstance(cell, int)]
        if not up:
            return present_positions(grid)[0]
        return max(up, key=lambda p: (grid[p], -p))
