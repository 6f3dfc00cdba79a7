"""Tournaments between bots: duplicate deals, every pairing, all cores, honest intervals.

Every deal is played once per seat rotation, so each bot holds each hand once and card luck
cancels ("duplicate"). With more bots than sides, every combination of bots meets (round robin).
Games run in worker processes, or in batches on a Ray cluster (``cardroom.batches``); each
returns a small ``GameResult`` and the parent adds them up, so the figures depend only on the
arguments (decision times aside), never on where a game was played: the run's ``digest``
covers every move of every game, in the schedule's order.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.batches import RayCluster, run_batches
from cardroom.bots import EXTERNAL_PREFIX, Bot, external
from cardroom.bots.specs import (
    BotSpecError,
    bot_label,
    check_bot_spec,
    make_bot_from_spec,
    parse_bot_specs,
    split_name,
)
from cardroom.games import get_game
from cardroom.games.base import derive_seed

from .digest import match_lines
from .play import game_of, play_match
from .seeds import keyed

AnyOptions = Any
"""Options of any game of the registry."""

# Entrants are bot specs (``cardroom.bots.specs``), the same ones simulate and watch take.
EntrantError = BotSpecError
parse_entrants = parse_bot_specs


def make_entrant(entrant: str, seed: str, timeout: float, game: str = "skip") -> Bot:
    """A bot from a spec: a registry name (``planner:defence=0``), a level id, or ``cmd:``."""
    return make_bot_from_spec(entrant, seed, timeout=timeout, game=game)


# -- what is played -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Game:
    """One game to play: which bot sits where, and the deal."""

    lineup: int  # index into the tournament's lineups
    seats: tuple[str, ...]  # entrant per seat
    deal: int  # the deal's number in the run
    rotation: int
    seed: int | str  # the match seed, which deals the cards (``sim/seeds.py``)

    @property
    def key(self) -> tuple[int, int, int]:
        """Its place in the schedule's order."""
        return self.lineup, self.deal, self.rotation


def sides_of(options: AnyOptions) -> int:
    """Sides at the table: a team of two is one side (R2.3); Skyjo has no teams."""
    return options.players // 2 if getattr(options, "teams", False) else options.players


def lineups(entrants: Sequence[str], options: AnyOptions) -> list[tuple[str, ...]]:
    """Which entrants meet: one per side; every combination when there are more than sides."""
    sides = sides_of(options)
    if len(entrants) > sides:
        return list(itertools.combinations(entrants, sides))
    return [tuple(entrants[i % len(entrants)] for i in range(sides))]


def schedule(
    entrants: Sequence[str],
    options: AnyOptions,
    games: int,
    seed: int,
    pairings: Sequence[tuple[str, ...]] | None = None,
    *,
    secret: str = "",
) -> list[Game]:
    """``games`` per lineup (rounded up to whole rotations): each deal once per rotation.
    The lineups are ``pairings`` when given, else every combination of the entrants; the
    deals are keyed with ``secret`` when there is one (``sim/seeds.py``)."""
    sides = sides_of(options)
    deals = max(1, math.ceil(games / sides))
    plan: list[Game] = []
    for index, lineup in enumerate(pairings or lineups(entrants, options)):
        for deal in range(deals):
            for rotation in range(sides):
                by_side = lineup[rotation:] + lineup[:rotation]
                seats = tuple(by_side[seat % sides] for seat in range(options.players))
                match = keyed(seed * 1_000_003 + deal, secret)
                plan.append(Game(index, seats, deal, rotation, match))
    return plan


@dataclass(slots=True)
class GameResult:
    """What one game gave each seat: kept small, since it crosses process boundaries."""

    game: Game
    winners: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    turns: int  # table turns in all rounds
    won_rounds_turns: list[tuple[tuple[int, ...], float]]  # (winners, turns per player)
    stalemates: int
    first_mover: int  # the seat that made the first move of the match (R3.4)
    decision_times: dict[str, list[float]]
    turns_lost: dict[str, int]
    digest: str = ""  # sha256 of the game's every move and result (``sim/digest.py``)


