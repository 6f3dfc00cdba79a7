"""A digest of seeded bot matches: the proof that a faster engine (or a compiled build) plays
exactly the same games as before, move for move.

The digest covers every round's dealer, moves and result and every match's scores; the
results digest only what a simulation keeps when no record is asked for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from cardroom.bots import make_bot
from cardroom.games import get_game

from .play import play_match

SKIP = get_game("skip")
SKYJO = get_game("skyjo")

SKIP_OPTIONS: tuple[Any, ...] = tuple(
    SKIP.options_from_json(data)
    for data in (
        {"players": 2, "match_target": None},
        {"players": 3, "match_target": None, "stock_size": 20},
        {"players": 4, "teams": True, "team_discards": True, "match_target": None},
        {
            "players": 6,
            "direction": "counterclockwise",
            "starter": "highest_stock",
            "match_target": None,
        },
        {"players": 2, "stock_size": 10, "no_wild_discards": True, "match_target": 200},
    )
)
"""House rules the digested Skip matches cycle through: every rule the engine branches on."""


def _line(value: Any) -> bytes:
    return (repr(value) + "\n").encode()


def match_lines(match: Any, *, moves: bool = True) -> list[bytes]:
    """One match as lines of text: each round's dealer or starter, moves (when kept) and
    result, then the scores and winners. Actions and results are written as plain tuples
    (as themselves, for a game whose values do not unpack)."""
    lines = []
    for log in getattr(match, "rounds", ()):
        result = _plain(log.result) if log.result is not None else None
        opening = getattr(log, "dealer", getattr(log, "starter", None))
        number = getattr(log, "number", None)
        lines.append(_line((number, opening, result, getattr(log, "turns", None))))
        if moves:
            lines.append(_line([(seat, _plain(action)) for seat, action in log.moves]))
    lines.append(_line((list(match.scores), match.winners)))
    return lines


def _plain(value: Any) -> Any:
    try:
        return tuple(value)
    except TypeError:
        return value


def skip_digest(
    count: int = 200,
    bot: str = "greedy",
    *,
    moves: bool = True,
    play: Callable[..., Any] = play_match,
    options: tuple[Any, ...] = SKIP_OPTIONS,
    settings: dict[str, Any] | None = None,
) -> str:
    """The sha256 of ``count`` seeded Skip matches between ``bot``s (tuned by ``settings``,
    as ``make_bot`` takes them), cycling ``options``."""
    digest = hashlib.sha256()
    for i in range(count):
        options_i = options[i % len(options)]
        players = range(options_i.players)
        bots = [make_bot(bot, f"digest/{i}/{seat}", settings) for seat in players]
        for line in match_lines(play(options_i, f"digest/{i}", bots), moves=moves):
            digest.update(line)
    return digest.hexdigest()


def skyjo_digest(
    count: int = 20, bot: str = "greedy", *, settings: dict[str, Any] | None = None
) -> str:
    """The sha256 of ``count`` seeded Skyjo games (to 100) between ``bot``s (tuned by
    ``settings``), 2 to 4 players."""
    digest = hashlib.sha256()
    for i in range(count):
        options = SKYJO.options_from_json({"players": 2 + i % 3})
        seats = range(options.players)
        bots = [make_bot(bot, f"digest/{i}/{s}", settings, game="skyjo") for s in seats]
        for line in match_lines(play_match(options, f"digest/{i}", bots)):
            digest.update(line)
    return digest.hexdigest()
