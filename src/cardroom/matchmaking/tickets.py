"""A ticket: one player (or two partners, for teams) waiting in one queue."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MODES = ("2p", "3p+", "teams")
SEATS = {"2p": (2, 2), "3p+": (3, 4), "teams": (4, 4)}  # (fewest, most) players of a match


@dataclass(frozen=True, slots=True)
class Ticket:
    """Who waits, where (``game``, ``mode``), their rating (partners: the mean), since when (the
    injected clock's seconds), and after how long they would rather play a bot (None: never)."""

    id: str
    game: str
    mode: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    rating: float
    since: float
    bot_after: float | None = None
    marks: tuple[str, ...] = ()
    """Where its players were seen lately (keyed hashes of addresses and devices, the
    ladder's sightings): two tickets sharing a mark are never matched together."""

    @property
    def queue(self) -> str:
        return f"{self.game}:{self.mode}"

    def linked(self, other: Ticket) -> bool:
        """Whether the two tickets' players were seen on one address or device."""
        return not set(self.marks).isdisjoint(other.marks)

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)

    def to_json(self) -> str:
        return json.dumps(
            {
                "id": self.id,
                "game": self.game,
                "mode": self.mode,
                "players": list(self.players),
                "names": list(self.names),
                "rating": self.rating,
                "since": self.since,
                "bot_after": self.bot_after,
                "marks": list(self.marks),
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Ticket:
        data: dict[str, Any] = json.loads(text)
        return cls(
            id=data["id"],
            game=data["game"],
            mode=data["mode"],
            players=tuple(data["players"]),
            names=tuple(data["names"]),
            rating=float(data["rating"]),
            since=float(data["since"]),
            bot_after=data.get("bot_after"),
            marks=tuple(data.get("marks") or ()),
        )


@dataclass(frozen=True, slots=True)
class Pairing:
    """Tickets matched together, and their players in seat order (for teams: partners
    opposite, seats ``i`` and ``i + 2``, R2.3)."""

    game: str
    mode: str
    tickets: tuple[Ticket, ...]
    seats: tuple[str, ...]

    @property
    def gap(self) -> float:
        """The spread of the matched ratings: what the bench averages."""
        ratings = [t.rating for t in self.tickets]
        return max(ratings) - min(ratings)

    def name_of(self, player: str) -> str:
        for t in self.tickets:
            for p, n in zip(t.players, t.names, strict=True):
                if p == player:
                    return n
        return player
