"""Skyjo on the command line (``Game.terminal``, ``games/terminal.py``): the grids and the
score sheet as text, headlines, and actions in words for ``review``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..terminal import BasicTerminal, TextTable, joined
from .actions import Action
from .cards import column_of, row_of
from .match import Match
from .options import Options
from .views import SeatView

TURN_ENDS = frozenset({"take", "exchange", "discard", "timeout"})
"""The Skyjo actions that end a turn (S2): a draw is half of one, a reveal comes before."""


def grids_table(view: SeatView, names: Sequence[str]) -> TextTable:
    """Every seat's grid as three rows of four columns (a spectator's view): ``?`` face
    down, ``·`` a removed column (S3.1)."""
    rows = []
    for seat, grid in enumerate(view.grids):
        marker = "▶ " if seat == view.current and view.result is None else "  "
        lines = [
            " ".join(f"{_cell(grid[column * 3 + row]):>3}" for column in range(4))
            for row in range(3)
        ]
        up = sum(c for c in grid if isinstance(c, int))
        rows.append((f"{marker}{names[seat]}", *lines, str(up)))
    return TextTable(
        f"Discard top {view.discard_top}   draw {view.draw_count}",
        (("seat", "left"), *((f"row {r + 1}", "left") for r in range(3)), ("face up", "right")),
        tuple(rows),
    )


def _cell(cell: int | str | None) -> str:
    return "·" if cell is None else str(cell)


class SkyjoTerminal(BasicTerminal):
    tournament_bots: str | None = "counter,greedy"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.rules_hint = "the rules, by id (S1.1 …), are in docs/skyjo-rules.md"

    def round_turns(self, log: Any) -> int:
        """A Skyjo round's turns are its turn-ending actions."""
        return sum(1 for _, action in log.moves if action.kind in TURN_ENDS)

    def position(self, match: Match, names: Sequence[str]) -> TextTable:
        return grids_table(match.view(None), names)

    def scores(self, match: Match, names: Sequence[str]) -> TextTable:
        """Points per round and the running totals (S4.2, S4.3, S5.1)."""
        rows = []
        for log in match.rounds:
            if log.result is None:
                continue
            result = log.result
            closer = names[result.closer] + (" (doubled, S4.3)" if result.doubled else "")
            rows.append((str(log.number), *(str(p) for p in result.points), closer))
        return TextTable(
            "Scores",
            (("round", "right"), *((name, "right") for name in names), ("closer", "left")),
            tuple(rows),
            ("total", *(f"[bold]{s}[/]" for s in match.scores), ""),
        )

    def watch_opening(self, match: Match, names: Sequence[str]) -> str:
        return f"[bold]{', '.join(names)}[/] play Skyjo to {match.options.end_score}."

    def watch_round(self, match: Match, names: Sequence[str]) -> str:
        result = match.state.result
        assert result is not None
        doubled = " (doubled, S4.3)" if result.doubled else ""
        return f"Round {match.round_number}: closed by {names[result.closer]}{doubled}"

    def winners_line(self, match: Match, names: Sequence[str]) -> str:
        return "[bold]Won by " + joined(names, match.winners or ()) + "[/]"

    def simulate_headline(
        self, options: Options, games: int, rounds: int, turns_per_round: float, stalemates: int
    ) -> str:
        return (
            f"{games} Skyjo games, {options.players} players, to {options.end_score}: "
            f"{rounds} rounds, {turns_per_round:.1f} turns per round"
        )

    def tournament_headline(self, options: Options, data: Any, pairings: int) -> str:
        return (
            f"{data['games']} Skyjo games ({pairings} pairings, duplicate deals), "
            f"{options.players} players, to {options.end_score}: {data['rounds']} rounds, "
            f"{data['mean_turns_per_round']} turns per round, "
            f"first mover won {data['first_mover_win_rate']:.1%}, {data['seconds']} s"
        )

    def plot_title(self, options: Options, games: int) -> str:
        return f"{games} duplicate games, {options.players} players, to {options.end_score}"

    def describe_action(self, action: Action) -> str:
        """ "take→C1R2", "draw", "keep→C4R2", "discard, turn C3R3"."""
        if action.kind in ("draw", "timeout"):
            return action.kind
        where = f"C{column_of(action.position) + 1}R{row_of(action.position) + 1}"
        if action.kind == "discard":
            return f"discard, turn {where}"
        verb = {"exchange": "keep", "reveal": "turn"}.get(action.kind, action.kind)
        return f"{verb}→{where}"
