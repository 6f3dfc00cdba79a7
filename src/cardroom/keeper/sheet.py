"""The score sheet of a kept game: each round's points, the running totals, the leader, and the
end of the game with its winners (S6.2, S6.3).

The arithmetic is the engines': Skyjo's round scoring with the closer's doubling (S4.3) and
its end (S5.1), Skip's round points (R6.2) and match end (R6.3). A round played with physical
cards therefore counts exactly as the same round played online. What the keeper adds is the
wording: why a closer was or was not doubled, and who scored what.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .values import (
    SKIP,
    SKYJO,
    GameName,
    Round,
    Settings,
    SkipRound,
    SkipSettings,
    SkyjoRound,
    SkyjoSettings,
)

Why = Literal["not_lowest", "tied", "lowest", "not_positive"]
"""Why a closer was doubled (not the lowest, tied for the lowest) or not (strictly the
lowest, zero or negative), S4.3."""


@dataclass(frozen=True, slots=True)
class RoundLine:
    """One round on the sheet: the points it counts, the totals after it, and why."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    doubled: bool
    """S4.3: the closer's sum was doubled (always False in Skip)."""
    why: Why | None
    """S4.3's case, for a reader that words it itself (None in Skip)."""
    note: str
    ends: bool
    """This round ended the game (S5.1, R6.3)."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """Everything a kept game's rounds add up to."""

    game: GameName
    players: tuple[str, ...]
    lines: tuple[RoundLine, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    """The seats in the lead (the lowest total in Skyjo, the highest in Skip); ties share it,
    and nobody leads before the first round."""
    winners: tuple[int, ...] | None
    """The seats that won (ties share the win), None while the game goes on."""
    ended_at: int | None
    """The number of the round that ended the game."""
    sides: tuple[tuple[int, ...], ...]
    """Who scores together: the teams of a Skip team game (R2.3), else each player alone."""

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def rounds_played(self) -> int:
        return len(self.lines)

    def names(self, seats: Sequence[int]) -> str:
        """Seats as people read them, a team joined by ``&``: ``Ann``, ``Ann & Cy and Bob &
        Dan``, ``Ann, Bob and Cy``."""
        return _and(
            [" & ".join(self.players[s] for s in side) for side in self.sides if side[0] in seats]
        )

    def _verb(self, seats: Sequence[int], one: str, shared: str) -> str:
        sides = [side for side in self.sides if side[0] in seats]
        if len(sides) > 1:
            return shared
        return one + "s" if len(sides[0]) == 1 else one

    @property
    def outcome(self) -> str:
        """One sentence on where the game stands."""
        if self.winners is not None:
            verb = self._verb(self.winners, "win", "share the win")
            return f"Game over after round {self.ended_at}: {self.names(self.winners)} {verb}."
        if not self.leaders:
            return "No round entered yet."
        verb = self._verb(self.leaders, "lead", "share the lead")
        return f"After {self.rounds_played} round(s), {self.names(self.leaders)} {verb}."


def score(players: Sequence[str], settings: Settings, rounds: Sequence[Round]) -> Sheet:
    """Add the rounds up in order. Rounds entered after the game ended are still scored, so
    a caller can tell where an edit would end the game (S6.4)."""
    n = len(players)
    totals = (0,) * n
    lines: list[RoundLine] = []
    winners: tuple[int, ...] | None = None
    ended_at: int | None = None
    for number, entry in enumerate(rounds, start=1):
        if isinstance(settings, SkyjoSettings):
            assert isinstance(entry, SkyjoRound)
            result = SKYJO.round_result(entry.sums, entry.closer)
            points, doubled = result.points, result.doubled
            why, note = doubling(players, entry.sums, entry.closer, doubled)
            totals = tuple(t + p for t, p in zip(totals, points, strict=True))
            ended = SKYJO.game_winners(totals, settings.end_score)
        else:
            assert isinstance(entry, SkipRound) and isinstance(settings, SkipSettings)
            won = entry.winners(players, settings)
            points, doubled, why = SKIP.round_points(won, entry.stocks), False, None
            note = skip_note(players, entry, won, points)
            totals = tuple(t + p for t, p in zip(totals, points, strict=True))
            ended = SKIP.match_winners(totals, won, settings.match_target)
        ends = winners is None and ended is not None
        if ends:
            winners, ended_at = ended, number
        lines.append(RoundLine(number, tuple(points), totals, doubled, why, note, ends))
    game: GameName = "skyjo" if isinstance(settings, SkyjoSettings) else "skip"
    leaders = _leaders(game, totals, lines)
    return Sheet(
        game,
        tuple(players),
        tuple(lines),
        totals,
        leaders,
        winners,
        ended_at,
        _sides(players, settings),
    )


def _sides(players: Sequence[str], settings: Settings) -> tuple[tuple[int, ...], ...]:
    seats = range(len(players))
    if isinstance(settings, SkyjoSettings) or not settings.teams:
        return tuple((s,) for s in seats)
    partners = [settings.partner(players, s) for s in seats]
    return tuple(
        (s,) if p is None else (s, p)
        for s, p in zip(seats, partners, strict=True)
        if p is None or s < p
    )


def _leaders(
    game: GameName, totals: tuple[int, ...], lines: Sequence[RoundLine]
) -> tuple[int, ...]:
    if not lines:
        return ()
    best = min(totals) if game == "skyjo" else max(totals)
    return tuple(s for s, total in enumerate(totals) if total == best)


def doubling(
    players: Sequence[str], sums: Sequence[int], closer: int, doubled: bool
) -> tuple[Why, str]:
    """S4.3 in words: whether the engine doubled the closer's sum, and why."""
    name, own = players[closer], sums[closer]
    others = [s for s in range(len(sums)) if s != closer]
    lowest = min(sums[s] for s in others)
    if doubled:
        if lowest == own:
            tied = _and([players[s] for s in others if sums[s] == own])
            return "tied", f"{name} closed with {own}, tied for the lowest with {tied}: " + (
                f"doubled to {own * 2} (S4.3)"
            )
        below = _and([players[s] for s in others if sums[s] == lowest])
        return "not_lowest", (
            f"{name} closed with {own}, not the lowest ({below} {lowest}): "
            f"doubled to {own * 2} (S4.3)"
        )
    if own <= 0:
        return "not_positive", (
            f"{name} closed with {own}: zero and negative sums are never doubled (S4.3)"
        )
    return "lowest", f"{name} closed with {own}, strictly the lowest: not doubled (S4.3)"


def skip_note(
    players: Sequence[str], entry: SkipRound, won: Sequence[int], points: Sequence[int]
) -> str:
    """R6.2 in words: who went out and what it scored."""
    if entry.went_out is None:
        return "nobody won the round: no points (R6.4)"
    left = sum(entry.stocks[s] for s in range(len(players)) if s not in won)
    sum_text = (
        f"{SKIP.win_bonus} + {SKIP.points_per_stock_card} × {left} cards left = {points[won[0]]}"
    )
    if len(won) == 1:
        return f"{players[entry.went_out]} went out: {sum_text} (R6.2)"
    return (
        f"{players[entry.went_out]} went out: {_and([players[s] for s in won])} "
        f"score {sum_text} each (R6.2)"
    )


def _and(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
