"""``casual``: greedy's play with a person's slips, for the levels below greedy.

A new player is beaten by greedy nearly every time and beats ``random`` every time (random
discards at once and never empties its stock); neither is a game. Casual plays as greedy does
but, at each decision, with probability ``slip`` it does something a newcomer might: any legal
action at all (a discard that ends the turn early, a card played to no purpose). It never
misses the obvious: a stock card that fits a building pile is always played (R4.1), since
that is the one move every player learns first. ``slip`` sets the strength between greedy
(0) and near-random (1); ``cardroom calibrate`` measures what each level's slip is worth.
"""

from __future__ import annotations

import random

from cardroom.games.skip import Action, SeatView

from .greedy import GreedyBot


class CasualBot:
    name = "casual"
    trusted = True
    """It plays greedy's choices or an action from the legal list, so simulations apply its
    choice without the rules' check."""

    def __init__(self, seed: str | int = 0, slip: float = 0.5) -> None:
        if not 0.0 <= float(slip) <= 1.0:
            raise ValueError(f"slip is a probability between 0 and 1, not {slip!r}")
        self.slip = float(slip)
        self.rng = random.Random(f"casual-bot:{seed}")
        self.greedy = GreedyBot(seed)

    def choose(self, view: SeatView) -> Action:
        planned = self.greedy.choose(view)
        if planned.source in ("stock", "partner_stock"):
            return planned  # the obvious move is never missed
        if self.rng.random() >= self.slip:
            return planned
        return self.rng.choice(view.legal_actions())
