"""Skip on the command line (``Game.terminal``, ``games/terminal.py``): options from
``--players``/``--teams``/``-o stock=low``, the position and the score sheet as text, headlines,
and actions in words for ``review``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..terminal import BasicTerminal, TextTable, joined
from .cards import card_name, describe
from .match import Match
from .options import Options
from .views import SeatView

COLOURS = {range(1, 5): "blue", range(5, 9): "green", range(9, 13): "magenta"}


def card_markup(card: int | None) -> str:
    """A card in the R1.3 palette, the number always shown."""
    if card is None:
        return "[dim]·[/]"
    if card == 0:
        return "[bold dark_orange]W[/]"
    colour = next(c for r, c in COLOURS.items() if card in r)
    return f"[bold {colour}]{card}[/]"


def position_table(view: SeatView, names: Sequence[str]) -> TextTable:
    """Building piles, then each seat's stock, discard piles and hand size (a spectator's view)."""
    piles = "  ".join(
        f"[{describe(pile[-1:]) if pile else '-'}→{value + 1 if value < 12 else '-'}]"
        for pile, value in zip(view.building, view.values, strict=True)
    )
    rows = []
    for seat in range(view.players):
        marker = "▶ " if seat == view.current and view.result is None else "  "
        partner = ""
        if view.partners is not None:
            partner = f" (team {min(seat, view.partners[seat]) + 1})"
        discards = " [dim]│[/] ".join(
            " ".join(card_markup(c) for c in pile) if pile else "[dim]-[/]"
            for pile in view.discards[seat]
        )
        rows.append(
            (
                f"{marker}{names[seat]}{partner}",
                card_markup(view.stock_tops[seat]),
                str(view.stock_counts[seat]),
                discards,
                str(view.hand_counts[seat]),
            )
        )
    return TextTable(
        f"Building piles {piles}   draw {view.draw_count}   completed {view.completed_count}",
        (
            ("seat", "left"),
            ("stock top", "center"),
            ("stock", "right"),
            ("discard piles", "left"),
            ("hand", "right"),
        ),
        tuple(rows),
    )


def target_text(o: Options) -> str:
    return "single round" if o.match_target is None else f"to {o.match_target}"


class SkipTerminal(BasicTerminal):
    teams = True
    rules_hint = "the rules, by id (R1.1 …), are in docs/rules.md"
    tournament_bots: str | None = "expert,planner,greedy"
    tournament_options: Mapping[str, Any] = {"match_target": None}

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.rules_hint = SkipTerminal.rules_hint

    def options_from_cli(
        self, players: int, pairs: Sequence[str], *, teams: bool = False, **base: Any
    ) -> Options:
        return Options.parse_pairs(list(pairs), players=players, teams=teams, **base)

    def position(self, match: Match, names: Sequence[str]) -> TextTable:
        return position_table(match.view(None), names)

    def scores(self, match: Match, names: Sequence[str]) -> TextTable:
        """Points per round and the running totals (R6.2)."""
        rows = []
        for log in match.rounds:
            if log.result is None:
                continue
            how = "stalemate (R6.4)" if log.result.stalemate else "stock emptied"
            if not log.result.winners:
                how += ", no winner"
            rows.append((str(log.number), *(str(p) for p in log.result.points), how))
        return TextTable(
            "Scores",
            (("round", "right"), *((name, "right") for name in names), ("how it ended", "left")),
            tuple(rows),
            ("total", *(f"[bold]{s}[/]" for s in match.scores), ""),
        )

    def watch_opening(self, match: Match, names: Sequence[str]) -> str:
        o = match.options
        target = "a single round" if o.match_target is None else f"{o.match_target} points"
        return f"[bold]{', '.join(names)}[/] play to {target}; seat {match.first_dealer + 1} deals."

    def watch_round(self, match: Match, names: Sequence[str]) -> str:
        log = match.rounds[-1]
        assert log.result is not None
        winners = joined(names, log.result.winners) or "nobody"
        how = "stalemate (R6.4)" if log.result.stalemate else "stock emptied"
        return f"Round {log.number}: won by {winners} ({how}) after {log.turns} turns"

    def winners_line(self, match: Match, names: Sequence[str]) -> str:
        return "[bold]Match won by " + joined(names, match.winners or ()) + "[/]"

    def simulate_headline(
        self, options: Options, games: int, rounds: int, turns_per_round: float, stalemates: int
    ) -> str:
        o = options
        return (
            f"{games} matches, {o.players} players{' in teams' if o.teams else ''}, "
            f"stock {o.stock}, {target_text(o)}: {rounds} rounds, "
            f"{turns_per_round:.1f} turns per round, {stalemates} stalemates "
            "(R6.4)"
        )

    def tournament_headline(self, options: Options, data: Mapping[str, Any], pairings: int) -> str:
        o = options
        target = "single round" if o.match_target is None else f"matches to {o.match_target}"
        return (
            f"{data['games']} games ({pairings} pairings, duplicate deals), "
            f"{o.players} players{' in teams' if o.teams else ''}, stock {o.stock}, {target}: "
            f"{data['rounds']} rounds, {data['mean_turns_per_round']} turns per round, "
            f"{data['stalemates']} stalemates (R6.4), "
            f"first mover won {data['first_mover_win_rate']:.1%}, {data['seconds']} s"
        )

    def plot_title(self, options: Options, games: int) -> str:
        o = options
        return (
            f"{games} duplicate games, {o.players} players{' teams' if o.teams else ''}, "
            f"stock {o.stock}"
        )

    def describe_action(self, action: Any) -> str:
        """ "H7→B2", "S→B1", "D3→B1", "discard 9 on D3"."""
        kind = getattr(action, "kind", "")
        if kind == "play":
            source = {
                "hand": f"H{card_name(action.card)}",
                "stock": "S",
                "discard": f"D{action.pile + 1}",
                "partner_stock": "partner's S",
                "partner_discard": f"partner's D{action.pile + 1}",
            }[action.source]
            return f"{source}→B{action.to + 1}"
        if kind == "discard":
            whose = "partner's " if action.partner else ""
            return f"discard {card_name(action.card)} on {whose}D{action.pile + 1}"
        return str(kind or action)
