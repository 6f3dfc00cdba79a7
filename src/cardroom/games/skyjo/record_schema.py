"""The Skyjo game record's shape as typed structs: checked before a single move is replayed,
so a malformed record is refused with the field named (``$.rounds[0].moves[3].seat``)."""

from __future__ import annotations

from typing import Any

import msgspec

from ..records import MatchResultEntry, MoveEntry
from ..records import check_shape as check_record


class RoundResultEntry(msgspec.Struct):
    closer: int
    sums: list[int]
    points: list[int]
    doubled: bool


class RoundEntry(msgspec.Struct):
    number: int
    moves: list[MoveEntry]
    starter: int | None = None
    result: RoundResultEntry | None = None


class RecordEntry(msgspec.Struct):
    format: str
    version: int
    game: str
    options: dict[str, Any]
    seed: str | int
    rounds: list[RoundEntry]
    result: MatchResultEntry
    seats: list[dict[str, Any]] = []


def check_shape(record: Any) -> str | None:
    """What is wrong with the record's shape, in one line, or None if nothing is."""
    return check_record(record, RecordEntry)
