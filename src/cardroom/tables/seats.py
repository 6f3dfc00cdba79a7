"""Seats at a table: who sits where, as stored and as the protocol's ``Table`` shows it, and
the checks on changing them (the owner's powers, free seats, known bot levels)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.bots.levels import Level
from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity


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


class Seating:
    """A table's seats and who may change them: the owner, players, the evicted."""

    def __init__(
        self,
        rows: list[dict[str, Any]],
        owner: Identity,
        banned: set[str],
        levels: Mapping[str, Level],
    ) -> None:
        self.seats = [SeatState.from_row(row) for row in rows]
        self.owner = owner
        self.banned = banned
        self.levels = levels

    @property
    def capacity(self) -> int:
        return len(self.seats)

    def seat_of(self, player_id: str) -> SeatState | None:
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        return None

    def occupied(self) -> list[int]:
        return [s.number for s in self.seats if not s.free]

    def rows(self) -> list[dict[str, Any]]:
        return [seat.to_row() for seat in self.seats]

    def to_json(self, connected: set[str], autopilot: set[int]) -> list[dict[str, Any]]:
        return [
            s.to_json(s.player_id in connected, s.number in autopilot, self.levels)
            for s in self.seats
        ]

    def require_owner(self, who: Identity) -> None:
        if who.id != self.owner.id:
            raise Refusal(403, "forbidden", "only the table's owner may do that")

    def free_seat(self, number: Any) -> SeatState:
        """Seat ``number`` if it is free, or the first free seat (``None``); else refused."""
        if number is None:
            for seat in self.seats:
                if seat.free:
                    return seat
            raise Refusal(409, "conflict", "every seat at this table is taken")
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal(400, "bad_request", "a seat is a number")
        if not 0 <= number < self.capacity:
            raise Refusal(400, "bad_request", f"seats are numbered 0 to {self.capacity - 1}")
        seat = self.seats[number]
        if not seat.free:
            raise Refusal(409, "conflict", f"seat {number} is taken")
        return seat

    def check_level(self, level: Any) -> str:
        """A level people may seat at this table's game."""
        if not isinstance(level, str) or level not in self.levels:
            raise Refusal(
                400,
                "bad_request",
                f"unknown level {level!r}; choose one of {', '.join(self.levels)}",
            )
        return level

    def seated_player(self, number: Any) -> SeatState:
        """The seat of the player at ``number`` (to evict); refused if nobody sits there."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal(400, "bad_request", "say which seat to evict")
        if not 0 <= number < self.capacity or self.seats[number].player_id is None:
            raise Refusal(404, "not_found", f"nobody sits at seat {number}")
        return self.seats[number]
