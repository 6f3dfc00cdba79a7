"""The deal of the day (``Game.daily``): what makes one game's daily challenge, pure.

A game that offers one gives its options, the bots that sit with the person (their play fixed
by the day's seed), and how the first round's end is judged: a result (fewer is better, or
``None`` for a challenge failed), a place, and a row of marks, one per turn of the person,
that tells how the round went without telling a card (the share text). Everything here
reads the engine's match and its public events; the seed, the storage and the days are the
``cardroom.daily`` package's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

YOU = 0  # the person's seat at a daily deal


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a daily round ended for the person: ``result`` in the challenge's unit (``None``:
    failed), the person's ``place`` among the seats (1 alone), and the words for it."""

    result: int | None
    place: int
    words: str

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "place": self.place, "words": self.words}


@dataclass(frozen=True, slots=True)
class DailyRules:
    """One game's daily challenge.

    ``options``: the options JSON of the day's round (hints off for the scored attempt: a
    practice round turns them on). ``bots``: the bot specs at seats 1… . ``unit``: what the
    result counts (``turns``, ``points``); the lower result ranks first. ``outcome`` judges
    the match once its first round is over; ``marks`` turns the public events of the round
    (``Game.event_json``) into one symbol per turn of the person.
    """

    name: str
    summary: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    unit: str
    outcome: Callable[[Any], Outcome]
    marks: Callable[[Sequence[Mapping[str, Any]]], str]
    legend: Mapping[str, str]

    def practice_options(self) -> dict[str, Any]:
        return {**self.options, "hints": True}


def round_over(match: Any) -> bool:
    """Whether the daily round is over: its first round ended (or the match did)."""
    return bool(match.over or match.between_rounds)


def turns_of(events: Sequence[Mapping[str, Any]], seat: int = YOU) -> list[list[Mapping[str, Any]]]:
    """The events of each turn of ``seat``: from its ``turn`` event to the next ``turn``."""
    turns: list[list[Mapping[str, Any]]] = []
    current: list[Mapping[str, Any]] | None = None
    for event in events:
        if event.get("kind") == "turn":
            current = [] if event.get("seat") == seat else None
            if current is not None:
                turns.append(current)
        elif current is not None and event.get("seat") == seat:
            current.append(event)
    return turns
