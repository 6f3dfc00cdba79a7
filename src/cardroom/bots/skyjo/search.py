"""Skyjo ``search``: the counter's judgement, checked against guesses of the hidden cards
where a round is decided.

Determinized search (PIMC), one decision deep. Most of a round the counter (``counter.py``)
decides alone: with many cards face down everywhere, the round's end is far and a guess of
the cards says little its expectations do not. Once some grid is down to its last ``endgame``
face-down cards (someone can close soon, S4.1) and nobody has closed yet, the counter's
few best actions (``candidates``, within ``spread`` points of its best) are each played out
to the end of the round on the same ``samples`` sampled deals (every face-down card, the draw
order and the discards below the top, drawn from the cards this seat has not seen,
``sampling.py``), every seat played by ``quick``, a fast counter (the drawn card of a
``draw`` the counter's own). An action is scored by the round's points
it leads to: the seat's own less the others' mean (S4.2, the closer's doubling S4.3
included). Another action replaces the counter's first choice only when it wins the paired
comparison (same deals) by ``confidence`` standard errors.

The budget is samples, never the clock: a seed and the same game give the same choices on any
machine. The hidden cards are guessed from the seat's view and the counter's memory of the
round (the cards it saw buried), never read.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import Any

from cardroom.bots.paired import lower_bound
from cardroom.games.skyjo import DRAW, HIDDEN, Action, SeatView, State, apply_fast
from cardroom.games.skyjo import view as view_of
from cardroom.games.skyjo.actions import DISCARD_AT, EXCHANGE_AT, REVEAL_AT, TAKE_AT
from cardroom.games.skyjo.cards import COPIES, DECK_SIZE

from .common import completes_column
from .counter import CounterBot
from .sampling import determinize

MAX_ROLLOUT_MOVES = 2_000
"""A rollout's moves at most (a round has about 60 for two players): ``quick`` has no hurry
to close, so two cautious rollout players could go on; such a rollout is scored as it lies."""


class SearchBot:
    """The counter's candidates, each judged by rollouts on sampled hidden cards.

    ``samples`` deals per search, ``candidates`` actions compared at most, ``endgame`` the
    face-down cards some grid is down to when the search begins, ``spread`` the points behind
    the counter's best a candidate may be, ``confidence`` the standard errors by which another
    action must beat the counter's, ``fast`` 1 plays the rollouts with ``quick`` (0: with the
    counter itself), ``game`` 1 scores a rollout by the game's totals (``_game_score``) instead
    of the round's points; ``counting``, ``column``, ``gift``, ``margin``, ``gain``,
    ``tempo``, ``finish`` and ``flip`` are the counter's (``CounterBot``).
    """

    name = "search"

    def __init__(
        self,
        seed: str | int = 0,
        samples: int = 32,
        candidates: int = 4,
        endgame: int = 2,
        spread: float = 8.0,
        confidence: float = 1.0,
        fast: int = 1,
        game: int = 0,
        counting: int = 1,
        column: float = 0.6,
        gift: float = 0.5,
        margin: float = 0.0,
        gain: float = 1.0,
        tempo: float = 0.0,
        finish: int = 0,
        flip: float = 0.0,
    ) -> None:
        if int(samples) < 0 or int(candidates) < 1:
            raise ValueError("samples is at least 0 and candidates at least 1")
        self.seed = str(seed)
        self.samples = int(samples)
        self.candidates = int(candidates)
        self.endgame = int(endgame)
        self.spread = float(spread)
        self.confidence = float(confidence)
        self.fast = bool(fast)
        self.game = bool(game)
        self.counter = CounterBot(seed, counting, column, gift, margin, gain, tempo, finish, flip)

    def choose(self, view: SeatView) -> Action:
        if not self.searching(view):
            return self.counter.choose(view)
        values = self.counter.values(view)
        action = self.best(view, values)[0]
        self.counter.played(view, action)
        return action

    def values(self, view: SeatView, played: Action | None = None) -> dict[Action, float]:
        """What a review weighs the seat's decision at ``view`` with (lower is better), then
        remembers ``played`` as ``choose`` remembers its own choice. Where the search runs,
        the actions it compared (``played`` among them) at their mean points over the deals,
        the one it would play counted as the best: another is no better until it wins the
        paired comparison. Elsewhere the counter's expected points (``CounterBot.values``)."""
        values = self.counter.values(view)
        if values and self.searching(view):
            chosen, means = self.best(view, values, played)
            if len(means) > 1:
                values = dict(means)
                values[chosen] = min(means.values())
        if played is not None:
            self.counter.played(view, played)
        return values

    def searching(self, view: SeatView) -> bool:
        """Whether the round may end soon enough for a search to see it: in play, nobody has
        closed, and some grid has at most ``endgame`` face-down cards."""
        if not self.samples or view.phase != "play" or view.closer is not None:
            return False
        return min(sum(c == HIDDEN for c in grid) for grid in view.grids) <= self.endgame

    def shortlist(self, values: dict[Action, float]) -> list[Action]:
        """The counter's best actions, its own choice first."""
        ranked = sorted(values, key=lambda a: (values[a], a.kind != "draw", a.position))
        best = values[ranked[0]]
        close = [a for a in ranked if values[a] <= best + self.spread]
        return close[: self.candidates]

    def best(
        self, view: SeatView, values: dict[Action, float], extra: Action | None = None
    ) -> tuple[Action, dict[Action, float]]:
        """The action to play and every compared action's mean points over the deals (the
        seat's less the others' mean, lower is better); ``extra`` is compared too."""
        plans = self.shortlist(values)
        playable = len(plans)
        if extra is not None and extra not in plans and extra in values:
            plans.append(extra)  # compared for a review, never played in the counter's place
        if len(plans) == 1:
            return plans[0], {plans[0]: values[plans[0]]}
        scores = self.rollouts(view, plans)
        means = {plan: sum(s) / len(s) for plan, s in zip(plans, scores, strict=True)}
        chosen, edge = plans[0], 0.0
        for index in range(1, playable):
            diffs = [a - b for a, b in zip(scores[0], scores[index], strict=True)]
            gain = lower_bound(diffs, self.confidence)
            if gain > edge:
                chosen, edge = plans[index], gain
        return chosen, means

    def rollouts(self, view: SeatView, plans: list[Action]) -> list[list[float]]:
        """Each plan's points on the same sampled deals, every seat then played by the same
        rollout policy with the same seeds (common random numbers)."""
        rng = random.Random(f"skyjo-search:{self.seed}:{_digest(view)}")
        buried = dict(self.counter.memory.buried)
        if self.counter.memory.top_buried and view.discard_top is not None:
            buried[view.discard_top] = buried.get(view.discard_top, 0) - 1
        scores: list[list[float]] = [[] for _ in plans]
        me = view.seat
        assert me is not None
        for _ in range(self.samples):
            deal = determinize(view, rng, buried)
            seed = rng.getrandbits(32)
            for index, plan in enumerate(plans):
                state = deal.copy()
                apply_fast(state, plan)
                if plan.kind == "draw":  # the drawn card's use is the counter's, as at the table
                    apply_fast(state, CounterBot(seed).choose(view_of(state, me)))
                points = _play_out(state, me, seed, self.fast)
                if self.game:
                    scores[index].append(_game_score(points, me, view))
                else:
                    scores[index].append(_round_score(points, me))
        return scores


