"""``random``: a uniformly random legal action. The floor every other bot must beat."""

from __future__ import annotations

import random

from cardroom.games.skip import Action, SeatView


class RandomBot:
    name = "random"
    trusted = True
    """It picks from the legal list, so simulations apply its choice without the rules' check."""

    def __init__(self, seed: str | int = 0) -> None:
        self.rng = random.Random(f"random-bot:{seed}")

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions())
