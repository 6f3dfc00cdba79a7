"""The values a kept game is made of: its settings, its rounds, and the keeper's refusal.

Rounds hold numbers in the order of the game's players, so a round is only meaningful with
its game (``kept.KeptGame`` checks the two together). Each check here names the field a person
has to correct, because a refusal must say what to fix and change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cardroom.games import get_game
from cardroom.games.base import OptionsError

GameName = Literal["skyjo", "skip"]
GAMES: tuple[GameName, ...] = ("skyjo", "skip")
SKIP = get_game("skip").keeper
"""Each kept game's arithmetic, from the game itself (``Game.keeper``)."""
SKYJO = get_game("skyjo").keeper
MIN_PLAYERS = 2
MAX_PLAYERS = 8
NAME_LENGTH = 24


class KeeperError(ValueError):
    """An entry the keeper refuses. ``field`` names what to correct (``players``,
    ``end_score``, ``sums.Ann``, ``closer``); ``round`` is the round's number when the entry
    belongs to one. The kept game it was aimed at is unchanged."""

    def __init__(self, field: str, message: str, *, round: int | None = None) -> None:
        where = f"round {round}, {field}" if round is not None else field
        super().__init__(f"{where}: {message}")
        self.field = field
        self.message = message
        self.round = round


LOWEST_SUM: int = SKYJO.lowest_sum  # S6.1: -17
HIGHEST_SUM: int = SKYJO.highest_sum  # 140


@dataclass(frozen=True, slots=True)
class SkyjoSettings:
    """S5.1: the total that ends the game (100 by default, 10 to 1000 as at a table)."""

    end_score: int = 100

    def check(self, players: int) -> None:
        try:
            SKYJO.check_options(players, self.end_score)
        except OptionsError as error:
            raise KeeperError("end_score", str(error)) from None


@dataclass(frozen=True, slots=True)
class SkipSettings:
    """R6.3's match target (None: a single round), the stock size dealt (None: R3.2's default
    for the number of players), and the teams of two (R2.3) by name, none for solo play."""

    match_target: int | None = 500
    stock_size: int | None = None
    teams: tuple[tuple[str, ...], ...] = ()

    def stock(self, players: int) -> int:
        return self.stock_size if self.stock_size is not None else SKIP.default_stock_size(players)

    def check(self, players: Sequence[str]) -> None:
        n = len(players)
        # A table's own checks, with the extra deck (R2.2) allowed: whatever deck was used.
        for field, value in (("match_target", self.match_target), ("stock_size", self.stock_size)):
            checked: dict[str, Any] = {field: value}  # an int or None, as Options takes it
            try:
                SKIP.check_options(n, **checked)
            except OptionsError as error:
                raise KeeperError(field, str(error)) from None
        if self.teams:
            _check_teams(self.teams, players)

    def partner(self, players: Sequence[str], seat: int) -> int | None:
        for team in self.teams:
            if players[seat] in team:
                other = team[1] if team[0] == players[seat] else team[0]
                return players.index(other)
        return None


def _check_teams(teams: Sequence[Sequence[str]], players: Sequence[str]) -> None:
    if len(players) not in (4, 6, 8):
        raise KeeperError(
            "teams", f"teams of two need 4, 6 or 8 players, not {len(players)} (R2.3)"
        )
    seen: list[str] = []
    for team in teams:
        if len(team) != 2:
            raise KeeperError("teams", f"a team is two players, not {len(team)} (R2.3)")
        for name in team:
            if name not in players:
                raise KeeperError("teams", f"{name!r} is not one of the players")
            if name in seen:
                raise KeeperError("teams", f"{name} is in two teams")
            seen.append(name)
    alone = [name for name in players if name not in seen]
    if alone:
        raise KeeperError("teams", f"everyone plays in a team of two; {', '.join(alone)} has none")


Settings = SkyjoSettings | SkipSettings


@dataclass(frozen=True, slots=True)
class SkyjoRound:
    """S6.1: every player's un-doubled sum, in the order of the players, and who closed.
    The keeper doubles; an entry never does."""

    sums: tuple[int, ...]
    closer: int

    def check(self, players: Sequence[str]) -> None:
        if len(self.sums) != len(players):
            raise KeeperError("sums", f"one sum for each of the {len(players)} players")
        for name, value in zip(players, self.sums, strict=True):
            if not _whole(value) or not LOWEST_SUM <= value <= HIGHEST_SUM:
                raise KeeperError(
                    f"sums.{name}",
                    f"{value!r} is not a sum twelve cards can make once identical columns are "
                    f"removed: a whole number from {LOWEST_SUM} to {HIGHEST_SUM} (S6.1)",
                )
        if not _whole(self.closer) or not 0 <= self.closer < len(players):
            raise KeeperError("closer", "the closer must be one of the players (S6.1)")


@dataclass(frozen=True, slots=True)
class SkipRound:
    """S6.3: who went out (None: nobody won the round, R6.4) and the cards left in every
    stock, in the order of the players; the winning side's stocks are empty (R6.1), 0."""

    went_out: int | None
    stocks: tuple[int, ...]

    def check(self, players: Sequence[str], settings: SkipSettings) -> None:
        n = len(players)
        if self.went_out is not None and (not _whole(self.went_out) or not 0 <= self.went_out < n):
            raise KeeperError("went_out", "who went out must be one of the players (S6.3)")
        if len(self.stocks) != n:
            raise KeeperError("stocks", f"one stock count for each of the {n} players")
        stock = settings.stock(n)
        winners = self.winners(players, settings)
        for seat, (name, left) in enumerate(zip(players, self.stocks, strict=True)):
            if not _whole(left) or not 0 <= left <= stock:
                raise KeeperError(
                    f"stocks.{name}",
                    f"{left!r} cards: a stock holds 0 to {stock} cards (R3.2, S6.3)",
                )
            if seat in winners and left:
                raise KeeperError(
                    f"stocks.{name}",
                    f"{name} is on the side that went out, so their stock is empty (R6.1)",
                )

    def winners(self, players: Sequence[str], settings: SkipSettings) -> tuple[int, ...]:
        """The seats that won the round: the one who went out and their partner (R6.1)."""
        if self.went_out is None:
            return ()
        partner = settings.partner(players, self.went_out)
        return tuple(sorted({self.went_out} | ({partner} if partner is not None else set())))


Round = SkyjoRound | SkipRound


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
