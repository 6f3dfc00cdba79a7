"""What each bot level is worth: a duplicate-deal round robin of the levels, rated with the
league's own OpenSkill model, with intervals that say how sure the figures are.

Every game of the tournament (``sim/tournament.py``) is one rated match: its winners rank
first, everyone else shares second (partners as one side). The games are rated one after
another in an order fixed by the seed, starting every level at OpenSkill's default (mu 25), so
the levels' mean stays near 25 and a player's rating compares with theirs directly.

How sure that is comes from a bootstrap: the deals are drawn again with replacement and rated
again in a fresh order, 200 times; luck of the cards and the order of rating are both in it.
The levels' sigma is the spread (standard deviation) of the bootstrap mus, pooled over the
levels (root mean square), not the sigma the sequential updates end with: that one only
counts games. Pooled, because a level at an end of the ladder has one neighbour, so its mu
spreads wider; with a sigma of its own its ordinal (mu − 3 sigma, the rating the league shows)
could fall below that of a weaker level. Each level's interval is still its own: the middle
95% of its bootstrap mus, less the same 3 sigma.

The result (``Calibration``) is what ``cardroom calibrate`` writes to the package's
``bots/calibration.json``; the lobby shows it beside each level, and the league starts each
bot level at its calibrated skill (``bots/calibrated.py``).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.batches import RayCluster
from cardroom.league.ratings import Entrant, Skill, rate

from .tournament import AnyOptions, GameResult, Tournament, run, sides_of, wilson

BOOTSTRAPS = 200  # resamples of the deals behind each interval
SPACING = (0.65, 0.75)  # what each level should win against the one below it (issue 18)


@dataclass(frozen=True, slots=True)
class Rated:
    """One level's calibrated skill: OpenSkill's mu, the calibration's sigma (the bootstrap's
    pooled spread), the ordinal people are ranked by (mu - 3 sigma), and the 95% interval of
    that ordinal."""

    level: str
    mu: float
    sigma: float
    low: float
    high: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 2),
            "low": round(self.low, 2),
            "high": round(self.high, 2),
        }


@dataclass(frozen=True, slots=True)
class Step:
    """How a level fares against the one below it on the ladder."""

    upper: str
    lower: str
    games: int
    score: float  # the upper level's wins plus half the draws

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    @property
    def spaced(self) -> bool:
        """Whether the step is as wide as the ladder wants (65–75%)."""
        return SPACING[0] <= self.rate <= SPACING[1]

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "upper": self.upper,
            "lower": self.lower,
            "games": self.games,
            "win_rate": round(self.rate, 4),
            "win_rate_95": [round(low, 4), round(high, 4)],
        }


@dataclass(frozen=True, slots=True)
class Calibration:
    game: str
    mode: str
    levels: tuple[Rated, ...]
    steps: tuple[Step, ...]
    games: int
    seed: int
    tournament: Tournament

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "games": self.games,
            "seed": self.seed,
            "levels": {r.level: r.to_json() for r in self.levels},
            "steps": [s.to_json() for s in self.steps],
        }


def mode_of(options: AnyOptions) -> str:
    """The league's rating mode these options are played in (``league.ratings.MODES``)."""
    if getattr(options, "teams", False):
        return "teams"
    return "2p" if options.players == 2 else "3p+"


def calibrate(
    game: str,
    ladder: Sequence[str],
    options: AnyOptions,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    every_pairing: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
    cluster: RayCluster | None = None,
    batch: int | None = None,
) -> Calibration:
    """Play the ``ladder``'s levels (weakest first) ``games`` times on duplicate deals against
    their neighbours on the ladder (or ``every_pairing``) and rate them; on ``jobs`` local
    processes or a Ray ``cluster``, with the same result."""
    results: list[GameResult] = []

    def collect(result: GameResult) -> None:
        results.append(result)
        if on_game is not None:
            on_game(result)

    tournament = run(
        list(ladder),
        options,
        games,
        seed,
        jobs=jobs,
        on_game=collect,
        pairings=None if every_pairing else pairings_of(ladder, options),
        cluster=cluster,
        batch=batch,
    )
    results.sort(key=lambda r: (r.game.lineup, r.game.deal, r.game.rotation))
    sides = sides_of(options)
    skills = rate_games(results, sides, random.Random(f"calibrate:{seed}"))
    samples: dict[str, list[float]] = {level: [] for level in ladder}
    by_deal = _by_deal(results)
    for n in range(BOOTSTRAPS):
        draw = random.Random(f"calibrate:{seed}:bootstrap:{n}")
        resampled = [r for _ in by_deal for r in by_deal[draw.randrange(len(by_deal))]]
        for level, skill in rate_games(resampled, sides, draw).items():
            samples[level].append(skill.mu)
    spreads = [statistics.pstdev(samples[level]) for level in ladder if samples[level]]
    sigma = math.sqrt(statistics.fmean(s * s for s in spreads)) if spreads else 0.0
    rated = []
    for level in ladder:
        mu = skills.get(level, Skill.default()).mu
        mus = sorted(samples[level]) or [mu]
        low = mus[int(0.025 * (len(mus) - 1))] - 3 * sigma
        high = mus[round(0.975 * (len(mus) - 1))] - 3 * sigma
        rated.append(Rated(level, mu, sigma, low, high))
    steps = tuple(_step(tournament, upper, lower) for lower, upper in itertools.pairwise(ladder))
    return Calibration(
        game=game,
        mode=mode_of(options),
        levels=tuple(rated),
        steps=steps,
        games=len(results),
        seed=seed,
        tournament=tournament,
    )


def pairings_of(ladder: Sequence[str], options: AnyOptions) -> list[tuple[str, ...]]:
    """Each level against the next one up: one per side, taking turns round the table."""
    sides = sides_of(options)
    return [
        tuple((lower, upper)[side % 2] for side in range(sides))
        for lower, upper in itertools.pairwise(ladder)
    ]


def rate_games(results: Sequence[GameResult], sides: int, order: random.Random) -> dict[str, Skill]:
    """Every level's skill after rating ``results`` one by one in an order drawn by ``order``;
    seat ``s`` plays for side ``s % sides`` (partners sit opposite, R2.3)."""
    shuffled = list(results)
    order.shuffle(shuffled)
    skills: dict[str, Skill] = {}
    for result in shuffled:
        entrants = [
            Entrant(level, seat % sides, 1 if seat in result.winners else 0)
            for seat, level in enumerate(result.game.seats)
        ]
        skills.update(rate(entrants, skills))
    return skills


def _by_deal(results: Sequence[GameResult]) -> list[list[GameResult]]:
    """The games grouped by lineup and deal: a deal's rotations are resampled together, as
    they were played (duplicate)."""
    groups: dict[tuple[int, int], list[GameResult]] = {}
    for result in results:
        groups.setdefault((result.game.lineup, result.game.deal), []).append(result)
    return [groups[key] for key in sorted(groups)]


def _step(tournament: Tournament, upper: str, lower: str) -> Step:
    for index, lineup in enumerate(tournament.lineups):
        if set(lineup) == {upper, lower}:
            stats = tournament.pairings.get(index, {}).get(upper)
            if stats is not None:
                return Step(upper, lower, stats.games, stats.score)
    return Step(upper, lower, 0, 0.0)
