"""A kept game: a game played with physical cards whose scores the keeper adds up (S6).

``KeptGame`` is an immutable value that is valid by construction: its players, settings and
rounds are checked together, and no round follows the end of the game. Every operation
returns a new value or raises ``KeeperError`` naming the field, so a refused entry changes
nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .sheet import Sheet, score
from .values import (
    GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME_LENGTH,
    GameName,
    KeeperError,
    Round,
    Settings,
    SkipRound,
    SkipSettings,
    SkyjoRound,
    SkyjoSettings,
)


@dataclass(frozen=True, slots=True)
class KeptGame:
    """The players in table order, the game's settings, and the rounds entered so far."""

    players: tuple[str, ...]
    settings: Settings
    rounds: tuple[Round, ...] = ()
    sheet: Sheet = field(init=False, repr=False, compare=False)
    """What the rounds add up to: totals, leader, the end and the winners."""

    def __post_init__(self) -> None:
        _check_players(self.players)
        if isinstance(self.settings, SkyjoSettings):
            self.settings.check(len(self.players))
            kind: type = SkyjoRound
        elif isinstance(self.settings, SkipSettings):
            self.settings.check(self.players)
            kind = SkipRound
        else:
            raise KeeperError("game", f"a kept game is one of {', '.join(GAMES)}")
        for number, entry in enumerate(self.rounds, start=1):
            if not isinstance(entry, kind):
                raise KeeperError("round", f"not a {self.game} round", round=number)
            try:
                if isinstance(entry, SkipRound):
                    assert isinstance(self.settings, SkipSettings)
                    entry.check(self.players, self.settings)
                else:
                    entry.check(self.players)
            except KeeperError as error:
                raise KeeperError(error.field, error.message, round=number) from None
        sheet = score(self.players, self.settings, self.rounds)
        if sheet.ended_at is not None and sheet.ended_at < len(self.rounds):
            raise KeeperError(
                "round",
                f"the game ended at round {sheet.ended_at} ({_end_rule(self.game)}): "
                "no round follows the end",
                round=sheet.ended_at + 1,
            )
        object.__setattr__(self, "sheet", sheet)

    @property
    def game(self) -> GameName:
        return "skyjo" if isinstance(self.settings, SkyjoSettings) else "skip"

    @property
    def over(self) -> bool:
        return self.sheet.over

    # -- entries ----------------------------------------------------------------------------

    def seat(self, name: object, field: str) -> int:
        """The position of a player given by name; ``field`` is what to name on a refusal."""
        if isinstance(name, str) and name.strip() in self.players:
            return self.players.index(name.strip())
        raise KeeperError(field, f"{name!r} is not one of the players ({', '.join(self.players)})")

    def skyjo_round(self, sums: Mapping[str, int], closer: str) -> SkyjoRound:
        """A Skyjo round from every player's un-doubled sum by name, and the closer's name."""
        if self.game != "skyjo":
            raise KeeperError("round", "this is a Skip game: enter who went out and the stocks")
        given = self._by_name(sums, "sums")
        self._require(given, "sums", (), "this player's sum is missing (S6.1)")
        return SkyjoRound(self._in_order(given), self.seat(closer, "closer"))

    def skip_round(self, went_out: str | None, stocks: Mapping[str, int]) -> SkipRound:
        """A Skip round from who went out (None: nobody won, R6.4) and the cards left in the
        other stocks by name; the winning side's stocks are empty and may be left out."""
        if not isinstance(self.settings, SkipSettings):
            raise KeeperError("round", "this is a Skyjo game: enter the sums and the closer")
        out = None if went_out is None else self.seat(went_out, "went_out")
        given = self._by_name(stocks, "stocks")
        winners = SkipRound(out, (0,) * len(self.players)).winners(self.players, self.settings)
        self._require(given, "stocks", winners, "how many cards are left in this stock? (S6.3)")
        return SkipRound(out, self._in_order(given))

    def _by_name(self, values: Mapping[str, int], field: str) -> dict[int, int]:
        if not isinstance(values, Mapping):
            raise KeeperError(field, "give a number for each player, by name")
        return {self.seat(name, field): value for name, value in values.items()}

    def _require(
        self, given: Mapping[int, int], field: str, exempt: Sequence[int], message: str
    ) -> None:
        for seat, name in enumerate(self.players):
            if seat not in given and seat not in exempt:
                raise KeeperError(f"{field}.{name}", message)

    def _in_order(self, given: Mapping[int, int]) -> tuple[int, ...]:
        return tuple(given.get(seat, 0) for seat in range(len(self.players)))

    # -- operations -------------------------------------------------------------------------

    def add_round(self, entry: Round) -> KeptGame:
        """The next round (S6.1, S6.3); refused once the game is over (S6.2)."""
        if self.over:
            sheet = self.sheet
            assert sheet.winners is not None
            raise KeeperError(
                "round",
                f"the game ended at round {sheet.ended_at} ({_end_rule(self.game)}), won by "
                f"{sheet.names(sheet.winners)}: correct or undo a round to reopen it (S6.4)",
                round=len(self.rounds) + 1,
            )
        return self._with(rounds=(*self.rounds, entry))

    def edit_round(self, number: int, entry: Round) -> KeptGame:
        """S6.4: correct round ``number`` (from 1); the totals and the end follow. An edit that
        would end the game before a round already entered after it is refused; one that
        un-ends the game reopens it for entries."""
        if (
            isinstance(number, bool)
            or not isinstance(number, int)
            or not 1 <= number <= len(self.rounds)
        ):
            raise KeeperError("round", f"there is no round {number!r} to correct")
        rounds = (*self.rounds[: number - 1], entry, *self.rounds[number:])
        try:
            return self._with(rounds=rounds)
        except KeeperError as error:
            if error.field != "round" or error.round is None or error.round <= number:
                raise KeeperError(error.field, error.message, round=number) from None
            raise KeeperError(
                "round",
                f"this correction would end the game at round {error.round - 1}, before "
                f"round {error.round}, which is already entered: undo the later rounds first "
                "(S6.4)",
                round=number,
            ) from None

    def undo(self) -> KeptGame:
        """Take back the last round entered (S6.4); a game it ended is open again."""
        if not self.rounds:
            raise KeeperError("round", "there is no round to undo")
        return self._with(rounds=self.rounds[:-1])

    def reorder(self, players: Sequence[str]) -> KeptGame:
        """The same players in another order (the order at the table); rounds follow."""
        order = [p.strip() if isinstance(p, str) else p for p in players]
        if sorted(order, key=str) != sorted(self.players):
            raise KeeperError("players", "a new order lists exactly the same players, once each")
        moved = [self.players.index(name) for name in order]  # new seat -> old seat
        back = {old: new for new, old in enumerate(moved)}
        rounds: list[Round] = []
        for entry in self.rounds:
            if isinstance(entry, SkyjoRound):
                rounds.append(SkyjoRound(tuple(entry.sums[o] for o in moved), back[entry.closer]))
            else:
                out = None if entry.went_out is None else back[entry.went_out]
                rounds.append(SkipRound(out, tuple(entry.stocks[o] for o in moved)))
        return self._with(players=tuple(order), rounds=tuple(rounds))

    def _with(self, **changes: object) -> KeptGame:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def new_game(game: str, players: Sequence[str], settings: Settings | None = None) -> KeptGame:
    """A kept game with no rounds yet: Skyjo or Skip, 2 to 8 players in table order."""
    if game not in GAMES:
        raise KeeperError("game", f"a kept game is one of {', '.join(GAMES)}, not {game!r}")
    if settings is None:
        settings = SkyjoSettings() if game == "skyjo" else SkipSettings()
    elif (game == "skyjo") != isinstance(settings, SkyjoSettings):
        raise KeeperError("game", f"these settings are not {game}'s")
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise KeeperError("players", "a list of names")
    names = tuple(p.strip() if isinstance(p, str) else p for p in players)
    return KeptGame(names, settings)  # type: ignore[arg-type]


def _check_players(players: Sequence[object]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise KeeperError(
            "players", f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)} (S1.2, R2.1)"
        )
    seen: dict[str, str] = {}
    for name in players:
        if not isinstance(name, str) or not name or name != name.strip():
            raise KeeperError("players", f"a name is a non-empty text, not {name!r}")
        if len(name) > NAME_LENGTH or not name.isprintable():
            raise KeeperError(
                "players", f"{name!r}: a name is at most {NAME_LENGTH} printable characters"
            )
        key = name.casefold()
        if key in seen:
            raise KeeperError("players", f"{name!r} is there twice (as {seen[key]!r})")
        seen[key] = name


def _end_rule(game: GameName) -> str:
    return "S5.1" if game == "skyjo" else "R6.3"