def _play_out(state: State, me: int, seed: int, fast: bool) -> list[int]:
    """The round played to its end by ``quick`` (or counters): every seat's points."""
    choosers = [
        quick if fast else CounterBot(f"{seed}:{seat}").choose for seat in range(state.players)
    ]
    for _ in range(MAX_ROLLOUT_MOVES):
        if state.result is not None:
            break
        seat = state.current
        apply_fast(state, choosers[seat](view_of(state, seat)))
    if state.result is not None:
        points = list(state.result.points)
    else:  # a round that would not end: the grids as they lie, no doubling
        points = [sum(c for c in grid if c is not None) for grid in state.cards]
    return points


def _round_score(points: list[int], me: int) -> float:
    """The seat's round points less the others' mean (lower is better)."""
    others = [p for s, p in enumerate(points) if s != me]
    return points[me] - sum(others) / len(others)


GAME_END = 50.0
"""Points a rollout's game end is worth beside the totals' gap: a game won or lost (S5.1)."""


def _game_score(points: list[int], me: int, view: SeatView) -> float:
    """The seat's total after the round less the lowest other total (lower is better): with
    four players first place is against the leader, not the field. A round that ends the game
    (a total reaches the end score, S5.1) adds ``GAME_END`` when the seat is not strictly
    lowest and takes it off when it is."""
    totals = view.scores or (0,) * len(points)
    after = [total + p for total, p in zip(totals, points, strict=True)]
    best_other = min(t for s, t in enumerate(after) if s != me)
    gap = after[me] - best_other
    if max(after) >= view.options.end_score:
        return gap + (GAME_END if gap >= 0 else -GAME_END)
    return float(gap)


