"""Per-match facts of a Skyjo match, seat by seat, read from the engine's own events.

The steps are walked by the one replay of the Game contract (``games.base.replay_from``):
every count comes from an ``Event`` the engine emitted (``turn``, ``column_removed``,
``closed``, ``round_over``…). In Skyjo fewer points are better: ``best_round`` is a seat's
lowest round score, and a round is won by the lowest score (ties share it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..base import ACTION, FORFEIT, FORFEITED, NEXT_ROUND, ReplayError, Step, replay_from
from .match import Match
from .options import Options


class RecordError(ValueError):
    """A match that cannot be analysed (an illegal step, an unfinished match)."""


def mode_of(options: Options) -> str:
    """The rating pool of a match: ``2p`` or ``3p+``."""
    return "2p" if options.players == 2 else "3p+"


@dataclass(slots=True)
class SeatFacts:
    """One seat's match, counted from events. Career counters are filled in by the caller."""

    seat: int
    players: int
    mode: str
    ranked: bool
    end_score: int
    won: bool = False
    points: int = 0  # the final total: fewer is better (S5.1)
    rounds: int = 0
    rounds_won: int = 0  # rounds with the lowest round score, ties included
    best_round: int | None = None  # the lowest round score
    worst_round: int | None = None
    turns: int = 0
    timeouts: int = 0
    columns_removed: int = 0  # S3.1, during turns and at the final reveal
    rounds_closed: int = 0  # S4.1: rounds this seat ended by turning its last card
    closer_doubled: int = 0  # S4.3: rounds this seat closed and had its score doubled
    forfeited: bool = False  # this seat forfeited the match (games.base.FORFEIT)
    side: list[int] = field(default_factory=list)
    opponents: list[dict[str, Any]] = field(default_factory=list)
    beat_bot_levels: list[str] = field(default_factory=list)
    career_matches: int = 0
    career_wins: int = 0


@dataclass(slots=True)
class MatchFacts:
    options: Options
    mode: str
    winners: tuple[int, ...]
    scores: list[int]
    rounds: int
    seats: list[SeatFacts]


def steps_of_record(record: dict[str, Any]) -> Iterator[Step]:
    """A game record's rounds and moves as the steps the store keeps."""
    for r, round_data in enumerate(record.get("rounds") or [], start=1):
        if r > 1:
            yield Step(NEXT_ROUND)
        for move in round_data.get("moves") or []:
            yield Step(ACTION, move.get("seat"), move.get("action"))
    forfeit = (record.get("result") or {}).get("forfeit")
    if forfeit is not None:
        yield Step(FORFEIT, forfeit)


def analyse(
    options: Options,
    seed: str,
    steps: Iterable[Step],
    *,
    ranked: bool = False,
    seats: list[dict[str, Any]] | None = None,
) -> MatchFacts:
    """The facts of a finished match, seat by seat. ``seats`` (the match's seat list) names
    the bot level of each bot seat."""
    seats = seats or []
    n = options.players
    facts = [
        SeatFacts(
            seat=s,
            players=n,
            mode=mode_of(options),
            ranked=ranked,
            end_score=options.end_score,
            side=[s],
        )
        for s in range(n)
    ]
    match = Match(options, seed)
    try:
        for _match, _step, events in replay_from(match, steps):
            for event in events:
                _count(facts, event.kind, event.seat, event.detail)
    except ReplayError as error:
        raise RecordError(str(error)) from None
    if not match.over:
        raise RecordError("the match is not finished")
    winners = tuple(match.winners or ())
    for me in facts:
        me.rounds = match.round_number
        me.points = match.scores[me.seat]
        me.won = me.seat in winners
        me.opponents = [
            {"seat": s, **(seats[s] if s < len(seats) else {})} for s in range(n) if s != me.seat
        ]
        if me.won:
            me.beat_bot_levels = sorted({o["bot"] for o in me.opponents if o.get("bot")})
    return MatchFacts(
        options=options,
        mode=mode_of(options),
        winners=winners,
        scores=list(match.scores),
        rounds=match.round_number,
        seats=facts,
    )


def _count(facts: list[SeatFacts], kind: str, seat: int, detail: dict[str, Any]) -> None:
    if kind == "turn" and detail.get("phase") == "play":
        facts[seat].turns += 1
    elif kind == "timed_out":
        facts[seat].timeouts += 1
    elif kind == FORFEITED:
        facts[seat].forfeited = True
    elif kind == "column_removed":
        facts[seat].columns_removed += 1
    elif kind == "closed":
        facts[seat].rounds_closed += 1
    elif kind == "round_over":
        points = list(detail["points"])
        lowest = min(points)
        if detail["doubled"]:
            facts[detail["closer"]].closer_doubled += 1
        for me in facts:
            mine = points[me.seat]
            me.rounds_won += mine == lowest
            me.best_round = mine if me.best_round is None else min(me.best_round, mine)
            me.worst_round = mine if me.worst_round is None else max(me.worst_round, mine)
