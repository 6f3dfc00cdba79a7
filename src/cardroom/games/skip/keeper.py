"""Skip's arithmetic for the score keeper (``Game.keeper``; ``keeper/`` words it): a round
played with physical cards counts exactly as the same round played online (R6.2, R6.3)."""

from __future__ import annotations

from typing import Any

from .match import match_winners
from .options import Options, default_stock_size
from .rules import POINTS_PER_STOCK_CARD, WIN_BONUS, round_points


class SkipKeeping:
    points_per_stock_card = POINTS_PER_STOCK_CARD
    win_bonus = WIN_BONUS

    round_points = staticmethod(round_points)
    """R6.2: the points of a round the seats ``won`` went out in, stocks left as given."""
    match_winners = staticmethod(match_winners)
    """R6.3: who won the match after a round, None while it goes on."""

    def default_stock_size(self, players: int) -> int:
        """R3.2: the stock dealt to each of ``players`` unless the table says otherwise."""
        return default_stock_size(players)

    def check_options(self, players: int, **options: Any) -> None:
        """A table's own checks of these options (``OptionsError``), the extra deck (R2.2)
        allowed: whatever deck was used."""
        Options(players=players, extra_deck=True, **options)


KEEPER = SkipKeeping()
