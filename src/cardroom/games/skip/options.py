"""House rules: one frozen, validated value per table (R2-R7).

Options are chosen before a match starts and never change during it. Anything a table owner can
set lives here; the server enforces the timing options (turn timer), the engine the rest.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from ..base import OptionsError
from .cards import UNIT_SIZE, deck_units
from .deal import SetDeal

HAND_SIZE = 5
MAX_PLAYERS = 8
MIN_DRAW_PER_PLAYER = 5  # R3.2: a stock size must leave this many draw cards per player

STOCK_PRESETS: dict[str, int] = {"short": 10, "low": 10, "medium": 20, "high": 30}
MATCH_TARGETS: tuple[int | None, ...] = (None, 25, 200, 500, 800)

Starter = Literal["dealer_left", "highest_stock"]
Direction = Literal["clockwise", "counterclockwise"]


def default_stock_size(players: int) -> int:
    """R3.2: 30 cards with up to 4 players, 20 with 5 or more."""
    return 30 if players <= 4 else 20


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that defines a Skip table's rules.

    ``stock_size`` None means the default for the player count (R3.2). ``match_target`` None
    means a single round (R6.3). ``turn_timer`` is in seconds, None for no timer (R7.3).
    """

    players: int = 2
    stock_size: int | None = None
    extra_deck: bool = False
    teams: bool = False
    team_discards: bool = False
    starter: Starter = "dealer_left"
    direction: Direction = "clockwise"
    match_target: int | None = 500
    no_wild_discards: bool = False
    turn_timer: int | None = None
    assist: bool = False
    hints: bool = True
    deal: SetDeal | None = None
    """A set deal, for tests (``deal.py``): never ranked, refused by tables unless allowed."""

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise OptionsError("players must be a whole number")
        if not 1 <= self.players <= MAX_PLAYERS:
            raise OptionsError(
                f"a table seats 1 to {MAX_PLAYERS} players, not {self.players} (R2.1)"
            )
        if self.teams and self.players not in (4, 6, 8):
            raise OptionsError(f"teams of two need 4, 6 or 8 players, not {self.players} (R2.3)")
        if self.team_discards and not self.teams:
            raise OptionsError("team discards only exist in team play (R4.4)")
        for name in ("extra_deck", "teams", "team_discards", "no_wild_discards", "assist", "hints"):
            if type(getattr(self, name)) is not bool:
                raise OptionsError(f"{name} is true or false, not {getattr(self, name)!r}")
        if self.starter not in ("dealer_left", "highest_stock"):
            raise OptionsError(f"starter is 'dealer_left' or 'highest_stock', not {self.starter!r}")
        if self.direction not in ("clockwise", "counterclockwise"):
            raise OptionsError(
                f"direction is 'clockwise' or 'counterclockwise', not {self.direction!r}"
            )
        if self.match_target not in MATCH_TARGETS or type(self.match_target) not in (
            int,
            type(None),
        ):
            raise OptionsError(
                "match target is single round (null), 25, 200, 500 or 800, "
                f"not {self.match_target!r} (R6.3)"
            )
        if self.turn_timer is not None and (
            isinstance(self.turn_timer, bool)
            or not isinstance(self.turn_timer, int)
            or not 5 <= self.turn_timer <= 3600
        ):
            raise OptionsError("the turn timer is off (null) or 5 to 3600 seconds (R7.3)")
        stock = self.stock
        if isinstance(stock, bool) or not isinstance(stock, int) or stock < 1:
            raise OptionsError(f"a stock holds at least 1 card, not {stock!r} (R3.2)")
        left = self.deck_size - stock * self.players
        if left < MIN_DRAW_PER_PLAYER * self.players:
            raise OptionsError(
                f"a stock of {stock} for {self.players} players leaves {max(left, 0)} cards "
                f"to draw from a deck of {self.deck_size}; at least "
                f"{MIN_DRAW_PER_PLAYER * self.players} are needed (R3.2)"
                + ("" if self.extra_deck else "; the extra deck adds 54 cards (R2.2)")
            )
        if self.deal is not None:
            deal = SetDeal.from_json(self.deal, self.players, stock, self.extra_deck)
            object.__setattr__(self, "deal", deal)

    @property
    def stock(self) -> int:
        """The stock size actually dealt."""
        return self.stock_size if self.stock_size is not None else default_stock_size(self.players)

    @property
    def deck_size(self) -> int:
        return deck_units(self.players, self.extra_deck) * UNIT_SIZE

    @property
    def ranked_standard(self) -> bool:
        """True for the standard rules with assist off (R7.4): the only tables that may be
        ranked. A turn timer only paces the game, so a ranked table may set one; hints are
        never given at a ranked table, so turning them off changes nothing there (R7.6)."""
        standard = Options(
            players=self.players, teams=self.teams, turn_timer=self.turn_timer, hints=self.hints
        )
        return self == standard

    def replace(self, **changes: Any) -> Options:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The options' JSON form; a set deal only when there is one."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        deal = data.pop("deal")
        if deal is not None:
            data["deal"] = deal.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        """Build options from their JSON form; ``stock`` may name a preset ("low", "short"...)."""
        if not isinstance(data, dict):
            raise OptionsError("options must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        values = dict(data)
        if "stock" in values:
            preset = values.pop("stock")
            if isinstance(preset, str):
                if preset not in STOCK_PRESETS:
                    raise OptionsError(
                        f"unknown stock preset {preset!r}; choose one of {', '.join(STOCK_PRESETS)}"
                    )
                preset = STOCK_PRESETS[preset]
            values["stock_size"] = preset
        if values.get("match_target") in ("single", 0):
            values["match_target"] = None
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionsError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**values)

    @classmethod
    def parse_pairs(cls, pairs: list[str], **base: Any) -> Options:
        """Options from ``key=value`` strings, as the CLI takes them (``stock=low``)."""
        data: dict[str, Any] = dict(base)
        for pair in pairs:
            if "=" not in pair:
                raise OptionsError(f"an option is written key=value, not {pair!r}")
            key, raw = pair.split("=", 1)
            data[key.strip().replace("-", "_")] = _parse_scalar(raw.strip())
        return cls.from_json(data)


def _parse_scalar(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null", "single"):
        return None
    try:
        return int(raw)
    except ValueError:
        return raw
