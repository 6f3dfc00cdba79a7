"""The game record's shape as typed structs (``docs/notation.md``): a record is checked
against them before a single move is replayed, so a malformed one is refused with the field
named (``$.rounds[0].moves[3].seat``) instead of failing somewhere in the replay."""

from __future__ import annotations

from typing import Any

import msgspec

from ..records import MatchResultEntry, MoveEntry
from ..records import check_shape as check_record


class RoundResultEntry(msgspec.Struct):
    winners: list[int]
    points: list[int]
    stalemate: bool
    stock_left: list[int]


class RoundEntry(msgspec.Struct):
    number: int
    moves: list[MoveEntry]
    dealer: int | None = None
    teams: bool | None = None
    result: RoundResultEntry | None = None


class RecordEntry(msgspec.Struct):
    """A whole record. Unknown top-level fields are let through (a later version may add
    some); a seed is required, since the deals come from it."""

    format: str
    version: int
    game: str
    options: dict[str, Any]
    seed: str | int
    rounds: list[RoundEntry]
    result: MatchResultEntry
    seats: list[dict[str, Any]] = []
    first_dealer: int | None = None


def check_shape(record: Any) -> str | None:
    """What is wrong with the record's shape, in one line, or None if nothing is."""
    return check_record(record, RecordEntry)
