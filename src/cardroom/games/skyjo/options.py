"""House rules of a Skyjo table: one frozen, validated value per match (S1-S5).

The defaults are the published rules. The variants are the ones Skyjo players commonly ask
for, each a named switch: playing without column removal (S3.1), without the closer's
doubling (S4.3), and to another end score (S5.1).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..base import OptionsError
from .deal import SetDeal

MIN_PLAYERS = 2
MAX_PLAYERS = 8
END_SCORES = range(10, 1001)
"""S5.1 [project]: an end score from 10 (a quick game) to 1000; 100 is the standard."""


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that defines a Skyjo table's rules.

    ``end_score``: the game ends after the round in which a total reaches it (S5.1).
    ``column_removal``: three identical face-up cards in a column are removed (S3.1).
    ``closer_doubling``: a closer without the strictly lowest round score has a positive score
    doubled (S4.3). ``turn_timer``: seconds per action, None for no timer. ``hints``: a
    player at a casual table may ask for the next step (never at a ranked one).
    """

    players: int = 2
    end_score: int = 100
    column_removal: bool = True
    closer_doubling: bool = True
    turn_timer: int | None = None
    hints: bool = True
    deal: SetDeal | None = None
    """A set deal, for tests (``deal.py``): never ranked, refused by tables unless allowed."""

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise OptionsError("players must be a whole number")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise OptionsError(
                f"Skyjo seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players} (S1.2)"
            )
        if (
            isinstance(self.end_score, bool)
            or not isinstance(self.end_score, int)
            or self.end_score not in END_SCORES
        ):
            raise OptionsError(
                f"the end score is a whole number from {END_SCORES.start} to "
                f"{END_SCORES.stop - 1}, not {self.end_score!r} (S5.1)"
            )
        for name, rule in (
            ("column_removal", "S3.1"),
            ("closer_doubling", "S4.3"),
            ("hints", "hints"),
        ):
            if type(getattr(self, name)) is not bool:
                raise OptionsError(f"{name} is true or false, not {getattr(self, name)!r} ({rule})")
        if self.turn_timer is not None and (
            isinstance(self.turn_timer, bool)
            or not isinstance(self.turn_timer, int)
            or not 5 <= self.turn_timer <= 3600
        ):
            raise OptionsError("the turn timer is off (null) or 5 to 3600 seconds")
        if self.deal is not None:
            object.__setattr__(self, "deal", SetDeal.from_json(self.deal, self.players))

    @property
    def standard(self) -> bool:
        """The published rules (a turn timer only paces the game; hints are never given at a
        ranked table, so turning them off changes nothing there): the ranked tables."""
        standard = Options(players=self.players, turn_timer=self.turn_timer, hints=self.hints)
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
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise OptionsError("options must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)
