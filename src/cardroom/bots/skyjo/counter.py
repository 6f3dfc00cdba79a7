"""Skyjo ``counter``: counts the cards it has seen and weighs every action by expectation.

What a face-down card or the next draw may be is the deck less every card it knows to be
elsewhere: face-up cards of all grids, the discard top, the cards it saw buried in the
discard pile and the columns it saw removed (S3.1). From that pool it values a face-down
card at the pool's mean, a draw at the mean of its best use of each possible card, and a
grid at its expected sum less what its pairs in a column may yet remove.

It closes a round (S4.1) only when that pays after the closer's doubling (S4.3): the chance
that its sum is strictly the lowest comes from every other grid's visible sum plus its
face-down cards drawn from the pool, less what that player can still gain in its last turn.
It also weighs what the card it leaves on the discard pile is worth to the next player.

It remembers the views it has seen within a round (never anything else), so a seed and the
same game always give the same choices.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

from cardroom.games.skyjo import DRAW, HIDDEN, Action, SeatView
from cardroom.games.skyjo.actions import discard, exchange, reveal, take
from cardroom.games.skyjo.cards import COLUMNS, ROWS, column_of

from .common import Cell, completes_column, hidden_positions, unseen_pool, visible_cards

ROUND_TURNS = 12
"""Roughly how many turns a round has left at most: the horizon for a pair to be completed."""

LONG_ROUND = 25
"""Turns per player after which a round is long: from then on every turn makes closing a
point more attractive, so two cautious bots, each waiting for the other to close, still end
the round (Skyjo puts no limit on a round's turns)."""


class Pool:
    """The unseen cards as a distribution: values, probabilities, mean and spread."""

    def __init__(self, counts: dict[int, int]) -> None:
        total = sum(counts.values())
        self.counts = counts
        self.total = total
        self.odds = [(card, n / total) for card, n in sorted(counts.items()) if n]
        self.mean = sum(card * p for card, p in self.odds)
        self.sd = math.sqrt(sum(p * (card - self.mean) ** 2 for card, p in self.odds))

    def chance(self, card: int) -> float:
        return self.counts.get(card, 0) / self.total if self.total else 0.0


class Memory:
    """What the bot saw earlier in the round: cards buried in the discard pile and removed
    columns (S3.1), forgotten when the discards are reshuffled into the draw pile (S2.3)."""

    def __init__(self) -> None:
        self._forget()

    def _forget(self) -> None:
        self.buried: Counter[int] = Counter()
        self.grids: tuple[tuple[Cell, ...], ...] | None = None
        self.turn = -1
        self.scores: tuple[int, ...] = ()
        self.draw_count = -1
        self.left: tuple[int, int] | None = None  # (card we discarded, discard count after it)
        self.top_buried = False  # the discard top is one of the removed column's cards

    def observe(self, view: SeatView) -> None:
        if view.turn < self.turn or view.scores != self.scores:
            self._forget()  # a new round: start afresh
        if 0 <= self.draw_count < view.draw_count:  # S2.3: the discards became the draw pile
            self.buried.clear()
            self.left = None
        self.top_buried = False
        if self.grids is not None:
            for old, new in zip(self.grids, view.grids, strict=True):
                for column in range(COLUMNS):
                    first = column * ROWS
                    if new[first] is None and old[first] is not None:
                        known = [c for c in old[first : first + ROWS] if isinstance(c, int)]
                        if known:
                            self.buried[known[0]] += ROWS
                            self.top_buried |= known[0] == view.discard_top
        if self.left is not None:
            card, count = self.left
            grown = view.discard_count - count
            if grown > 0 and grown >= view.players - 1:  # nobody took it: it lies under others
                self.buried[card] += 1
            self.left = None
        self.grids, self.turn, self.scores = view.grids, view.turn, view.scores
        self.draw_count = view.draw_count

    def left_on_pile(self, card: int | None, count_after: int, buried_at_once: bool) -> None:
        if card is None:
            return
        if buried_at_once:
            self.buried[card] += 1
        else:
            self.left = (card, count_after)

    def pool(self, view: SeatView, counting: bool) -> Pool:
        seen = visible_cards(view)
        if counting:
            seen.update(self.buried)
            if self.top_buried and view.discard_top is not None:
                seen[view.discard_top] -= 1
        return Pool(unseen_pool(seen.items()))


class CounterBot:
    name = "counter"

    def __init__(
        self,
        seed: str | int = 0,
        counting: int = 1,
        column: float = 0.6,
        gift: float = 0.5,
        margin: float = 0.0,
        gain: float = 1.0,
        tempo: float = 0.0,
        finish: int = 0,
        flip: float = 0.0,
    ) -> None:
        """``counting`` 0 forgets buried cards and removed columns (only what is in view
        counts); ``column`` weighs the pairs a column may yet remove; ``gift`` what the card
        left on the discard pile is worth to the next player; ``margin`` points of safety
        asked of a close; ``gain`` how much of an opponent's last-turn gain is expected;
        ``tempo`` the points a face-down card left costs per 10 points of lead over the best
        other grid (a leader hurries the round's end, a player behind slows it); ``finish`` 1
        weighs its last turn after another's close by the chance that it doubles the closer
        (S4.3), not by its own expected sum alone; ``flip`` the points a drawn card
        discarded and a face-down card turned are worth beyond their expected sum: a card
        turned is known, and a high one can still be replaced, where a drawn card put on a
        face-down one is there to stay."""
        self.rng = random.Random(f"skyjo-counter-bot:{seed}")
        self.counting = bool(counting)
        self.column = float(column)
        self.gift = float(gift)
        self.margin = float(margin)
        self.gain = float(gain)
        self.tempo = float(tempo)
        self.finish = bool(finish)
        self.flip = float(flip)
        self.memory = Memory()

    # -- the decision --------------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        self.memory.observe(view)
        assert view.seat is not None
        grid = list(view.grids[view.seat])
        if view.phase == "reveal":
            return reveal(self._reveal(grid))
        pool = self.memory.pool(view, self.counting)
        judge = _Judge(view, pool, self)
        if view.holding:
            assert view.drawn is not None
            _, action, put = judge.best_with(grid, view.drawn)
        else:
            action, put = judge.best_turn(grid)
        self._remember(view, grid, action, put)
        return action

    def values(self, view: SeatView) -> dict[Action, float]:
        """Every legal action weighed as ``choose`` weighs it: expected points, lower is
        better (the best is the one ``choose`` plays, up to ties). A review asks this at each
        of a seat's decisions, then ``played``, so the bot's memory follows that seat's game;
        before the first turn every card is as good as another (all 0)."""
        self.memory.observe(view)
        assert view.seat is not None
        grid = list(view.grids[view.seat])
        if view.phase == "reveal":
            return {action: 0.0 for action in view.legal_actions()}
        judge = _Judge(view, self.memory.pool(view, self.counting), self)
        out: dict[Action, float] = {}
        if view.holding:
            assert view.drawn is not None
            for value, pos, _put in judge.placements(grid, view.drawn):
                out[exchange(pos)] = value
            for value, pos in judge.flips(grid, view.drawn):
                out[discard(pos)] = value - 0.01 - self.flip  # as ``best_with`` weighs it
            return out
        out[DRAW] = sum(p * judge.best_with(grid, c)[0] for c, p in judge.pool.odds)
        if view.discard_top is not None:
            for value, pos, _put in judge.placements(grid, view.discard_top):
                out[take(pos)] = value
        return out

    def played(self, view: SeatView, action: Action) -> None:
        """Remember what the seat did at ``view`` (the card it left on the discard pile), as
        ``choose`` remembers its own choice."""
        if view.phase == "reveal" or action.kind in ("draw", "timeout", "reveal"):
            return
        assert view.seat is not None
        grid = list(view.grids[view.seat])
        put = view.drawn if action.kind == "discard" else grid[action.position]
        self._remember(view, grid, action, put if isinstance(put, int) else None)

    def _reveal(self, grid: list[Cell]) -> int:
        """Two cards of one column: a pair there is a column in the making."""
        hidden = hidden_positions(grid)
        up = [p for p, cell in enumerate(grid) if isinstance(cell, int)]
        if up:
            same = [p for p in hidden if column_of(p) == column_of(up[0])]
            if same:
                return same[0]
        return self.rng.choice(hidden)

    def _remember(self, view: SeatView, grid: list[Cell], action: Action, put: int | None) -> None:
        if action.kind == "draw":
            return
        count = view.discard_count + (0 if action.kind == "take" else 1)
        placed = {"take": view.discard_top, "exchange": view.drawn}.get(action.kind)
        removes = placed is not None and completes_column(grid, action.position, placed)
        self.memory.left_on_pile(put, count, removes)


class _Judge:
    """Values actions for the seat to play; lower is better (points, as in S4.2)."""

    def __init__(self, view: SeatView, pool: Pool, bot: CounterBot) -> None:
        assert view.seat is not None
        self.view, self.pool, self.bot = view, pool, bot
        self.seat = view.seat
        self.players = view.players
        self.others = [s for s in range(view.players) if s != view.seat]
        self.last_turn = view.closer is not None and view.closer != view.seat
        self.doubling = view.options.closer_doubling
        self.removal = view.options.column_removal
        least_hidden = min(sum(c == HIDDEN for c in g) for g in view.grids)
        self.horizon = max(1, min(ROUND_TURNS, least_hidden + 1))
        self.next_seat = (view.seat + 1) % view.players
        self.hurry = max(0, view.turn - LONG_ROUND * view.players)
        self._columns: dict[tuple[Cell, ...], float] = {}
        self.theirs = {s: self.value(list(view.grids[s])) for s in self.others}
        self._gains: dict[int, float] = {}
        self.draw_gain = sum(p * self.gain_of(c) for c, p in pool.odds)
        self.pace = 0.0
        self.doubles: _Doubling | None = None
        if self.last_turn and bot.finish and self.doubling:
            self.doubles = _Doubling(self)
        if bot.tempo:
            lead = min(self.theirs.values()) - self.value(list(view.grids[view.seat]))
            self.pace = bot.tempo * max(-1.0, min(1.0, lead / 10.0))

    # -- values --------------------------------------------------------------------------------

    def value(self, grid: Sequence[Cell]) -> float:
        """The grid's expected sum: face-down cards at the pool's mean, less what a pair of
        a column may yet remove."""
        columns = self._columns
        total = 0.0
        for column in range(COLUMNS):
            cells = tuple(grid[column * ROWS : column * ROWS + ROWS])
            known = columns.get(cells)
            if known is None:
                known = columns[cells] = self._column_value(cells)
            total += known
        return total

    def _column_value(self, cells: Sequence[Cell]) -> float:
        if cells[0] is None:
            return 0.0
        ups = [c for c in cells if isinstance(c, int)]
        value = sum(ups) + (ROWS - len(ups)) * self.pool.mean
        if self.removal and self.bot.column and len(ups) >= 2:
            value -= self._pair_bonus(cells, ups)
        return value

    def _pair_bonus(self, cells: Sequence[Cell], ups: list[int]) -> float:
        counts = Counter(ups)
        card, n = counts.most_common(1)[0]
        if n < 2 or card <= 0 or n == ROWS:
            return 0.0
        third = next((c for c in cells if c != card), HIDDEN)
        third_value = self.pool.mean if third == HIDDEN else float(third)  # type: ignore[arg-type]
        chance = min(1.0, self.pool.chance(card) * 2 * self.horizon)
        return self.bot.column * chance * max(0.0, 2 * card + third_value)

    def gain_of(self, card: int) -> float:
        """What ``card`` on the discard pile is worth to the next player: the most it lowers
        their grid by."""
        known = self._gains.get(card)
        if known is not None:
            return known
        grid = self.view.grids[self.next_seat]
        best = 0.0
        mean = self.pool.mean
        for pos, cell in enumerate(grid):
            if cell is None:
                continue
            old = mean if cell == HIDDEN else float(cell)  # type: ignore[arg-type]
            gain = old - card
            if self.removal and completes_column(grid, pos, card):
                gain += 2 * card
            best = max(best, gain)
        self._gains[card] = best
        return best

    def gift_cost(self, top: int | None) -> float:
        if top is None or not self.bot.gift or self.next_seat == self.seat:
            return 0.0
        return self.bot.gift * max(0.0, self.gain_of(top) - self.draw_gain)

    def guess(self, seat: int, gain: float = 0.0) -> tuple[float, float]:
        """``seat``'s final sum as a normal guess (mean, spread): its face-up cards, its
        face-down ones at the pool's mean, less ``gain`` it may still make."""
        grid = self.view.grids[seat]
        hidden = sum(c == HIDDEN for c in grid)
        mean = sum(c for c in grid if isinstance(c, int)) + hidden * self.pool.mean - gain
        return mean, math.sqrt(hidden) * self.pool.sd + 1.5

    def _closing(self, total: int, top: float | None) -> float:
        """The points of a close with ``total``: doubled (S4.3) unless strictly the lowest,
        weighed by the chance that it is, less what the others may still be caught with."""
        chance = 1.0
        others = 0.0
        for s in self.others:
            offered = self.draw_gain
            if s == self.next_seat and top is not None:
                offered = max(offered, self.gain_of(int(top)))
            mean, spread = self.guess(s, self.bot.gain * offered)
            others += mean
            chance *= 1.0 - _normal((total + self.bot.margin + 0.5 - mean) / spread)
        mine = float(total)
        if self.doubling and total > 0:
            mine += total * (1.0 - chance)
        return mine - others / len(self.others) + _mean_theirs(self) - self.hurry

    def outcome(self, grid: list[Cell], top: int | None, pos: int) -> float:
        """The value of the position after a turn that changed ``pos`` and leaves ``grid``
        and ``top``."""
        if self.removal:
            grid = _remove_column(grid, column_of(pos))
        closes = not self.last_turn and HIDDEN not in grid
        if closes:
            total = sum(c for c in grid if isinstance(c, int))
            return self._closing(total, top)
        if self.doubles is not None:  # a last turn: no round left to hurry or slow
            value = self.value(grid) - self.doubles.worth(grid)
            if self.next_seat != self.view.closer:  # the next seat still has its last turn
                value += self.gift_cost(top)
            return value
        value = self.value(grid) + self.gift_cost(top)
        if self.pace:
            value += self.pace * sum(c == HIDDEN for c in grid)
        return value

    # -- the choices ---------------------------------------------------------------------------

    def placements(self, grid: list[Cell], card: int) -> list[tuple[float, int, int | None]]:
        """(value, position, card left on the pile) of placing ``card`` at each position."""
        out: list[tuple[float, int, int | None]] = []
        for pos, cell in enumerate(grid):
            if cell is None:
                continue
            after = grid[:]
            after[pos] = card
            if cell == HIDDEN:
                if self._closes(after):
                    value = sum(p * self.outcome(after, c, pos) for c, p in self.pool.odds)
                else:
                    value = self.outcome(after, None, pos)
                out.append((value, pos, None))
            else:
                out.append((self.outcome(after, cell, pos), pos, cell))  # type: ignore[arg-type]
        return out

    def flips(self, grid: list[Cell], card: int) -> list[tuple[float, int]]:
        """(value, position) of discarding ``card`` and turning each face-down card."""
        out = []
        for pos in hidden_positions(grid):
            after = grid[:]
            column = grid[column_of(pos) * ROWS : column_of(pos) * ROWS + ROWS]
            ups = [c for c in column if isinstance(c, int)]
            pair = len(ups) == ROWS - 1 and ups[0] == ups[1]
            if self._closes_if_up(grid, pos) or (self.removal and pair):
                total = 0.0
                for value, p in self.pool.odds:
                    after[pos] = value
                    total += p * self.outcome(after, card, pos)
                out.append((total, pos))
            else:
                out.append((self.outcome(after, card, pos), pos))  # still face down: the mean
        return out

    def best_with(self, grid: list[Cell], card: int) -> tuple[float, Action, int | None]:
        """The best use of a drawn ``card``: its value, the action, the card it leaves."""
        options: list[tuple[float, int, Action, int | None]] = []
        for value, pos, put in self.placements(grid, card):
            options.append((value, 0, exchange(pos), put))
        for value, pos in self.flips(grid, card):
            # a turned card's value is only known once turned; the tie goes to turning it,
            # and ``flip`` weighs what knowing it is worth
            options.append((value - 0.01 - self.bot.flip, 1, discard(pos), card))
        best = min(options, key=lambda o: (o[0], o[1], o[2].position))
        return best[0], best[2], best[3]

    def best_turn(self, grid: list[Cell]) -> tuple[Action, int | None]:
        drawn = sum(p * self.best_with(grid, c)[0] for c, p in self.pool.odds)
        best: tuple[float, Action, int | None] = (drawn, DRAW, None)
        top = self.view.discard_top
        if top is not None:
            for value, pos, put in self.placements(grid, top):
                if value < best[0]:
                    best = (value, take(pos), put)
        return best[1], best[2]

    def _closes(self, grid: list[Cell]) -> bool:
        return not self.last_turn and all(c != HIDDEN for c in grid)

    def _closes_if_up(self, grid: list[Cell], pos: int) -> bool:
        return not self.last_turn and all(c != HIDDEN for p, c in enumerate(grid) if p != pos)


class _Doubling:
    """A last turn after another seat's close: what doubling the closer (S4.3) is worth.

    The closer's cards are all face up, so its sum is known; it is doubled when positive and
    some other seat ends at or below it. This seat's final sum is its face-up cards plus its
    face-down ones, each drawn from the pool (independently: near enough for a few cards);
    any other seat's, as a close guesses it (its face-down cards at the pool's mean, spread
    by the pool's deviation).
    A doubling moves the round's points (the seat's less the others' mean) by the closer's
    sum over the others' count."""

    def __init__(self, judge: _Judge) -> None:
        view = judge.view
        closer = view.closer
        assert closer is not None
        self.total = sum(c for c in view.grids[closer] if isinstance(c, int))
        self.weight = self.total / len(judge.others)
        self.density = [1.0]  # P(the most cards tabled yet, k, sum to k * low + i)
        self.sums: list[list[float]] = [[1.0]]  # P(k cards sum to at most k * low + i)
        safe = 1.0  # nobody else ends at or below the closer
        for s in judge.others:
            if s != closer:
                mean, spread = judge.guess(s)
                safe *= 1.0 - _normal((self.total + 0.5 - mean) / spread)
        self.safe = safe
        self.odds = judge.pool.odds
        self.low = min((card for card, _p in self.odds), default=0)

    def worth(self, grid: Sequence[Cell]) -> float:
        """The doubling's expected points for this seat, if its grid ends as ``grid``."""
        if self.total <= 0:
            return 0.0
        known = sum(c for c in grid if isinstance(c, int))
        hidden = sum(c == HIDDEN for c in grid)
        below = self._at_most(hidden, self.total - known)
        return self.weight * (1.0 - self.safe * (1.0 - below))

    def _at_most(self, cards: int, limit: int) -> float:
        """P(the sum of ``cards`` face-down cards is at most ``limit``)."""
        while len(self.sums) <= cards:
            self._add_card()
        table = self.sums[cards]
        index = limit - cards * self.low
        if index < 0:
            return 0.0
        return table[min(index, len(table) - 1)]

    def _add_card(self) -> None:
        """The sum's distribution for one card more, from the last one's."""
        if self.odds:  # else no card is unseen: nothing left to add
            spread = max(card for card, _p in self.odds) - self.low
            out = [0.0] * (len(self.density) + spread)
            for i, p_sum in enumerate(self.density):
                if p_sum:
                    for card, p in self.odds:
                        out[i + card - self.low] += p_sum * p
            self.density = out
        self.sums.append(list(itertools.accumulate(self.density)))


def _mean_theirs(judge: _Judge) -> float:
    """The others' grids as valued when the round goes on, so that a close and a turn that
    does not close are compared on one scale."""
    return sum(judge.theirs.values()) / len(judge.theirs)


def _remove_column(grid: list[Cell], column: int) -> list[Cell]:
    """S3.1 on a copy: three identical face-up cards in ``column`` are removed."""
    first = column * ROWS
    a, b, c = grid[first : first + ROWS]
    if a is None or a == HIDDEN or a != b or a != c:
        return grid
    out = grid[:]
    out[first : first + ROWS] = [None] * ROWS
    return out


def _normal(z: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
