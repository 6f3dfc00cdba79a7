"""A Skyjo match: rounds until a total reaches the end score; the lowest total wins (S5.1).

The match owns the move log, so it can always write its game record. Between rounds the
closer of the round just played is the one to start the next (S4.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import (
    ACTION,
    FORFEIT,
    NEXT_ROUND,
    Event,
    IllegalMove,
    Step,
    check_forfeit,
    forfeit_event,
    forfeit_winners,
)
from .actions import TIMEOUT, Action
from .notation import action_from_json
from .options import Options
from .rules import apply, apply_fast, new_round
from .state import RoundResult, State
from .views import SeatView, view


def game_winners(totals: Sequence[int], end_score: int) -> tuple[int, ...] | None:
    """S5.1: once a total reaches the end score, the seats with the lowest total (ties share
    the win); None while the game goes on. The score keeper (S6.2) ends its games here too."""
    if max(totals) < end_score:
        return None
    lowest = min(totals)
    return tuple(s for s, total in enumerate(totals) if total == lowest)


@dataclass(slots=True)
class RoundLog:
    """One round as it was played: enough to replay it exactly."""

    number: int
    starter: int | None
    """The seat given to start the turns (the previous closer, S4.4); None in the first round,
    where the reveals decide (S1.3)."""
    moves: list[tuple[int, Action]] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    result: RoundResult | None = None


class Match:
    """Rounds of Skyjo with running totals and the end of the game."""

    def __init__(
        self, options: Options, seed: str | int, *, fingerprints: bool = False, record: bool = True
    ) -> None:
        """``record=False`` keeps no move log (tables, whose moves are in the database); the
        rounds' results and the totals are kept either way."""
        self.options = options
        self.seed = str(seed)
        self.fingerprints = fingerprints
        self.record = record or fingerprints
        self.scores = [0] * options.players
        self.rounds: list[RoundLog] = []
        self.winners: tuple[int, ...] | None = None
        self.forfeited: int | None = None  # the seat that forfeited the match, if one did
        self.deal_events: list[Event] = []
        self.state: State = self._deal(None)
        self.opening_events: list[Event] = self.deal_events

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def between_rounds(self) -> bool:
        return self.state.result is not None and self.winners is None

    @property
    def current(self) -> int | None:
        if self.state.result is not None or self.winners is not None:
            return None
        return self.state.current

    def _deal(self, starter: int | None) -> State:
        number = len(self.rounds) + 1
        deal = self.options.deal
        if deal is not None and deal.first is not None:
            starter = deal.first  # a test's set deal (deal.py)
        self.rounds.append(RoundLog(number=number, starter=starter))
        self.deal_events = []
        return new_round(
            self.options,
            f"{self.seed}/{number}",
            starter,
            self.deal_events,
            scores=tuple(self.scores),
        )

    def next_round(self) -> State:
        """Deal the next round, started by the closer of the last (S4.4)."""
        result = self.state.result
        if result is None or self.winners is not None:
            raise IllegalMove("S5.1", "the round is still being played or the game is over")
        self.state = self._deal(result.closer)
        return self.state

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action to the round, log it, and add up the round once it is scored."""
        state = self.state
        mover = state.current
        events = apply(state, action, seat)
        if self.record:
            log = self.rounds[-1]
            log.moves.append((mover, action))
            if self.fingerprints:
                log.checks.append(state.fingerprint())
        if state.result is not None:
            self._add_up(state.result)
        return events

    def apply_trusted(self, action: Action) -> None:
        """``apply`` without the legality check or events, for simulations whose every action
        was already checked (``rules.check``)."""
        state = self.state
        mover = state.current
        apply_fast(state, action)
        if self.record:
            log = self.rounds[-1]
            log.moves.append((mover, action))
            if self.fingerprints:
                log.checks.append(state.fingerprint())
        if state.result is not None:
            self._add_up(state.result)

    def play_out(self, choosers: Sequence[Callable[[SeatView], Action]], limit: int) -> bool:
        """Play the round to its end, each seat's choice from its own view applied without the
        rules' check, events or a log, and score it; False if it did not end within ``limit``
        moves (simulations between trusted bots nobody watches)."""
        state = self.state
        assert not self.record
        result = state.result  # a local, read anew after each move (the rules change it)
        if result is not None:
            return True
        for _ in range(limit):
            seat = state.current
            apply_fast(state, choosers[seat](view(state, seat)))
            result = state.result
            if result is not None:
                self._add_up(result)
                return True
        return False

    def _add_up(self, result: RoundResult) -> None:
        """S5.1: the round's points join the totals; a total at the end score ends the game,
        and the lowest total wins (ties share the win)."""
        self.rounds[-1].result = result
        for seat, points in enumerate(result.points):
            self.scores[seat] += points
        self.state.scores = tuple(self.scores)
        self.winners = game_winners(self.scores, self.options.end_score)

    def view(self, seat: int | None) -> SeatView:
        return view(self.state, seat)

    # -- the Game contract's match face (``games/base.py``) ----------------------------------

    def apply_step(self, step: Step) -> list[Event]:
        if step.kind == ACTION:
            return self.apply(action_from_json(step.action, allow_timeout=True), seat=step.seat)
        if step.kind == NEXT_ROUND:
            self.next_round()
            return list(self.deal_events)
        if step.kind == FORFEIT:
            return self.forfeit(step.seat)
        raise ValueError(f"unknown step {step.kind!r}")

    def forfeit(self, seat: object) -> list[Event]:
        """The ladder's forfeit (``games.base.FORFEIT``): the match ends now, everyone else
        wins."""
        seat = check_forfeit(seat, self.options.players, self.over)
        self.forfeited = seat
        self.winners = forfeit_winners(self.options.players, {seat})
        return [forfeit_event(seat, self.winners)]

    def between_round_steps(self, absent: frozenset[int]) -> list[Step]:
        """Skyjo has nothing to settle between rounds but the next deal."""
        return [Step(NEXT_ROUND)]

    def timeout_action(self) -> Action:
        return TIMEOUT

    def progress(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "scores": list(self.scores),
            "teams": False,
            "end_score": self.options.end_score,
            "over": self.over,
            "winners": list(self.winners) if self.winners is not None else None,
            # Every scored round, public once scored: the score sheet a table shows (S5.1).
            "history": [r.result.to_json() for r in self.rounds if r.result is not None],
        }

    def round_started(self) -> dict[str, Any]:
        starter = self.rounds[-1].starter
        rule = "S1.3" if starter is None else "S4.4"
        return {"round": self.round_number, "starter": starter, "rule": rule}

    def round_result(self) -> dict[str, Any] | None:
        result = self.state.result
        return result.to_json() if result is not None else None

    def moves(self) -> list[tuple[int, int, Action]]:
        """Every move so far as (round number, seat, action)."""
        return [(log.number, seat, action) for log in self.rounds for seat, action in log.moves]
