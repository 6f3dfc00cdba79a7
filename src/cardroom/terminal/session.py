"""One person against bots, as a table plays it, without a server: the match of any game of
the registry (``Game`` contract), the person's seat, and bots deciding from their own views.

The session knows the rules only through the match: the person's moves are the legal actions
of their view, applied with the rules' check; the bots' moves are their choices from their own
views, checked the same way. What the screen shows comes from the person's view alone
(``Game.terminal.seat_view``), so nothing hidden reaches the terminal. Options, seed and the
moves determine everything: a bot's seed is derived from the match's (``derive_seed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.bots import hints
from cardroom.bots.specs import bot_label, make_bot_from_spec
from cardroom.games import get_game
from cardroom.games.base import IllegalMove, derive_seed
from cardroom.sim.play import MAX_MOVES_PER_ROUND, BotError, next_round, observers

YOU = 0  # the person sits first; the first player of a round is the game's to decide


@dataclass
class Move:
    """A line of the move log: who, what (in the game's words), in which round."""

    round_number: int
    seat: int
    words: str


class PlaySession:
    """The match, the person at seat 0, the bots at the others, and the move log."""

    def __init__(self, game_name: str, options: Any, seed: int, bot_specs: Sequence[str]) -> None:
        self.game = get_game(game_name)
        if len(bot_specs) != options.players - 1:
            raise ValueError(f"{options.players} seats need {options.players - 1} bots")
        self.game_name, self.options, self.seed, self.bot_specs = (
            game_name,
            options,
            seed,
            bot_specs,
        )
        self.match = self.game.new_match(options, str(seed))
        self.bots: list[Any] = [None] + [
            make_bot_from_spec(spec, derive_seed(seed, "bot", seat), game=game_name)
            for seat, spec in enumerate(bot_specs, start=1)
        ]
        self.names = ["You"] + [
            f"{bot_label(spec)} {seat}" for seat, spec in enumerate(bot_specs, start=1)
        ]
        self.log: list[Move] = []
        self._watchers = observers(self.bots)  # programs that follow every move, by seat
        for seat, bot in self._watchers:
            bot.begin(seat, options)
        self.bots_play()

    # -- what the person sees ----------------------------------------------------------------

    @property
    def view(self) -> Any:
        """The person's view: everything the screen shows comes from it."""
        return self.match.view(YOU)

    @property
    def my_turn(self) -> bool:
        return not self.match.over and not self.match.between_rounds and self.match.current == YOU

    def legal(self) -> list[Any]:
        return self.view.legal_actions() if self.my_turn else []

    def describe(self, action: Any) -> str:
        return self.game.terminal.describe_action(action)

    def hint(self) -> tuple[int, str] | None:
        """The adviser's next step for the person (its index among the legal moves) and why;
        None when the game has no adviser or it is not the person's turn."""
        if not self.my_turn or self.game_name not in hints.GAMES:
            return None
        advice = hints.hint_json(self.view)
        wanted = advice["action"]
        for index, action in enumerate(self.legal()):
            if self.game.action_to_json(action) == wanted:
                return index, str(advice.get("reason") or "")
        return None

    # -- moves -------------------------------------------------------------------------------

    def play(self, action: Any) -> None:
        """The person's move, with the rules' check (``IllegalMove`` changes nothing), then
        the bots' until it is the person's turn again or the round ends; ``ValueError`` out
        of turn."""
        if not self.my_turn:
            raise ValueError("it is not your turn")
        self._apply(YOU, action)
        self.bots_play()

    def bots_play(self) -> None:
        for _ in range(MAX_MOVES_PER_ROUND):
            if self.match.over or self.match.between_rounds or self.match.current == YOU:
                return
            seat = self.match.current
            assert seat is not None  # a round in play has someone to play
            action = self.bots[seat].choose(self.match.view(seat))
            try:
                self._apply(seat, action)
            except IllegalMove as error:
                raise BotError(f"{self.names[seat]} chose {action}: {error}") from None
        raise BotError(f"round {self.match.round_number} did not end")

    def _apply(self, seat: int, action: Any) -> None:
        round_number = self.match.round_number
        self.match.apply(action, seat)
        self.log.append(Move(round_number, seat, self.describe(action)))
        for _, bot in self._watchers:
            bot.observe(round_number, seat, action)
        if self.match.between_rounds or self.match.over:
            for watcher_seat, bot in self._watchers:
                bot.round_over(round_number, self.match.view(watcher_seat))
            if self.match.over:
                for _, bot in self._watchers:
                    bot.end(tuple(self.match.winners or ()), list(self.match.scores))

    def next_round(self) -> None:
        """Deal the next round (after its summary was read), and let the bots begin it."""
        if not self.match.between_rounds or self.match.over:
            raise ValueError("the round is not over")
        next_round(self.match)
        self.bots_play()

    def close(self) -> None:
        """End the bots' programs, if any bot is one."""
        for bot in self.bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
