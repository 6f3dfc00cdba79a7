"""The audit log: every moderator's and admin's action, appended, read, never changed.

There is deliberately no function here to update or delete a row, and the database refuses
both (migration ``0011_moderation``'s triggers).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select

from cardroom.league.periods import as_utc
from cardroom.moderation.models import MAX_TEXT, AuditEntry, inserted_id
from cardroom.moderation.staff import Actor

MAX_PAGE = 200


def record(
    conn: Connection,
    actor: Actor,
    action: str,
    target: str,
    reason: str,
    now: datetime,
    details: dict[str, Any] | None = None,
) -> int:
    """Append one entry; its id (ids only grow: processes read the log from their last id)."""
    result = conn.execute(
        insert(AuditEntry).values(
            at=now,
            actor_id=actor.id,
            actor_name=actor.name[:64],
            action=action,
            target=target,
            reason=reason[:MAX_TEXT],
            details=details or {},
        )
    )
    return inserted_id(result)


def entry_json(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "at": as_utc(row.at).isoformat(),
        "actor": {"id": row.actor_id, "name": row.actor_name},
        "action": row.action,
        "target": row.target,
        "reason": row.reason,
        "details": row.details or {},
    }


def entries(
    conn: Connection,
    *,
    before: int | None = None,
    limit: int = 50,
    target: str | None = None,
) -> list[dict[str, Any]]:
    """The newest entries first (``before`` an id: the page after it), optionally about one
    target (a player id, a table id, ``report:12``)."""
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(max(1, min(limit, MAX_PAGE)))
    if before is not None:
        query = query.where(AuditEntry.id < before)
    if target is not None:
        query = query.where(AuditEntry.target == target)
    return [entry_json(row) for row in conn.execute(query)]


def since(conn: Connection, last: int, limit: int = 500) -> list[dict[str, Any]]:
    """Entries after id ``last``, oldest first: what a process has still to carry out."""
    query = (
        select(AuditEntry).where(AuditEntry.id > last).order_by(AuditEntry.id.asc()).limit(limit)
    )
    return [entry_json(row) for row in conn.execute(query)]


def last_id(conn: Connection) -> int:
    return int(conn.scalar(select(func.max(AuditEntry.id))) or 0)