def _digest(view: SeatView) -> int:
    """The position, for the search's seed: the same view searches the same deals."""
    key = (view.grids, view.discard_top, view.discard_count, view.draw_count, view.drawn)
    return zlib.crc32(repr((key, view.turn, view.current, view.closer, view.scores)).encode())


# -- the rollout policy -------------------------------------------------------------------------

DECK_SUM = sum(card * n for card, n in COPIES.items())
TAKE_GAIN = 2.5
"""Points a discard must save to be taken rather than a card drawn."""
KEEP_GAIN = 1.0
"""Points a drawn card must save to be kept rather than discarded and a card turned."""
SPREAD = 3.9
"""About the deck's standard deviation (S1.1): the spread of one face-down card."""


def quick(seen: SeatView) -> Action:
    """A fast counter for rollouts: the pool's mean for every unseen card, a discard taken or a
    drawn card kept when it saves enough, and a close (S4.1) weighed by the chance that the
    closer is doubled (S4.3). From the seat's view alone, like any bot."""
    seat = seen.seat
    assert seat is not None
    grids = seen.grids
    total, count = 0, 0
    for grid in grids:
        for cell in grid:
            if cell.__class__ is int:
                total += cell  # type: ignore[operator]
                count += 1
    top, drawn = seen.discard_top, seen.drawn
    if top is not None:
        total += top
        count += 1
    if drawn is not None:
        total += drawn
        count += 1
    mean = (DECK_SUM - total) / max(1, DECK_SIZE - count)
    grid = grids[seat]
    hidden = [p for p, cell in enumerate(grid) if cell == HIDDEN]
    if seen.phase == "reveal":
        return REVEAL_AT[hidden[0]]
    closing = seen.closer is None and len(hidden) == 1
    risk = _Risk(seen, mean) if closing else None
    card = drawn if seen.holding else top
    best, where = -math.inf, -1
    if card is not None:
        for pos, cell in enumerate(grid):
            if cell is None:
                continue
            old = mean if cell == HIDDEN else cell
            gain = old - card  # type: ignore[operator]
            if seen.options.column_removal and completes_column(grid, pos, card):
                gain += 3 * card
            if risk is not None and cell == HIDDEN:
                gain -= risk.cost(grid, pos, card)
            if gain > best:
                best, where = gain, pos
    if not seen.holding:
        return TAKE_AT[where] if where >= 0 and best >= TAKE_GAIN else DRAW
    if hidden:
        flip = hidden[0]
        turned = -risk.cost(grid, flip, None) if risk is not None else 0.0
        if best < KEEP_GAIN + turned:
            return DISCARD_AT[flip]
    return EXCHANGE_AT[where]


class _Risk:
    """What closing costs a seat: its sum, doubled unless strictly the lowest (S4.3), by the
    chance that another grid ends lower (its face-down cards at the pool's mean)."""

    def __init__(self, seen: SeatView, mean: float) -> None:
        self.doubling = seen.options.closer_doubling
        self.mean = mean
        self.others: list[tuple[float, float]] = []
        for seat, grid in enumerate(seen.grids):
            if seat == seen.seat:
                continue
            hidden = sum(c == HIDDEN for c in grid)
            known = sum(c for c in grid if c.__class__ is int)  # type: ignore[misc]
            expected = known + hidden * mean - KEEP_GAIN
            self.others.append((expected, math.sqrt(hidden) * SPREAD + 1.5))

    def cost(self, grid: tuple[Any, ...], pos: int, card: int | None) -> float:
        """The expected points lost to the doubling when ``card`` (None: the card turned
        there, worth the mean) closes the round at ``pos``."""
        if not self.doubling:
            return 0.0
        total = sum(c for p, c in enumerate(grid) if p != pos and c.__class__ is int)
        mine = total + (self.mean if card is None else card)
        if mine <= 0:
            return 0.0
        lowest = 1.0
        for expected, spread in self.others:
            lowest *= 1.0 - _normal((mine + 0.5 - expected) / spread)
        return mine * (1.0 - lowest)


def _normal(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
