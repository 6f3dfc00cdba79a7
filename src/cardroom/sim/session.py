"""One person against bots, as a table plays it, without a server: the match of any game of
the registry (``Game`` contract), the person's seat, and bots deciding from their own views.

The session knows the rules only through the match: the person's moves are actions in the
game's JSON notation, applied with the rules' check (a refusal carries its rule and changes
nothing); the bots' moves are their choices from their own views, checked the same way. What
the screen shows comes from the person's view and the engine's public events alone, so nothing
hidden reaches the terminal. Options, seed and the moves determine everything: a bot's seed is
derived from the match's (``derive_seed``), as ``watch`` and ``simulate`` derive theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.bots import hints
from cardroom.bots.specs import bot_label, make_bot_from_spec
from cardroom.games import get_game
from cardroom.games.base import Event, IllegalMove, NotationError, derive_seed
from cardroom.sim.play import MAX_MOVES_PER_ROUND, BotError, observers

YOU = 0  # the person sits first; the first player of a round is the game's to decide


@dataclass(frozen=True, slots=True)
class Told:
    """An engine event as every seat hears it (``Game.event_json``), in the round it
    happened: the move log is written from these."""

    round_number: int
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the person's move was not played: the rule (empty for a malformed move) and the
    reason in words. Nothing changed."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class PlaySession:
    """The match, the person at seat 0, the bots at the others, and what was told."""

    def __init__(
        self, game_name: str, options: Any, seed: int | str, bot_specs: Sequence[str]
    ) -> None:
        self.game = get_game(game_name)
        if len(bot_specs) != options.players - 1:
            raise ValueError(f"{options.players} seats need {options.players - 1} bots")
        self.game_name, self.options, self.seed = game_name, options, seed
        self.match = self.game.new_match(options, str(seed))
        self.bots: list[Any] = [None] + [
            make_bot_from_spec(spec, derive_seed(seed, "bot", seat), game=game_name)
            for seat, spec in enumerate(bot_specs, start=1)
        ]
        self.names = ["You"] + [
            f"{bot_label(spec)} {seat}" for seat, spec in enumerate(bot_specs, start=1)
        ]
        self.told: list[Told] = []
        self.moves = 0  # actions applied, the person's and the bots'
        self._tell(self.match.opening_events)
        self._watchers = observers(self.bots)  # programs that follow every move, by seat
        for seat, bot in self._watchers:
            bot.begin(seat, options)
        self.bots_play()

    # -- what the person sees ----------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The person's view in its JSON form: everything the screen shows comes from it."""
        return self.match.view(YOU).to_json()  # type: ignore[no-any-return]

    @property
    def my_turn(self) -> bool:
        return not self.match.over and not self.match.between_rounds and self.match.current == YOU

    def legal(self) -> list[dict[str, Any]]:
        """The person's legal actions in JSON, the engine's list (empty out of turn)."""
        if not self.my_turn:
            return []
        return [self.game.action_to_json(a) for a in self.match.view(YOU).legal_actions()]

    def hint(self) -> dict[str, Any] | Refusal:
        """The adviser's next step for the person (``{"action", "reason"}``), as a table's
        hint (R7.6); a ``Refusal`` when there is none to give."""
        if not self.my_turn:
            return Refusal("", "a hint is for your turn")
        if self.game_name not in hints.GAMES:
            return Refusal("", f"{self.game.title} has no adviser")
        if not getattr(self.options, "hints", True):
            return Refusal("R7.6", "hints are off at this table")
        return hints.hint_json(self.match.view(YOU))

    # -- moves -------------------------------------------------------------------------------

    def play(self, data: dict[str, Any]) -> Refusal | None:
        """The person's move in JSON, with the rules' check, then the bots' until it is the
        person's turn again or the round ends. A refusal changes nothing."""
        if not self.my_turn:
            return Refusal("", "it is not your turn")
        try:
            action = self.game.action_from_json(data)
            self._apply(YOU, action)
        except NotationError as error:
            return Refusal("", str(error))
        except IllegalMove as error:
            return Refusal(error.rule, error.message)
        self.bots_play()
        return None

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
        self._tell(self.match.apply(action, seat), round_number)
        self.moves += 1
        for _, bot in self._watchers:
            bot.observe(round_number, seat, action)
        if self.match.between_rounds or self.match.over:
            for watcher_seat, bot in self._watchers:
                bot.round_over(round_number, self.match.view(watcher_seat))
            if self.match.over:
                for _, bot in self._watchers:
                    bot.end(tuple(self.match.winners or ()), list(self.match.scores))

    def _tell(self, events: Sequence[Event], round_number: int | None = None) -> None:
        number = self.match.round_number if round_number is None else round_number
        self.told.extend(Told(number, self.game.event_json(e)) for e in events)

    def next_round(self) -> None:
        """Deal the next round (after its summary was read), as a table does with everyone
        present, and let the bots begin it."""
        if not self.match.between_rounds or self.match.over:
            raise ValueError("the round is not over")
        for step in self.match.between_round_steps(frozenset()):
            self._tell(self.match.apply_step(step))
        self.bots_play()

    def close(self) -> None:
        """End the bots' programs, if any bot is one."""
        for bot in self.bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
