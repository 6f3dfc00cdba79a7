"""Closing a table by order of a moderator: an audit entry that the process running the table
carries out (it tells everyone there why, then closes the table; an unfinished match is
abandoned, never rated). Nothing to lift: a closed table stays closed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select

from cardroom.moderation import audit
from cardroom.moderation.sanctions import check_reason
from cardroom.moderation.staff import MODERATOR, Actor, not_found, require
from cardroom.store.models import Table


def close_order(
    conn: Connection, actor: Actor, table_id: str, reason: str, now: datetime
) -> dict[str, Any]:
    """The order to close the open table ``table_id`` (404 for one unknown or closed)."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    status = conn.scalar(select(Table.status).where(Table.id == table_id))
    if status is None or status == "closed":
        raise not_found(f"no open table {table_id!r}")
    entry = audit.record(conn, actor, "close_table", table_id, reason, now)
    return {"table": table_id, "reason": reason, "audit": entry}
