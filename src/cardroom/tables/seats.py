"""Seats at a table: who sits where, as stored and as the protocol's ``Table`` shows it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.bots.levels import Level


@dataclass(slots=True)
class SeatState:
    """Who sits in one seat: a player (maybe away, R2.4), a bot level, or nobody."""

    number: int
    player_id: str | None = None
    player_name: str | None = None
    bot_level: str | None = None
    away: bool = False

    @property
    def free(self) -> bool:
        return self.player_id is None and self.bot_level is None

    def to_row(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player_id": self.player_id,
            "bot_level": self.bot_level,
            "away": self.away,
        }

    def to_json(
        self, connected: bool, autopilot: bool, levels: Mapping[str, Level]
    ) -> dict[str, Any]:
        bot = None
        if self.bot_level is not None:
            level = levels.get(self.bot_level)
            bot = {"level": self.bot_level, "name": level.name if level else self.bot_level}
        player = None
        if self.player_id is not None:
            player = {"id": self.player_id, "name": self.player_name}
        return {
            "index": self.number,
            "player": player,
            "bot": bot,
            "connected": connected or self.bot_level is not None,
            "away": self.away,
            "autopilot": autopilot,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SeatState:
        return cls(
            number=row["number"],
            player_id=row["player_id"],
            player_name=row.get("player_name"),
            bot_level=row["bot_level"],
            away=bool(row["away"]),
        )


def match_seat_json(seat: SeatState, levels: Mapping[str, Level]) -> dict[str, Any]:
    """Who played a match seat, as stored with the match and written into its record."""
    if seat.bot_level is not None:
        level = levels.get(seat.bot_level)
        return {
            "table_seat": seat.number,
            "name": f"{level.name if level else seat.bot_level} bot",
            "player_id": None,
            "bot": seat.bot_level,
        }
    return {
        "table_seat": seat.number,
        "name": seat.player_name,
        "player_id": seat.player_id,
        "bot": None,
    }
