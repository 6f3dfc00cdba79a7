"""Skyjo's deal of the day (``games/daily.py``): one round against two Hard bots whose play
the day's seed fixes; the lowest round score wins (S4), the closer's doubling included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..daily import YOU, DailyRules, Outcome, turns_of
from .match import Match

TOOK = "🟦"  # took the discard pile's card
KEPT = "🟩"  # drew a card and kept it
TURNED = "🟨"  # drew a card, let it go and turned one up
CLOSED = "🏁"  # the person closed the round


def outcome(match: Match) -> Outcome:
    result = match.round_result() or {}
    points = list(result.get("points") or match.scores)
    mine = points[YOU]
    place = 1 + sum(1 for p in points if p < mine)
    closer = " (you closed)" if result.get("closer") == YOU else ""
    return Outcome(mine, place, f"{mine} points, place {place} of {len(points)}{closer}")


def marks(events: Sequence[Mapping[str, Any]]) -> str:
    out = []
    for turn in turns_of(events):
        kinds = {e.get("kind") for e in turn}
        if "took" in kinds:
            out.append(TOOK)
        elif "exchanged" in kinds:
            out.append(KEPT)
        elif "discarded" in kinds:
            out.append(TURNED)
    if any(e.get("kind") == "closed" and e.get("seat") == YOU for e in events):
        out.append(CLOSED)
    return "".join(out)


DAILY = DailyRules(
    name="Skyjo round",
    summary="One round against two Hard bots; the lowest score wins.",
    options={"players": 3, "hints": False},
    bots=("hard", "hard"),
    unit="points",
    outcome=outcome,
    marks=marks,
    legend={
        TOOK: "took the discard",
        KEPT: "drew and kept",
        TURNED: "drew and turned one up",
        CLOSED: "closed the round",
    },
)
