"""An attempt at a day's deal, replayed: the day's options and seed, the person at seat 0,
the bots at the others deciding from their own views, and the person's moves so far.

An attempt is its moves alone (``attempts`` stores them): rebuilding it deals the same cards
and lets the bots answer the same moves with the same choices, since their seeds come from the
day's (``PlaySession``). What leaves this module is the person's view, the legal moves, the
public events of the round and, once the round is over, its outcome and marks: never the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from cardroom.games import get_game
from cardroom.games.base import ReplayError
from cardroom.games.daily import DailyRules, Outcome, round_over
from cardroom.sim.session import PlaySession, Refusal

MAX_MOVES = 2_000  # moves one attempt may hold: a round that long is someone's script


class NoDaily(LookupError):
    """A game without a deal of the day."""


def rules_of(game_name: str) -> DailyRules:
    game = get_game(game_name)
    rules = getattr(game, "daily", None)
    if rules is None:
        raise NoDaily(f"{game.title} has no daily deal")
    return rules  # type: ignore[no-any-return]


def daily_games() -> list[str]:
    from cardroom.games import GAMES

    return [name for name, game in GAMES.items() if getattr(game, "daily", None) is not None]


class DailyRound:
    """One attempt: ``practice`` turns the hint on, and is never scored."""

    def __init__(
        self,
        game_name: str,
        day: date,
        seed: str,
        *,
        practice: bool = False,
        moves: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        self.rules = rules_of(game_name)
        self.game_name, self.day, self.practice = game_name, day, practice
        game = get_game(game_name)
        options = game.options_from_json(
            self.rules.practice_options() if practice else dict(self.rules.options)
        )
        self.session = PlaySession(game_name, options, seed, self.rules.bots)
        self.session.names[0] = "You"
        self.moves: list[dict[str, Any]] = []
        for number, move in enumerate(moves, start=1):
            refusal = self.play(move)
            if refusal is not None:
                raise ReplayError(f"move {number} of the attempt is refused: {refusal}")

    @property
    def over(self) -> bool:
        return round_over(self.session.match)

    def play(self, action: Mapping[str, Any]) -> Refusal | None:
        """The person's move, checked by the rules; the bots answer. A refusal changes nothing."""
        if self.over:
            return Refusal("", "the daily round is over")
        if len(self.moves) >= MAX_MOVES:
            return Refusal("", f"an attempt holds at most {MAX_MOVES} moves")
        if not isinstance(action, Mapping):
            return Refusal("", "a move is a JSON object")
        refusal = self.session.play(dict(action))
        if refusal is None:
            self.moves.append(dict(action))
        return refusal

    def hint(self) -> dict[str, Any] | Refusal:
        return self.session.hint()

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.session.match) if self.over else None

    def events(self) -> list[dict[str, Any]]:
        """The round's public events, as every seat heard them."""
        return [told.event for told in self.session.told]

    def marks(self) -> str:
        return self.rules.marks(self.events())

    def state_json(self) -> dict[str, Any]:
        """What the person's screen shows: nothing the person's seat could not see."""
        outcome = self.outcome()
        return {
            "game": self.game_name,
            "day": self.day.isoformat(),
            "practice": self.practice,
            "names": list(self.session.names),
            "view": self.session.view(),
            "legal": self.session.legal(),
            "log": self.events(),
            "moves": len(self.moves),
            "over": self.over,
            "outcome": outcome.to_json() if outcome else None,
            "marks": self.marks() if outcome else None,
        }

    def close(self) -> None:
        self.session.close()
