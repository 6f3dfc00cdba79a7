"""Skyjo's arithmetic for the score keeper (``Game.keeper``; ``keeper/`` words it): a round
played with physical cards counts exactly as the same round played online (S4.3, S5.1, S6.1)."""

from __future__ import annotations

from .cards import COLUMNS, COPIES, GRID, ROWS
from .match import game_winners
from .options import Options
from .rules import round_result


def sum_bounds() -> tuple[int, int]:
    """S6.1: the lowest and highest sums twelve cards of the deck can make once identical
    columns are removed. A column is removed when its three cards match, so a grid keeps at
    most two of a value per column; the extremes take the most extreme cards within that.
    (A removed column only leaves fewer cards, which never reaches further.)"""
    most = ROWS - 1
    bounds = []
    for values in (sorted(COPIES), sorted(COPIES, reverse=True)):
        left, total = GRID, 0
        for value in values:
            take = min(left, COPIES[value], most * COLUMNS)
            total, left = total + take * value, left - take
        bounds.append(total)
    return bounds[0], bounds[1]


class SkyjoKeeping:
    def __init__(self) -> None:
        self.lowest_sum, self.highest_sum = sum_bounds()  # -17 and 140

    round_result = staticmethod(round_result)
    """S4.3: a round's points from the un-doubled sums and who closed."""
    game_winners = staticmethod(game_winners)
    """S5.1: who won once a total reaches the end score, None while the game goes on."""

    def check_options(self, players: int, end_score: int) -> None:
        """A table's own check of the end score (``OptionsError``)."""
        Options(players=players, end_score=end_score)


KEEPER = SkyjoKeeping()
