"""Play one match between bots, through views only, as a table would: any game of the
registry, told apart by the options given. A game with a state-level engine
(``Game.engine``) is played on its fast path; any other through the ``GameMatch`` contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.bots import Bot
from cardroom.bots.base import Observer
from cardroom.games import GAMES, Game, get_game
from cardroom.games.base import IllegalMove

MAX_MOVES_PER_ROUND = 20_000


class BotError(RuntimeError):
    """A bot chose an illegal action or a round never ended."""


def game_of(options: Any) -> str:
    """The game whose options these are (``skip``, ``skyjo`` …)."""
    for game in GAMES.values():
        if isinstance(options, game.options_type):
            return game.name
    raise ValueError(f"options of no registered game: {options!r}")


def play_match(
    options: Any,
    seed: str | int,
    bots: Sequence[Bot],
    *,
    fingerprints: bool = False,
    max_rounds: int = 200,
    record: bool = True,
    verify: bool = False,
) -> Any:
    """Play a whole match of the game these options belong to; every bot sees only its own
    seat's view.

    ``record=False`` keeps no move log (the rounds' results, turns and the scores stay):
    for simulations that write no game record. A trusted bot's choice (a built-in bot, which
    picks among the legal actions) is applied without the rules' check unless ``verify``.
    """
    if len(bots) != options.players:
        raise ValueError(f"{options.players} seats need {options.players} bots, not {len(bots)}")
    game = get_game(game_of(options))
    match = new_match(game, options, seed, fingerprints=fingerprints, record=record)
    watchers = observers(bots)
    for seat, bot in watchers:
        bot.begin(seat, options)
    while True:
        _play_round_of(game, match, bots, verify)
        for seat, bot in watchers:
            bot.round_over(match.round_number, match.view(seat))
        if match.over or match.round_number >= max_rounds:
            for _, bot in watchers:
                bot.end(tuple(match.winners or ()), list(match.scores))
            return match
        next_round(match)


def new_match(
    game: Game, options: Any, seed: str | int, *, fingerprints: bool = False, record: bool = True
) -> Any:
    """A match for bots to play: the engine's (fast) match when the game has one."""
    keep = record or fingerprints
    if game.engine is not None:
        return game.engine.match(options, seed, fingerprints=fingerprints, record=keep)
    return game.new_match(options, str(seed), record=keep)


def next_round(match: Any) -> None:
    """Deal the next round, as a table does with no one gone."""
    if hasattr(match, "next_round"):
        match.next_round()
        return
    for step in match.between_round_steps(frozenset()):
        match.apply_step(step)


def observers(bots: Sequence[Bot]) -> list[tuple[int, Observer]]:
    """The bots that follow the game between their decisions (external programs), by seat.

    A bot without ``observe`` is passed over before the protocol's check, which looks up each
    of its methods by name (tens of microseconds, twice a game in a simulation)."""
    return [
        (seat, bot)
        for seat, bot in enumerate(bots)
        if hasattr(bot, "observe") and isinstance(bot, Observer)
    ]


def play_round(match: Any, bots: Sequence[Bot], *, verify: bool = True) -> None:
    """Play the match's current round to its end; ``verify`` checks trusted bots too."""
    _play_round_of(get_game(game_of(match.options)), match, bots, verify)


def _play_round_of(game: Game, match: Any, bots: Sequence[Bot], verify: bool) -> None:
    engine = game.engine
    if engine is None:
        _play_contract_round(match, bots)
    else:
        _play_round(match, bots, engine.view, engine.check, verify)


play_skyjo_round = play_round
"""A Skyjo match's current round to its end (S4.1): ``play_round`` plays every game."""


def _play_contract_round(match: Any, bots: Sequence[Bot]) -> None:
    """One round through the ``GameMatch`` contract alone: each bot chooses from its view and
    the match applies the action with the rules' check (a game without a state engine)."""
    watchers = observers(bots)
    round_number = match.round_number
    for _ in range(MAX_MOVES_PER_ROUND):
        if match.over or match.between_rounds:
            return
        seat = match.current
        action = bots[seat].choose(match.view(seat))
        try:
            match.apply(action, seat)
        except IllegalMove as error:
            raise BotError(
                f"bot {bots[seat].name} at seat {seat + 1} chose {action}: {error}"
            ) from None
        for _, bot in watchers:
            bot.observe(round_number, seat, action)
    raise BotError(f"round {match.round_number} did not end within {MAX_MOVES_PER_ROUND} moves")


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
