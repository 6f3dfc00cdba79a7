"""A finished match reviewed for one seat: each of its turns scored by the game's best judge
from that seat's view at the time, the costliest first, with what the judge would have played
and why. Skip's judge is the expert (``advice.judge``, here); Skyjo's is the Master level
(``skyjo/review.py``). Only the seat's own views are read (R7.2): a review shows a
player what they could have known, never what they could not.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardroom.games.base import ACTION, GameMatch, Step, View, replay_from
from cardroom.games.skip import Action, Match, Options, SeatView
from cardroom.games.skip.notation import action_from_json, action_to_json

from .advice import explain, judge

STOCK_CARD = 100.0
"""The expert's unit: a stock card played is worth 100; a cost is shown in stock cards."""


@dataclass(frozen=True, slots=True)
class Scale:
    """How a game's review counts and writes: a cost of ``unit`` is shown as 1 ``name``;
    costs up to ``noise`` are ties, not losses; ``encode`` writes an action as JSON; ``judge``
    names who scored it, for people."""

    unit: float
    name: str
    noise: float
    encode: Callable[[Any], dict[str, Any]]
    judge: str


SKIP = Scale(STOCK_CARD, "stock cards", 0.5, action_to_json, "the expert")


class SeatTurnView(View, Protocol):
    """A seat's view that counts the table's turns: Skip's and Skyjo's ``SeatView``."""

    @property
    def turn(self) -> int: ...


class ReviewedMatch(GameMatch, Protocol):
    """A match whose seats' views count turns (Skip's and Skyjo's ``Match``)."""

    def view(self, seat: int | None) -> SeatTurnView: ...


@dataclass(slots=True)
class TurnReview:
    """One turn of the seat: what was played, what it cost, and the expert's line at the
    decision where the most was lost."""

    round: int
    turn: int
    step: int  # the match step (counted from 1) that began the turn
    played: list[Any] = field(default_factory=list)
    cost: float = 0.0
    worst_cost: float = -1.0
    expert: tuple[Any, ...] = ()
    instead_of: Any = None
    instead_at: int = 0  # which decision of the turn (from 1) lost the most
    reason: str = ""
    view: SeatTurnView | None = None  # the game's SeatView at the costliest decision

    def to_json(self, scale: Scale = SKIP) -> dict[str, Any]:
        encode = scale.encode
        return {
            "round": self.round,
            "turn": self.turn,
            "step": self.step,
            "cost": round(self.cost / scale.unit, 2),
            "played": [encode(a) for a in self.played],
            "expert": [encode(a) for a in self.expert],
            "instead_of": encode(self.instead_of) if self.instead_of else None,
            "instead_at": self.instead_at,
            "reason": self.reason,
        }


@dataclass(slots=True)
class Review:
    seat: int
    turns: list[TurnReview]
    decisions: int
    scale: Scale = SKIP

    @property
    def total(self) -> float:
        return sum(t.cost for t in self.turns)

    def costliest(self, limit: int | None = None) -> list[TurnReview]:
        """The turns that lost something, the costliest first (ties: the earlier turn)."""
        lost = [t for t in self.turns if t.cost > self.scale.noise]
        lost.sort(key=lambda t: (-t.cost, t.step))
        return lost[:limit] if limit is not None else lost

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        scale = self.scale
        return {
            "seat": self.seat,
            "turns": len(self.turns),
            "decisions": self.decisions,
            "unit": scale.name,
            "judge": scale.judge,
            "total_cost": round(self.total / scale.unit, 2),
            "costliest": [t.to_json(scale) for t in self.costliest(limit)],
        }


def review(options: Options, seed: str, steps: Iterable[Step], seat: int) -> Review:
    """Score every decision ``seat`` made in the match the steps replay (``games.base``)."""

    def weigh(seen: SeatView, action: Action) -> tuple[float, tuple[Any, ...]]:
        judged = judge(seen, action)
        return judged.cost, judged.plan

    def reason(seen: SeatView, played: Action, plan: tuple[Any, ...]) -> str:
        return explain(seen, plan)

    parse = functools.partial(action_from_json, allow_timeout=True)
    return review_steps(Match(options, seed), list(steps), seat, parse, weigh, reason, SKIP)


Weigh = Callable[[Any, Any], tuple[float, tuple[Any, ...]]]
"""A judge: (the seat's view, its action) to (what the action cost, the judge's line)."""


def review_steps(
    match: ReviewedMatch,
    steps: list[Step],
    seat: int,
    parse: Callable[[Any], Any],
    weigh: Weigh,
    reason: Callable[[Any, Any, tuple[Any, ...]], str],
    scale: Scale,
) -> Review:
    """Replay ``steps`` on a fresh ``match`` and ``weigh`` each decision of ``seat`` from its
    view at the time; a turn keeps the judge's line at its costliest decision, and the words
    for it (``reason``: view, the action played, the line)."""
    if not 0 <= seat < match.options.players:
        raise ValueError(f"seats are 0 to {match.options.players - 1}, not {seat}")
    turns: list[TurnReview] = []
    decisions = 0
    replayed = replay_from(match, steps)
    next(replayed)  # the deal
    for number, step in enumerate(steps, start=1):
        if step.kind == ACTION and step.seat == seat and match.current == seat:
            seen = match.view(seat)
            action = parse(step.action)
            current = turns[-1] if turns else None
            if current is None or (current.round, current.turn) != (match.round_number, seen.turn):
                current = TurnReview(match.round_number, seen.turn, number)
                turns.append(current)
            cost, line = weigh(seen, action)
            decisions += 1
            current.played.append(action)
            current.cost += cost
            if cost > current.worst_cost:
                current.worst_cost = cost
                current.expert = line
                current.instead_of = action
                current.instead_at = len(current.played)
                current.view = seen
        next(replayed)
    for turn in turns:
        if turn.view is not None and turn.cost > 0:
            turn.reason = reason(turn.view, turn.instead_of, turn.expert)
    return Review(seat, turns, decisions, scale)
