"""``expert``: the planner's judgement, checked against guesses of the hidden cards.

Determinized search (PIMC): the planner proposes its few best first actions; each is played
forward on the same sampled deals (opponents' hands, stock cards below the tops and the draw
order, all drawn from the cards this seat cannot see, ``games.skip.sampling``). A rollout plays
the rest of this turn and the other seats' turns with the planner (a strong rollout policy is
what makes determinized search pay), then scores the stock cards each side played and what the
planner expects from this seat's next turn. The action with the best mean wins.

The budget is ``samples`` deals per decision, so a seed gives the same choices; ``time_cap``
(seconds) stops sampling early on a slow machine, at the cost of that determinism.
"""

from __future__ import annotations

import random
import time
import zlib
from typing import Any

from cardroom.games.skip import Action, SeatView, State, apply_fast, view
from cardroom.games.skip.sampling import determinize
from cardroom.games.skip.turns import after_play, plays, position_of

from .planner import Weights, context_of, discard_cost, search, stop, worth

WIN = 10_000.0
MAX_ROLLOUT_MOVES = 400


class ExpertBot:
    """Planner candidates, each judged by planner rollouts on sampled hidden cards."""

    name = "expert"

    def __init__(
        self,
        seed: str | int = 0,
        *,
        samples: int = 12,
        candidates: int = 4,
        margin: float = 60.0,
        time_cap: float | None = 0.9,
        **weights: Any,
    ) -> None:
        self.seed = str(seed)
        self.samples = int(samples)
        self.candidates = int(candidates)
        self.margin = float(margin)
        self.time_cap = None if time_cap is None else float(time_cap)
        self.weights = Weights().with_settings(weights)

    def choose(self, view: SeatView) -> Action:
        options = self.shortlist(view)
        if len(options) == 1:
            return options[0]
        rng = random.Random(f"expert:{self.seed}:{_digest(view)}")
        totals = [0.0] * len(options)
        started = time.perf_counter()
        for _ in range(self.samples):
            deal = determinize(view, rng)
            for index, action in enumerate(options):
                totals[index] += self.rollout(deal.copy(), action)
            if self.time_cap is not None and time.perf_counter() - started > self.time_cap:
                break
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]

    def shortlist(self, view: SeatView) -> list[Action]:
        """The planner's best first actions, best first; one when the choice is clear."""
        context = context_of(view, self.weights)
        position = position_of(view)
        value, best = search(position, context)
        if best.source in ("stock", "partner_stock"):
            return [best]  # a stock card that fits is always played: nothing hidden changes that
        scored: list[tuple[float, Action]] = [(value, best)]
        w = context.weights
        for action in plays(position):
            if action == best:
                continue
            outcome = after_play(position, action)
            score = search(outcome.position, context)[0] - w.step
            if outcome.revealed_stock:
                score += w.stock
            elif outcome.refill:
                score += w.refill
            scored.append((score, action))
        if best.kind != "discard":
            scored.append(stop(position, context))
        base = worth(position, context)
        for action in view.legal_actions():
            if action.kind == "discard" and action != best:
                piles = position.partner_discards if action.partner else position.discards
                assert piles is not None
                cost = discard_cost(position, action.card, piles[action.pile], context)
                scored.append((base - cost - 0.5 * action.partner, action))
        scored.sort(key=lambda item: -item[0])
        seen: set[Action] = set()
        shortlist: list[Action] = []
        for score, action in scored:
            if score < value - self.margin or len(shortlist) >= self.candidates:
                break
            if action not in seen:
                seen.add(action)
                shortlist.append(action)
        return shortlist

    def rollout(self, state: State, action: Action) -> float:
        """Play ``action``, the rest of the turn and the others' turns with the planner; score
        the stock cards each side played plus the planner's value of this seat's next turn."""
        me = state.current
        mine = _side(state, me)
        before = [len(s) for s in state.stocks]
        apply_fast(state, action)
        moves = 0
        left_me = False
        while state.result is None and moves < MAX_ROLLOUT_MOVES:
            seat = state.current
            if seat != me:
                left_me = True
            elif left_me:
                break
            apply_fast(state, self.planned(view(state, seat))[1])
            moves += 1
        if state.result is not None:
            winners = state.result.winners
            return WIN if me in winners else -WIN if winners else 0.0
        played = [b - len(s) for b, s in zip(before, state.stocks, strict=True)]
        score = 0.0
        for seat, count in enumerate(played):
            score += self.weights.stock * count * (1 if seat in mine else -1)
        return score + self.planned(view(state, me))[0]

    def planned(self, seat_view: SeatView) -> tuple[float, Action]:
        return search(position_of(seat_view), context_of(seat_view, self.weights))


def _side(state: State, seat: int) -> tuple[int, ...]:
    partner = state.partner(seat)
    return (seat,) if partner is None else (seat, partner)


def _digest(view: SeatView) -> int:
    """A number that depends on the view alone, so a seed and a view give one choice."""
    text = repr((view.turn, view.hand, view.stock_tops, view.discards, view.values))
    return zlib.crc32(text.encode())
