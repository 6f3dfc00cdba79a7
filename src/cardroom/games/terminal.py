"""A game on the command line: what ``simulate``, ``replay``, ``watch``, ``tournament``,
``calibrate`` and ``review`` need to know of a game, and nothing they could ask the rules.

Every game has a ``terminal`` (``Game.terminal``). ``BasicTerminal`` serves any game whose
match keeps ``rounds`` (logs with ``number``, ``moves`` as ``(seat, action)`` pairs and a
``result`` with ``points``, None while the round is played); Skip and Skyjo subclass it with
their own words (``games/skip/terminal.py``, ``games/skyjo/terminal.py``).

Text is returned, never printed: strings in rich's console markup (``[bold]…[/]``) and
``TextTable``s, which ``sim/render.py`` turns into rich tables. No I/O here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .base import OptionsError

if TYPE_CHECKING:
    from .base import Game


@dataclass(frozen=True, slots=True)
class TextTable:
    """A table of text: a title, columns (heading, ``left``/``center``/``right``), rows, and
    an optional last row set off by a line (a total)."""

    title: str
    columns: tuple[tuple[str, str], ...]
    rows: tuple[tuple[str, ...], ...]
    total: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """One round of a match played: its moves, its table turns, and (once it ended) its
    points, the seats that won it, and whether it ended in a stalemate (Skip's R6.4)."""

    number: int
    moves: int
    turns: int
    points: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    stalemate: bool = False


class Terminal(Protocol):
    teams: bool
    """Whether ``--teams`` means anything in this game."""
    rules_hint: str
    """Where a person reads the rules a refusal names (``the rules … are in docs/rules.md``)."""
    tournament_bots: str | None
    """The bots a tournament plays when none are given (None: every bot of the game)."""
    tournament_options: Mapping[str, Any]
    """Options a tournament sets unless told otherwise (Skip: single rounds)."""
    tournament_unit: str
    """What a tournament game is, for ``--help`` and headlines (``games``)."""

    def options_from_cli(
        self, players: int, pairs: Sequence[str], *, teams: bool = False, **base: Any
    ) -> Any:
        """Options from ``--players``, ``--teams`` and ``-o key=value`` pairs; ``OptionsError``
        names the rule broken."""
        ...

    def round_facts(self, match: Any) -> list[RoundFacts]: ...

    def first_mover(self, match: Any) -> int:
        """The seat that made the match's first move (-1: nobody moved)."""
        ...

    def position(self, match: Any, names: Sequence[str]) -> TextTable:
        """The position as a spectator sees it (``watch``, ``replay``)."""
        ...

    def scores(self, match: Any, names: Sequence[str]) -> TextTable:
        """Points per round and the totals."""
        ...

    def watch_opening(self, match: Any, names: Sequence[str]) -> str: ...

    def watch_round(self, match: Any, names: Sequence[str]) -> str:
        """The line over a round just ended (``watch``)."""
        ...

    def winners_line(self, match: Any, names: Sequence[str]) -> str:
        """Who won the match, in bold (``watch``)."""
        ...

    def simulate_headline(
        self, options: Any, games: int, rounds: int, turns_per_round: float, stalemates: int
    ) -> str: ...

    def tournament_headline(self, options: Any, data: Mapping[str, Any], pairings: int) -> str: ...

    def plot_title(self, options: Any, games: int) -> str: ...

    def describe_action(self, action: Any) -> str:
        """An action as a short phrase (``review``)."""
        ...


def parse_pairs(pairs: Sequence[str], **data: Any) -> dict[str, Any]:
    """``key=value`` pairs with values as in JSON (50, false, null; else the text itself)."""
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"house rules are key=value, not {pair!r}")
        try:
            data[key.strip()] = json.loads(text.strip())
        except (ValueError, RecursionError):  # not JSON, or a number too long for int(): a word
            data[key.strip()] = text.strip()
    return data


