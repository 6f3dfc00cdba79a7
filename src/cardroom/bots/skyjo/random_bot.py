"""Skyjo ``random``: a uniformly random legal action, the floor every other bot must beat."""

from __future__ import annotations

import random

from cardroom.games.skyjo import Action, SeatView


class RandomBot:
    name = "random"

    def __init__(self, seed: str | int = 0) -> None:
        self.rng = random.Random(f"skyjo-random-bot:{seed}")

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions())