class _Timed:
    """Wraps a bot to time each decision (the tournament reports p50 and p95)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.trusted = getattr(bot, "trusted", False)
        self.times = times

    def choose(self, view: Any) -> Any:
        started = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - started)
        return action

    def __getattr__(self, name: str) -> Any:
        """The wrapped bot's other methods (an external program's ``observe``, ``end``…)."""
        return getattr(self.bot, name)


def play_game(game: Game, options: AnyOptions, timeout: float = 5.0) -> GameResult:
    """Play one game of the schedule (in a worker process)."""
    times: dict[str, list[float]] = {name: [] for name in set(game.seats)}
    played = game_of(options)
    bots = [
        make_entrant(name, derive_seed(game.seed, "bot", game.rotation, seat), timeout, played)
        for seat, name in enumerate(game.seats)
    ]
    try:
        match = play_match(
            options,
            game.seed,
            [_Timed(bot, times[name]) for bot, name in zip(bots, game.seats, strict=True)],
        )
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    lost: dict[str, int] = {}
    for bot, name in zip(bots, game.seats, strict=True):
        lost[name] = lost.get(name, 0) + getattr(bot, "turns_lost", 0)
    rounds = get_game(played).terminal.round_facts(match)
    won_turns = []
    stalemates = 0
    for facts in rounds:
        if facts.points is None:
            continue
        stalemates += facts.stalemate
        if facts.winners:
            won_turns.append((facts.winners, facts.turns / options.players))
    return GameResult(
        game=game,
        winners=match.winners or (),
        points=tuple(match.scores),
        rounds=sum(1 for facts in rounds if facts.points is not None),
        turns=sum(facts.turns for facts in rounds),
        won_rounds_turns=won_turns,
        stalemates=stalemates,
        first_mover=get_game(played).terminal.first_mover(match),
        decision_times=times,
        turns_lost=lost,
        digest=hashlib.sha256(b"".join(match_lines(match))).hexdigest(),
    )


def _play_packed(packed: tuple[Game, AnyOptions, float]) -> GameResult:
    return play_game(*packed)


def play_batch(packed: tuple[Sequence[Game], AnyOptions, float]) -> list[GameResult]:
    """Play a batch of games one after another (a Ray task): the same results wherever."""
    games, options, timeout = packed
    return [play_game(game, options, timeout) for game in games]


# -- what is reported -----------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound near 0 and 1, unlike p ± 2σ)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[index]


@dataclass
class EntrantStats:
    games: int = 0
    wins: int = 0
    draws: int = 0  # games no one won (R6.4 ties)
    seat_rounds: int = 0
    points: int = 0
    won_rounds: int = 0
    won_turns: float = 0.0
    turns_lost: int = 0
    times: list[float] = field(default_factory=list)

    @property
    def score(self) -> float:
        """Wins plus half the shared draws."""
        return self.wins + 0.5 * self.draws

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        low, high = wilson(self.score, self.games)
        times = sorted(self.times)
        data = {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": round(self.score / self.games, 4) if self.games else 0.0,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "mean_points_per_round": round(self.points / self.seat_rounds, 2)
            if self.seat_rounds
            else 0.0,
            "mean_turns_to_win": round(self.won_turns / self.won_rounds, 2)
            if self.won_rounds
            else None,
            "turns_lost": self.turns_lost,
        }
        if timing:
            data["decisions"] = len(times)
            data["decision_ms_p50"] = round(1000 * percentile(times, 0.5), 3)
            data["decision_ms_p95"] = round(1000 * percentile(times, 0.95), 3)
        return data


@dataclass
class Tournament:
    options: AnyOptions
    entrants: list[str]
    seed: int
    lineups: list[tuple[str, ...]]
    games: int = 0
    rounds: int = 0
    stalemates: int = 0
    turns: int = 0
    stats: dict[str, EntrantStats] = field(default_factory=dict)
    pairings: dict[int, dict[str, EntrantStats]] = field(default_factory=dict)
    first_mover_wins: int = 0
    seconds: float = 0.0
    secret: str = ""  # the run's secret (``sim/seeds.py``): with the seed, it repeats the run
    digests: dict[tuple[int, int, int], str] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        """One sha256 of every game's moves, in the schedule's order (not the finishing one)."""
        whole = hashlib.sha256()
        for key in sorted(self.digests):
            whole.update(self.digests[key].encode())
        return whole.hexdigest()

    def add(self, result: GameResult) -> None:
        """Count one game for every entrant in it (once per side, however many seats)."""
        game = result.game
        self.games += 1
        self.digests[game.key] = result.digest
        self.rounds += result.rounds
        self.turns += result.turns
        self.stalemates += result.stalemates
        self.first_mover_wins += result.first_mover in result.winners
        pairing = self.pairings.setdefault(game.lineup, {})
        players = len(game.seats)
        for name in set(game.seats):
            seats = [s for s in range(players) if game.seats[s] == name]
            for stats in (
                self.stats.setdefault(name, EntrantStats()),
                pairing.setdefault(name, EntrantStats()),
            ):
                stats.games += 1
                if any(s in result.winners for s in seats):
                    stats.wins += 1
                elif not result.winners:
                    stats.draws += 1
                stats.seat_rounds += result.rounds
                stats.points += result.points[seats[0]]
                for winners, turns in result.won_rounds_turns:
                    if any(s in winners for s in seats):
                        stats.won_rounds += 1
                        stats.won_turns += turns
            self.stats[name].times.extend(result.decision_times.get(name, ()))
            self.stats[name].turns_lost += result.turns_lost.get(name, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "entrants": self.entrants,
            "seed": self.seed,
            **({"secret": self.secret} if self.secret else {}),
            "digest": self.digest,
            "games": self.games,
            "rounds": self.rounds,
            "mean_turns_per_round": round(self.turns / self.rounds, 2) if self.rounds else 0.0,
            "stalemates": self.stalemates,
            "first_mover_win_rate": round(self.first_mover_wins / self.games, 4)
            if self.games
            else 0.0,
            "seconds": round(self.seconds, 1),
            "bots": {
                name: {"name": bot_label(name), **self.stats[name].to_json()}
                for name in self.entrants
                if name in self.stats
            },
            "pairings": [
                {
                    "lineup": list(self.lineups[index]),
                    "bots": {
                        name: stats.to_json(timing=False) for name, stats in sorted(pairing.items())
                    },
                }
                for index, pairing in sorted(self.pairings.items())
            ],
        }


def run(
    entrants: Sequence[str],
    options: AnyOptions,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    timeout: float = 5.0,
    on_game: Callable[[GameResult], None] | None = None,
    pairings: Sequence[tuple[str, ...]] | None = None,
    secret: str = "",
    cluster: RayCluster | None = None,
    batch: int | None = None,
) -> Tournament:
    """Play the whole schedule on ``jobs`` processes, or in batches of ``batch`` games on a
    Ray ``cluster``, and add up the results (only the lineups in ``pairings`` when given)."""
    plan = schedule(entrants, options, games, seed, pairings, secret=secret)
    tournament = Tournament(
        options=options,
        entrants=list(dict.fromkeys(entrants)),
        seed=seed,
        lineups=list(pairings or lineups(entrants, options)),
        secret=secret,
    )
    started = time.perf_counter()
    if cluster is not None:
        results = _cluster_results(plan, options, timeout, cluster, batch)
    else:
        results = _results(plan, options, jobs, timeout)
    for result in results:
        tournament.add(result)
        if on_game is not None:
            on_game(result)
    tournament.seconds = time.perf_counter() - started
    return tournament


def _results(
    plan: list[Game], options: AnyOptions, jobs: int, timeout: float
) -> Iterator[GameResult]:
    packed = [(game, options, timeout) for game in plan]
    if jobs <= 1:
        yield from map(_play_packed, packed)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_packed, packed, chunksize=1)


def batch_size(games: int) -> int:
    """Games per batch on a cluster: enough batches (64) for a live progress bar and to
    share the work out evenly, few enough that a batch's cost (a few milliseconds) stays small
    beside its games'; at most 20 games, so a lost worker loses little."""
    return max(1, min(20, math.ceil(games / 64)))


