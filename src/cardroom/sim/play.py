"""Play one match between bots, through views only, as a table would."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.bots import Bot
from cardroom.games.skip import IllegalMove, Match, Options, view
from cardroom.games.skip.rules import check

MAX_MOVES_PER_ROUND = 20_000


class BotError(RuntimeError):
    """A bot chose an illegal action or a round never ended."""


def play_match(
    options: Options,
    seed: str | int,
    bots: Sequence[Bot],
    *,
    fingerprints: bool = False,
    max_rounds: int = 200,
) -> Match:
    """Play a whole match; every bot sees only its own seat's view."""
    if len(bots) != options.players:
        raise ValueError(f"{options.players} seats need {options.players} bots, not {len(bots)}")
    match = Match(options, seed, fingerprints=fingerprints)
    while True:
        play_round(match, bots)
        if match.over or match.round_number >= max_rounds:
            return match
        match.next_round()


def play_round(match: Match, bots: Sequence[Bot]) -> None:
    """Play the match's current round to its end."""
    state = match.state
    for _ in range(MAX_MOVES_PER_ROUND):
        if state.result is not None:
            return
        seat = state.current
        action = bots[seat].choose(view(state, seat))
        try:
            check(state, action)
        except IllegalMove as error:
            raise BotError(
                f"bot {bots[seat].name} at seat {seat + 1} chose {action}: {error}"
            ) from None
        match.apply_trusted(action)
    raise BotError(f"round {match.round_number} did not end within {MAX_MOVES_PER_ROUND} moves")
