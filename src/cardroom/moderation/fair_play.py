"""Voiding a match and marking an account as cheating, as staff actions: the league recomputes
(``league/voiding.py``); this adds who may, the refusals staff share, and the audit entry.

A moderator voids or restores a match and marks or clears an account; as with sanctions,
nobody marks themself or someone whose role is not below their own. The audit entry and the
recomputed ratings are one transaction: a void that is not in the log did not happen.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from cardroom.league import voiding
from cardroom.moderation import audit
from cardroom.moderation.sanctions import check_reason
from cardroom.moderation.staff import (
    MODERATOR,
    Actor,
    ModerationError,
    may_act_on,
    name_of,
    require,
    role_of,
)

MATCH_PREFIX = "match:"  # an audit entry's target for a match (a player's is their id)


def _league(work: Callable[[], voiding.VoidOutcome]) -> voiding.VoidOutcome:
    """The league's refusals as the console's: the same status and words; an unknown match or
    account is ``not_found``, as every other console route says it."""
    try:
        return work()
    except voiding.FairPlayError as error:
        code = "not_found" if error.status == 404 else error.code
        raise ModerationError(error.status, code, str(error)) from None


def _summary(outcome: voiding.VoidOutcome) -> dict[str, Any]:
    """What the audit entry keeps of a recomputation: enough to see its reach, not every
    rating (those are in the rating history)."""
    data = outcome.to_json()
    return {
        "matches": data.get("matches", []),
        "replayed": len(data.get("replayed", [])),
        "ratings_moved": len(data.get("changes", [])),
    }


def void(conn: Connection, actor: Actor, match_id: str, reason: str, now: datetime) -> Any:
    """Void a counted match: its result counts for nobody; ratings recomputed from it on."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    outcome = _league(lambda: voiding.void_match(conn, match_id, reason=reason, now=now))
    summary = _summary(outcome)
    audit.record(conn, actor, "void_match", MATCH_PREFIX + match_id, reason, now, summary)
    return {"match": match_id, "voided": True, **summary}


def unvoid(conn: Connection, actor: Actor, match_id: str, reason: str, now: datetime) -> Any:
    """Lift a moderator's void: the match counts again, ratings recomputed from it on."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    outcome = _league(lambda: voiding.unvoid_match(conn, match_id, now=now))
    summary = _summary(outcome)
    audit.record(conn, actor, "unvoid_match", MATCH_PREFIX + match_id, reason, now, summary)
    return {"match": match_id, "voided": False, **summary}


def _target(conn: Connection, actor: Actor, player_id: str) -> None:
    name_of(conn, player_id)  # 404 for nobody
    may_act_on(actor, player_id, role_of(conn, player_id))


def mark(conn: Connection, actor: Actor, player_id: str, reason: str, now: datetime) -> Any:
    """Mark an account as cheating: every result of it void, hidden from every board."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    _target(conn, actor, player_id)
    outcome = _league(lambda: voiding.mark_cheater(conn, player_id, reason=reason, now=now))
    summary = _summary(outcome)
    audit.record(conn, actor, "mark_cheater", player_id, reason, now, summary)
    return {"player": player_id, "marked": True, **summary}


def clear(conn: Connection, actor: Actor, player_id: str, reason: str, now: datetime) -> Any:
    """Clear a cheat mark: the account's results count again (a moderator's own voids stay)."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    _target(conn, actor, player_id)
    outcome = _league(lambda: voiding.clear_cheater(conn, player_id, now=now))
    summary = _summary(outcome)
    audit.record(conn, actor, "clear_cheater", player_id, reason, now, summary)
    return {"player": player_id, "marked": False, **summary}
