"""Which judge reviews a finished match of each game (``review.py`` for Skip's expert,
``skyjo/review.py`` for Skyjo's counter): one door for the server and the command line."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from cardroom.games.base import Step

from . import review as skip_review
from .review import Review
from .skyjo import review as skyjo_review

REVIEWERS: dict[str, Callable[..., Review]] = {
    "skip": skip_review.review,
    "skyjo": skyjo_review.review,
}


def review_match(game: str, options: Any, seed: str, steps: Iterable[Step], seat: int) -> Review:
    """``seat``'s decisions in the match ``steps`` replay, scored by ``game``'s judge."""
    reviewer = REVIEWERS.get(game)
    if reviewer is None:
        raise ValueError(f"no review for {game!r} matches; reviewed: {', '.join(REVIEWERS)}")
    return reviewer(options, seed, steps, seat)