def joined(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


class BasicTerminal:
    """The command line's defaults for any game: options as JSON values, scores and a row
    per seat, winners by the best total."""

    teams = False
    tournament_bots: str | None = None
    tournament_options: Mapping[str, Any] = {}
    tournament_unit = "games"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules_hint = f"the rules of {game.title} name them"

    def options_from_cli(
        self, players: int, pairs: Sequence[str], *, teams: bool = False, **base: Any
    ) -> Any:
        if teams and not self.teams:
            raise OptionsError(f"{self.game.title} has no teams")
        try:
            return self.game.options_from_json(parse_pairs(pairs, players=players, **base))
        except TypeError as error:
            raise OptionsError(str(error)) from None

    def round_facts(self, match: Any) -> list[RoundFacts]:
        facts = []
        for log in match.rounds:
            result = log.result
            points = None if result is None else tuple(result.points)
            facts.append(
                RoundFacts(
                    log.number,
                    len(log.moves),
                    self.round_turns(log),
                    points,
                    None if points is None else self.round_winners(result),
                    bool(getattr(result, "stalemate", False)),
                )
            )
        return facts

    def round_turns(self, log: Any) -> int:
        turns = getattr(log, "turns", None)
        return len(log.moves) if turns is None else int(turns)

    def round_winners(self, result: Any) -> tuple[int, ...]:
        winners = getattr(result, "winners", None)
        if winners is not None:
            return tuple(winners)
        points = list(result.points)
        best = min(points) if self.game.lower_scores_win else max(points)
        return tuple(s for s, p in enumerate(points) if p == best)

    def first_mover(self, match: Any) -> int:
        moves = match.rounds[0].moves if match.rounds else []
        return int(moves[0][0]) if moves else -1

    def position(self, match: Any, names: Sequence[str]) -> TextTable:
        current = None if match.over else match.current
        rows = tuple(
            (f"{'▶ ' if seat == current else '  '}{name}", str(score))
            for seat, (name, score) in enumerate(zip(names, match.scores, strict=True))
        )
        return TextTable(
            f"{self.game.title}, round {match.round_number}",
            (("seat", "left"), ("score", "right")),
            rows,
        )

    def scores(self, match: Any, names: Sequence[str]) -> TextTable:
        rows = tuple(
            (str(facts.number), *(str(p) for p in facts.points))
            for facts in self.round_facts(match)
            if facts.points is not None
        )
        return TextTable(
            "Scores",
            (("round", "right"), *((name, "right") for name in names)),
            rows,
            ("total", *(f"[bold]{s}[/]" for s in match.scores)),
        )

    def watch_opening(self, match: Any, names: Sequence[str]) -> str:
        return f"[bold]{', '.join(names)}[/] play {self.game.title}."

    def watch_round(self, match: Any, names: Sequence[str]) -> str:
        last = self.round_facts(match)[-1]
        winners = joined(names, last.winners or ()) or "nobody"
        return f"Round {last.number}: won by {winners} after {last.turns} turns"

    def winners_line(self, match: Any, names: Sequence[str]) -> str:
        return "[bold]Won by " + joined(names, match.winners or ()) + "[/]"

    def simulate_headline(
        self, options: Any, games: int, rounds: int, turns_per_round: float, stalemates: int
    ) -> str:
        return (
            f"{games} {self.game.title} games, {options.players} players: {rounds} rounds, "
            f"{turns_per_round:.1f} turns per round"
        )

    def tournament_headline(self, options: Any, data: Mapping[str, Any], pairings: int) -> str:
        return (
            f"{data['games']} {self.game.title} games ({pairings} pairings, duplicate deals), "
            f"{options.players} players: {data['rounds']} rounds, "
            f"{data['mean_turns_per_round']} turns per round, "
            f"first mover won {data['first_mover_win_rate']:.1%}, {data['seconds']} s"
        )

    def plot_title(self, options: Any, games: int) -> str:
        return f"{games} duplicate games, {options.players} players"

    def describe_action(self, action: Any) -> str:
        return json.dumps(self.game.action_to_json(action), separators=(",", ":"))
