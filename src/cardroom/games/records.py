"""What every game's records share: the moves list with its position checks, the match's
result, and the typed structs a record's shape is checked against before it is replayed
(``docs/notation.md``). Each game adds its own round fields and its own rules of replay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from .base import FORFEIT, IllegalMove, ReplayError, Step

FORMAT = "cardroom-record"


class MoveEntry(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    action: dict[str, Any]
    check: str | None = None


class MatchResultEntry(msgspec.Struct):
    finished: bool | None = None
    winners: list[int] | None = None
    scores: list[int] | None = None
    forfeit: int | None = None


def check_shape(record: Any, shape: type[msgspec.Struct]) -> str | None:
    """What is wrong with ``record`` against ``shape``, in one line naming the field
    (``$.rounds[0].moves[3].seat``), or None if nothing is."""
    try:
        msgspec.convert(record, shape, strict=True)
    except msgspec.ValidationError as error:
        return str(error)
    return None


def moves_json(
    moves: Sequence[tuple[int, Any]], checks: Sequence[str], to_json: Callable[[Any], Any]
) -> list[dict[str, Any]]:
    """A round's moves as recorded: seat, action and, when kept, the position check after it."""
    out = []
    for index, (seat, action) in enumerate(moves):
        move: dict[str, Any] = {"seat": seat, "action": to_json(action)}
        if index < len(checks):
            move["check"] = checks[index]
        out.append(move)
    return out


def match_result_json(match: Any) -> dict[str, Any]:
    result = {
        "finished": match.over,
        "winners": list(match.winners) if match.winners is not None else None,
        "scores": list(match.scores),
    }
    if getattr(match, "forfeited", None) is not None:
        result["forfeit"] = match.forfeited  # the seat that forfeited (games.base.FORFEIT)
    return result


def check_match_result(recorded: dict[str, Any], match: Any, winners_rule: str) -> None:
    """The record's final scores and winners are the replay's, or ``ReplayError``. A
    recorded forfeit (``"forfeit": seat``) is the match's last step, applied here."""
    forfeit = recorded.get("forfeit")
    if forfeit is not None:
        try:
            match.apply_step(Step(FORFEIT, forfeit))
        except IllegalMove as error:
            raise ReplayError(f"the record's forfeit is illegal: {error}") from None
    if recorded.get("scores") is not None and recorded["scores"] != match.scores:
        raise ReplayError(
            f"the record's scores {recorded['scores']} differ from the replay's {match.scores}"
        )
    winners = list(match.winners) if match.winners is not None else None
    if "winners" in recorded and recorded["winners"] != winners:
        raise ReplayError(
            f"the record's winners {recorded['winners']} differ from the replay's {winners} "
            f"({winners_rule})"
        )
