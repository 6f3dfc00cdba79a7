"""A match: rounds played until a player or team reaches the target (R6.2, R6.3).

The match owns the move log, so it can always produce its game record (R7.5). Between rounds
it rotates the dealer and, when a partner has gone, falls back to solo play (R2.5).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import (
    ACTION,
    FORFEIT,
    NEXT_ROUND,
    Event,
    Step,
    check_forfeit,
    forfeit_event,
    forfeit_winners,
)
from .actions import Action
from .cards import WILD, deck_units, new_deck
from .notation import action_from_json
from .options import Options
from .rules import TIMEOUT, apply, apply_fast, new_round
from .state import IllegalMove, RoundResult, State
from .views import SeatView, view

SOLO = "solo"
"""The between-round step of R2.5: the teams are dissolved before the next deal."""


@dataclass(slots=True)
class RoundLog:
    """One round as it was played: enough to replay it exactly."""

    number: int
    dealer: int
    teams: bool
    moves: list[tuple[int, Action]] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    result: RoundResult | None = None
    turns: int = 0


def draw_for_dealer(players: int, seed: str | int) -> int:
    """R3.4: everyone draws a card; the highest number deals first (wilds don't count).

    Tied players draw again among themselves.
    """
    rng = random.Random(f"skip-dealer:{seed}")
    deck = new_deck(deck_units(players))
    candidates = list(range(players))
    while len(candidates) > 1:
        drawn = {}
        for seat in candidates:
            card = WILD
            while card == WILD:
                if not deck:
                    return candidates[0]
                card = deck.pop(rng.randrange(len(deck)))
            drawn[seat] = card
        best = max(drawn.values())
        candidates = [seat for seat in candidates if drawn[seat] == best]
    return candidates[0]


def match_winners(
    scores: Sequence[int], round_winners: Sequence[int], target: int | None
) -> tuple[int, ...] | None:
    """R6.3: the round's winners win the match when their score reaches the target, or at
    once with a single round (None); None while the match goes on. The score keeper ends its
    Skip games here too.

    R6.4: a round nobody won (a tied stalemate, a stalled solo round) never ends the match,
    not even a single-round one: a new round is dealt, so a match always has a winner."""
    if round_winners and (target is None or scores[round_winners[0]] >= target):
        return tuple(round_winners)
    return None


class Match:
    """Rounds of Skip with scores, dealer rotation and the match end."""

    def __init__(
        self,
        options: Options,
        seed: str | int,
        *,
        fingerprints: bool = False,
        first_dealer: int | None = None,
        record: bool = True,
    ) -> None:
        """``record=False`` keeps no move log (simulations that write no game record, and
        tables, whose moves are in the database); the rounds' results, turns and the scores
        are kept either way."""
        self.options = options
        self.seed = str(seed)
        self.fingerprints = fingerprints
        self.record = record or fingerprints
        self.scores = [0] * options.players
        self.team_mode = options.teams
        self.first_dealer = (
            draw_for_dealer(options.players, self.seed) if first_dealer is None else first_dealer
        )
        self.rounds: list[RoundLog] = []
        self.winners: tuple[int, ...] | None = None
        self.forfeited: int | None = None  # the seat that forfeited the match, if one did
        self.deal_events: list[Event] = []  # the last deal's first turn (``turn``, ``drew``)
        self.state: State = self._deal(self.first_dealer)
        self.opening_events: list[Event] = self.deal_events

    # -- the flow of a match ------------------------------------------------------------------

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def between_rounds(self) -> bool:
        """The current round is over and the match is not: ``next_round`` may be called."""
        return self.state.result is not None and self.winners is None

    @property
    def current(self) -> int | None:
        """The seat to act now; None between rounds and once the match is over."""
        if self.state.result is not None or self.winners is not None:
            return None
        return self.state.current

    def _deal(self, dealer: int) -> State:
        number = len(self.rounds) + 1
        self.rounds.append(RoundLog(number=number, dealer=dealer, teams=self.team_mode))
        self.deal_events = []
        return new_round(
            self.options,
            f"{self.seed}/{number}",
            dealer,
            self.team_mode,
            self.deal_events,
            scores=tuple(self.scores),
        )

    def fall_back_to_solo(self) -> None:
        """R2.5: from the next round on, everyone plays and scores alone."""
        if not self.between_rounds:
            raise IllegalMove("R2.5", "teams can only be dissolved between rounds")
        self.team_mode = False

    def next_round(self) -> State:
        """Deal the next round; the deal moves on one seat in the direction of play."""
        if not self.between_rounds:
            raise IllegalMove("R6.3", "the round is still being played or the match is over")
        step = 1 if self.options.direction == "clockwise" else -1
        dealer = (self.rounds[-1].dealer + step) % self.options.players
        self.state = self._deal(dealer)
        return self.state

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action to the current round, log it, and score the round when it ends."""
        state = self.state
        mover = state.current
        events = apply(state, action, seat)
        if self.record:
            log = self.rounds[-1]
            log.moves.append((mover, action))
            if self.fingerprints:
                log.checks.append(state.fingerprint())
        if state.result is not None:
            self._score(state.result)
        return events

    def apply_trusted(self, action: Action) -> None:
        """``apply`` without the legality check or events, for simulations whose every action
        was already checked (or listed by ``legal_actions``)."""
        state = self.state
        if self.record:
            self.rounds[-1].moves.append((state.current, action))
            apply_fast(state, action)
            if self.fingerprints:
                self.rounds[-1].checks.append(state.fingerprint())
        else:
            apply_fast(state, action)
        if state.result is not None:
            self._score(state.result)

    def play_out(self, choosers: Sequence[Callable[[SeatView], Action]], limit: int) -> bool:
        """Play the round to its end, each seat's choice from its own view applied without the
        rules' check, events or a log, and score it; False if it did not end within ``limit``
        moves. The loop of simulations between trusted bots nobody watches: compiled with the
        rules (``make compiled``), the view, the choice and the move follow one another without
        the interpreter between them."""
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
                self._score(result)
                return True
        return False

    def _score(self, result: RoundResult) -> None:
        self.rounds[-1].result = result
        self.rounds[-1].turns = self.state.turn
        for seat, points in enumerate(result.points):
            self.scores[seat] += points
        self.state.scores = tuple(self.scores)
        self.winners = match_winners(self.scores, result.winners, self.options.match_target)

    def view(self, seat: int | None) -> SeatView:
        """The seat's view of the current round, match scores included (R7.2)."""
        return view(self.state, seat)

    # -- the Game contract's match face (``games/base.py``) ----------------------------------

    def apply_step(self, step: Step) -> list[Event]:
        """One stored step: an action (timeouts included), a deal, or the R2.5 fall-back."""
        if step.kind == ACTION:
            action = action_from_json(step.action, allow_timeout=True)
            return self.apply(action, seat=step.seat)
        if step.kind == NEXT_ROUND:
            self.next_round()
            return list(self.deal_events)
        if step.kind == SOLO:
            self.fall_back_to_solo()
            return [Event(SOLO, -1, {"reason": "a team player has left (R2.5)"})]
        if step.kind == FORFEIT:
            return self.forfeit(step.seat)
        raise ValueError(f"unknown step {step.kind!r}")

    def forfeit(self, seat: object) -> list[Event]:
        """The ladder's forfeit (``games.base.FORFEIT``): the match ends now; the seat's side
        (its partner too while teams last) loses and every other seat wins."""
        seat = check_forfeit(seat, self.options.players, self.over)
        partners = self.state.partners if self.team_mode else None
        side = {seat} if partners is None else {seat, partners[seat]}
        self.forfeited = seat
        self.winners = forfeit_winners(self.options.players, side)
        return [forfeit_event(seat, self.winners)]

    def between_round_steps(self, absent: frozenset[int]) -> list[Step]:
        """R2.5: a team whose player has gone plays on solo; then the next deal."""
        if self.team_mode and absent:
            return [Step(SOLO), Step(NEXT_ROUND)]
        return [Step(NEXT_ROUND)]

    def timeout_action(self) -> Action:
        return TIMEOUT

    def progress(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "scores": list(self.scores),
            "teams": self.team_mode,
            "over": self.over,
            "winners": list(self.winners) if self.winners is not None else None,
        }

    def round_started(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "dealer": self.state.dealer,
            "teams": self.state.partners is not None,
        }

    def round_result(self) -> dict[str, Any] | None:
        result = self.state.result
        return result.to_json() if result is not None else None

    # -- the record ----------------------------------------------------------------------------

    def moves(self) -> list[tuple[int, int, Action]]:
        """Every move so far as (round number, seat, action)."""
        return [(log.number, seat, action) for log in self.rounds for seat, action in log.moves]
