"""Play one match between bots, through views only, as a table would: Skip or Skyjo, told
apart by the options given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.bots import Bot
from cardroom.bots.base import Observer
from cardroom.games import skyjo
from cardroom.games.skip import IllegalMove, Match, Options, view
from cardroom.games.skip.rules import check

MAX_MOVES_PER_ROUND = 20_000


class BotError(RuntimeError):
    """A bot chose an illegal action or a round never ended."""


def game_of(options: Options | skyjo.Options) -> str:
    """The game whose options these are (``skip`` or ``skyjo``)."""
    return "skyjo" if isinstance(options, skyjo.Options) else "skip"


def play_match(
    options: Options | skyjo.Options,
    seed: str | int,
    bots: Sequence[Bot],
    *,
    fingerprints: bool = False,
    max_rounds: int = 200,
    record: bool = True,
    verify: bool = False,
) -> Any:
    """Play a whole match (Skip's ``Match``, or Skyjo's for Skyjo options); every bot sees
    only its own seat's view.

    ``record=False`` keeps no Skip move log (the rounds' results, turns and the scores stay):
    for simulations that write no game record. A trusted bot's choice (a built-in bot, which
    picks among the legal actions) is applied without the rules' check unless ``verify``.
    """
    if len(bots) != options.players:
        raise ValueError(f"{options.players} seats need {options.players} bots, not {len(bots)}")
    skyjo_game = game_of(options) == "skyjo"
    keep = record or fingerprints
    match: Any = (
        skyjo.Match(options, seed, fingerprints=fingerprints, record=keep)
        if isinstance(options, skyjo.Options)  # skyjo_game
        else Match(options, seed, fingerprints=fingerprints, record=keep)
    )
    round_player: Any = play_skyjo_round if skyjo_game else play_round
    seat_view = skyjo.view if skyjo_game else view
    watchers = observers(bots)
    for seat, bot in watchers:
        bot.begin(seat, options)
    while True:
        round_player(match, bots, verify=verify)
        for seat, bot in watchers:
            bot.round_over(match.round_number, seat_view(match.state, seat))
        if match.over or match.round_number >= max_rounds:
            for _, bot in watchers:
                bot.end(tuple(match.winners or ()), list(match.scores))
            return match
        match.next_round()


def observers(bots: Sequence[Bot]) -> list[tuple[int, Observer]]:
    """The bots that follow the game between their decisions (external programs), by seat.

    A bot without ``observe`` is passed over before the protocol's check, which looks up each
    of its methods by name (tens of microseconds, twice a game in a simulation)."""
    return [
        (seat, bot)
        for seat, bot in enumerate(bots)
        if hasattr(bot, "observe") and isinstance(bot, Observer)
    ]


def play_round(match: Match, bots: Sequence[Bot], *, verify: bool = True) -> None:
    """Play the match's current round to its end; ``verify`` checks trusted bots too."""
    _play_round(match, bots, view, check, verify)


def play_skyjo_round(match: skyjo.Match, bots: Sequence[Bot], *, verify: bool = True) -> None:
    """Play a Skyjo match's current round to its end (S4.1)."""
    _play_round(match, bots, skyjo.view, skyjo.check, verify)


def _play_round(match: Any, bots: Sequence[Bot], view: Any, check: Any, verify: bool) -> None:
    """One round of either game: each bot chooses from its own view, the rules check the
    choice (unless the bot is trusted), the match applies it without events. The rules'
    functions come as arguments (locals: looked up once a round, on the hot path of
    simulations and benchmarks)."""
    state, apply = match.state, match.apply_trusted
    choosers = [bot.choose for bot in bots]
    checks = [check if verify or not getattr(bot, "trusted", False) else None for bot in bots]
    watchers = observers(bots)
    round_number = match.round_number
    if watchers or any(checks):
        for _ in range(MAX_MOVES_PER_ROUND):
            if state.result is not None:
                return
            seat = state.current
            action = choosers[seat](view(state, seat))
            checker = checks[seat]
            if checker is not None:
                try:
                    checker(state, action)
                except IllegalMove as error:
                    raise BotError(
                        f"bot {bots[seat].name} at seat {seat + 1} chose {action}: {error}"
                    ) from None
            apply(action)
            for _, bot in watchers:
                bot.observe(round_number, seat, action)
    elif match.record:  # trusted bots, nobody watching, the moves logged
        for _ in range(MAX_MOVES_PER_ROUND):
            if state.result is not None:
                return
            seat = state.current
            apply(choosers[seat](view(state, seat)))
    elif match.play_out(choosers, MAX_MOVES_PER_ROUND):
        # Trusted bots, nobody watching, no log: a simulation's loop, with nothing else in it,
        # run by the match itself (compiled with the rules).
        return
    raise BotError(f"round {match.round_number} did not end within {MAX_MOVES_PER_ROUND} moves")
