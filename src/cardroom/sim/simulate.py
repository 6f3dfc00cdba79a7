"""Many bot matches with the same options: who wins, from which seat, how fast.

The output depends only on the arguments: the same seed gives the same numbers, byte for byte,
played here or in batches on a Ray cluster (``cardroom.batches``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.batches import RayCluster, run_batches
from cardroom.bots import Bot, external
from cardroom.bots.specs import make_bot_from_spec
from cardroom.games import get_game
from cardroom.games.base import derive_seed
from cardroom.games.terminal import RoundFacts

from .play import game_of, play_match
from .seeds import keyed


@dataclass
class BotStats:
    seats_played: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    decisions: int = 0  # counted for external programs only
    turns_lost: int = 0  # their decisions that failed (no answer, an illegal one: R7.3)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats_played if self.seats_played else 0.0

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0


@dataclass
class Summary:
    options: Any
    games: int = 0
    rounds: int = 0
    turns: int = 0
    stalemates: int = 0
    unfinished: int = 0
    bots: dict[str, BotStats] = field(default_factory=dict)
    seat_wins: list[int] = field(default_factory=list)

    @property
    def turns_per_round(self) -> float:
        return self.turns / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "options": self.options.to_json(),
            "games": self.games,
            "rounds": self.rounds,
            "mean_turns_per_round": round(self.turns_per_round, 3),
            "stalemates": self.stalemates,
            "unfinished": self.unfinished,
            "seat_wins": self.seat_wins,
            "bots": {
                name: {
                    "seats_played": s.seats_played,
                    "wins": s.wins,
                    "win_rate": round(s.win_rate, 4),
                    "mean_points_per_round": round(s.points_per_round, 3),
                }
                for name, s in sorted(self.bots.items())
            },
        }


def seating(bots: Sequence[str], players: int, game: int) -> list[str]:
    """Bot names for each seat in game ``game``: the list repeated, rotated one seat per game."""
    names = [bots[i % len(bots)] for i in range(players)]
    shift = game % players
    return names[shift:] + names[:shift]


@dataclass(slots=True)
class Played:
    """What one match gave, small enough to come back from a worker."""

    game: int
    names: list[str]
    over: bool
    scores: list[int]
    winners: tuple[int, ...]
    rounds: list[RoundFacts]
    decisions: list[int]  # per seat, counted for external programs only
    turns_lost: list[int]
    record: dict[str, Any] | None


def play_one(
    options: Any, bots: Sequence[str], seed: int, game: int, *, secret: str = "", record: bool
) -> Played:
    """Match number ``game`` of a run: its seats' bots, its deal, its result."""
    game_name = game_of(options)
    played = get_game(game_name)
    names = seating(bots, options.players, game)
    deal = keyed(f"{seed}/{game}", secret)
    players = [
        make_bot_from_spec(name, derive_seed(deal, "bot", seat), game=game_name)
        for seat, name in enumerate(names)
    ]
    try:
        match = play_match(options, deal, players, fingerprints=record, record=record)
    finally:
        close_bots(players)
    data = None
    if record:
        seats = [
            {"name": f"{name} {i + 1}", "player": f"bot:{name}"} for i, name in enumerate(names)
        ]
        data = played.match_record(match, seats)
    return Played(
        game=game,
        names=names,
        over=bool(match.over),
        scores=list(match.scores),
        winners=tuple(match.winners or ()),
        rounds=played.terminal.round_facts(match),
        decisions=[getattr(player, "decisions", 0) for player in players],
        turns_lost=[getattr(player, "turns_lost", 0) for player in players],
        record=data,
    )


def play_range(packed: tuple[Any, Sequence[str], int, range, str, bool]) -> list[Played]:
    """A batch of a simulation's matches (a Ray task)."""
    options, bots, seed, games, secret, record = packed
    return [play_one(options, bots, seed, game, secret=secret, record=record) for game in games]


def simulate(
    options: Any,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    records: Path | None = None,
    on_game: Callable[[int], None] | None = None,
    secret: str = "",
    cluster: RayCluster | None = None,
    batch: int | None = None,
) -> Summary:
    """Play ``games`` matches and gather statistics; optionally write each game record.
    Here, one after another, or in batches of ``batch`` on a Ray ``cluster``: the same
    figures and records either way."""
    summary = Summary(options=options, seat_wins=[0] * options.players)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    record = records is not None
    if cluster is None:
        played: Iterator[Played] = (
            play_one(options, bots, seed, game, secret=secret, record=record)
            for game in range(games)
        )
    else:
        played = _on_cluster(options, bots, games, seed, secret, record, cluster, batch)
    for match in played:
        _count(summary, match)
        if records is not None and match.record is not None:
            path = records / f"game-{match.game + 1:05d}.json"
            path.write_text(json.dumps(match.record, separators=(",", ":")) + "\n")
        if on_game is not None:
            on_game(match.game)
    return summary


def _on_cluster(
    options: Any,
    bots: Sequence[str],
    games: int,
    seed: int,
    secret: str,
    record: bool,
    cluster: RayCluster,
    batch: int | None,
) -> Iterator[Played]:
    size = batch or max(1, min(20, math.ceil(games / 64)))
    batches = [
        (options, list(bots), seed, range(start, min(games, start + size)), secret, record)
        for start in range(0, games, size)
    ]
    log_folder = external.bot_log_dir().resolve()
    for done in run_batches(play_range, batches, cluster, log_folder=log_folder):
        yield from done.result


def close_bots(bots: Sequence[Bot]) -> None:
    """End external bot programs now, not whenever the garbage collector gets to them."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def _count(summary: Summary, match: Played) -> None:
    names, rounds = match.names, match.rounds
    summary.games += 1
    if not match.over:
        summary.unfinished += 1
    for seat, name in enumerate(names):
        stats = summary.bots.setdefault(name, BotStats())
        stats.seats_played += 1
        stats.points += match.scores[seat]
    for facts in rounds:
        if facts.points is None:
            continue
        summary.rounds += 1
        summary.stalemates += facts.stalemate
        for name in names:
            summary.bots[name].rounds += 1
    summary.turns += sum(facts.turns for facts in rounds)
    for seat in match.winners:
        summary.seat_wins[seat] += 1
        summary.bots[names[seat]].wins += 1
    for seat, name in enumerate(names):
        summary.bots[name].decisions += match.decisions[seat]
        summary.bots[name].turns_lost += match.turns_lost[seat]
