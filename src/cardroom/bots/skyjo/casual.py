"""Skyjo ``casual``: the counter's play with a newcomer's slips, for the levels below it.

Skyjo's ``random`` and ``greedy`` lose nearly every game to the counter, which leaves no
level a new player can learn against. Casual thinks as the counter does (so it keeps its
memory of the cards it saw) and then, with probability ``slip``, plays any legal action
instead: a card turned over for nothing, a good card swapped away. ``slip`` sets the
strength; ``cardroom calibrate --game skyjo`` measures what each level's slip is worth.
"""

from __future__ import annotations

import random
from typing import Any

from cardroom.games.skyjo import Action, SeatView

from .counter import CounterBot


class CasualBot:
    name = "casual"

    def __init__(self, seed: str | int = 0, slip: float = 0.5, **counter: Any) -> None:
        if not 0.0 <= float(slip) <= 1.0:
            raise ValueError(f"slip is a probability between 0 and 1, not {slip!r}")
        self.slip = float(slip)
        self.rng = random.Random(f"skyjo-casual-bot:{seed}")
        self.counter = CounterBot(seed, **counter)

    def choose(self, view: SeatView) -> Action:
        planned = self.counter.choose(view)
        if self.rng.random() >= self.slip:
            return planned
        return self.rng.choice(view.legal_actions())
