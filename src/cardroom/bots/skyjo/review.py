"""A finished Skyjo match reviewed for one seat: each decision weighed by the Master level
from that seat's view at the time, in expected points (``SearchBot.values``): the counter's
expectations, and near a round's end the search's points over sampled deals (with
``REVIEW_SAMPLES`` deals: a review weighs every decision of a match).

A decision's cost is the points the seat's choice is expected to add over the Master's best
one; a turn's cost is the sum over its one or two decisions (take, or draw then keep or
discard). The judge remembers the round as the seat saw it (buried cards, removed columns),
as it would have at the table. Turning the first two cards (S1.2) costs nothing: before the
first turn one face-down card is as good as another.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from cardroom.games.base import Step
from cardroom.games.skyjo import HIDDEN, Match, Options, SeatView, action_to_json
from cardroom.games.skyjo.actions import Action
from cardroom.games.skyjo.notation import action_from_json

from ..levels import levels_for
from ..review import Review, Scale, review_steps
from .advice import explain
from .search import SearchBot

POINTS = Scale(1.0, "points", 0.05, action_to_json, "the Master level")
"""Costs in expected points; a twentieth of a point is a tie (the counter's own tie-breaks)."""

JUDGE_LEVEL = "master"
REVIEW_SAMPLES = 6
"""Deals per searched decision in a review: a match has a hundred or more decisions to weigh."""


def judge() -> SearchBot:
    """The search with the Master level's settings and a review's budget: the judge."""
    level = levels_for("skyjo")[JUDGE_LEVEL]
    if level.bot != "search":
        raise RuntimeError(f"Skyjo reviews need the search at {JUDGE_LEVEL}, not {level.bot}")
    return SearchBot("review", **judge_settings())


def judge_settings() -> dict[str, Any]:
    """The Master level's settings with the review's budget."""
    settings = dict(levels_for("skyjo")[JUDGE_LEVEL].settings)
    settings["samples"] = min(REVIEW_SAMPLES, int(settings.get("samples", 0)))
    return settings


def review(options: Options, seed: str, steps: Iterable[Step], seat: int) -> Review:
    """Score every decision ``seat`` made in the match the steps replay (``games.base``)."""
    judging = judge()

    def weigh(seen: SeatView, action: Action) -> tuple[float, tuple[Action, ...]]:
        cost, best = _weigh(judging, seen, action)
        return cost, (best,)

    def reason(seen: SeatView, played: Action, line: tuple[Action, ...]) -> str:
        return why(seen, played, line[0])

    parse = functools.partial(action_from_json, allow_timeout=True)
    return review_steps(Match(options, seed), list(steps), seat, parse, weigh, reason, POINTS)


def why(view: SeatView, played: Action, best: Action) -> str:
    """The Master's reason for ``best``, and what was wrong with ``played`` when it closed
    the round (S4.1) and the Master would not have."""
    reason = explain(view, best)
    if closes(view, played) and not closes(view, best):
        reason += (
            "; yours turned your last face-down card and closed the round, and a closer "
            "whose total is not the lowest has it doubled (S4.3)"
        )
    return reason


def closes(view: SeatView, action: Action) -> bool:
    """Whether ``action`` turns the seat's last face-down card, closing the round (S4.1)."""
    if view.closer is not None or action.kind not in ("take", "exchange", "discard"):
        return False
    assert view.seat is not None
    hidden = [p for p, cell in enumerate(view.grids[view.seat]) if cell == HIDDEN]
    return hidden == [action.position]


def _weigh(judging: SearchBot, view: SeatView, action: Action) -> tuple[float, Action]:
    """The points ``action`` gives away at ``view`` and the Master's best action there."""
    values = judging.values(view, action)
    if not values:
        return 0.0, action
    best = min(values, key=lambda a: (values[a], a.kind != "draw", a.position))
    played = values.get(action)
    if played is None:  # a timeout (R7.3-like): not a choice the seat made
        return 0.0, best
    return max(0.0, played - values[best]), best