def _cluster_results(
    plan: list[Game], options: AnyOptions, timeout: float, cluster: RayCluster, batch: int | None
) -> Iterator[GameResult]:
    size = batch or batch_size(len(plan))
    batches = [(plan[i : i + size], options, timeout) for i in range(0, len(plan), size)]
    programs = sorted({name for game in plan for name in game.seats if is_program(name)})
    setup = None
    if programs:
        setup = _ProgramCheck(tuple(programs), game_of(options), external.START_TIMEOUT)
    for done in run_batches(
        play_batch, batches, cluster, setup=setup, log_folder=external.bot_log_dir().resolve()
    ):
        yield from done.result


def is_program(spec: str) -> bool:
    """Whether a bot spec is an external program (``cmd:``)."""
    return split_name(spec)[1].startswith(EXTERNAL_PREFIX)


@dataclass(frozen=True, slots=True)
class _ProgramCheck:
    """Run on each worker before any game: every program must start and answer its hello
    there too (``hello_seconds``), or the run is refused."""

    specs: tuple[str, ...]
    game: str
    hello_seconds: float

    def __call__(self) -> str | None:
        external.START_TIMEOUT = self.hello_seconds
        try:
            for spec in self.specs:
                check_bot_spec(spec, self.game)
        except BotSpecError as error:
            return f"on a worker: {error}"
        return None
