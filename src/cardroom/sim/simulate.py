"""Many bot matches with the same options: who wins, from which seat, how fast.

The output depends only on the arguments: the same seed gives the same numbers, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.bots import Bot
from cardroom.bots.specs import make_bot_from_spec
from cardroom.games import get_game
from cardroom.games.base import derive_seed
from cardroom.games.terminal import RoundFacts

from .play import game_of, play_match


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


def simulate(
    options: Any,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    records: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` matches and gather statistics; optionally write each game record."""
    game_name = game_of(options)
    played = get_game(game_name)
    summary = Summary(options=options, seat_wins=[0] * options.players)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for game in range(games):
        names = seating(bots, options.players, game)
        players = [
            make_bot_from_spec(name, derive_seed(f"{seed}/{game}", "bot", seat), game=game_name)
            for seat, name in enumerate(names)
        ]
        try:
            match = play_match(
                options,
                f"{seed}/{game}",
                players,
                fingerprints=records is not None,
                record=records is not None,
            )
        finally:
            close_bots(players)
        _count(summary, match, names, played.terminal.round_facts(match))
        for player, name in zip(players, names, strict=True):
            stats = summary.bots[name]
            stats.decisions += getattr(player, "decisions", 0)
            stats.turns_lost += getattr(player, "turns_lost", 0)
        if records is not None:
            seats = [
                {"name": f"{name} {i + 1}", "player": f"bot:{name}"} for i, name in enumerate(names)
            ]
            path = records / f"game-{game + 1:05d}.json"
            path.write_text(
                json.dumps(played.match_record(match, seats), separators=(",", ":")) + "\n"
            )
        if on_game is not None:
            on_game(game)
    return summary


def close_bots(bots: Sequence[Bot]) -> None:
    """End external bot programs now, not whenever the garbage collector gets to them."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def _count(summary: Summary, match: Any, names: list[str], rounds: list[RoundFacts]) -> None:
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
    for seat in match.winners or ():
        summary.seat_wins[seat] += 1
        summary.bots[names[seat]].wins += 1
