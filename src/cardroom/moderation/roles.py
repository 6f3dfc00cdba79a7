"""Granting roles: only an admin (or the operator at the command line) makes moderators and
admins, only of claimed accounts, and never changes their own role (no locking oneself out)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select, update

from cardroom.league.models import Account
from cardroom.moderation import audit
from cardroom.moderation.sanctions import check_reason
from cardroom.moderation.staff import (
    ADMIN,
    ROLES,
    Actor,
    ModerationError,
    forbidden,
    name_of,
    require,
)
from cardroom.store.models import Player


def grant(
    conn: Connection, actor: Actor, player_id: str, role: str, reason: str, now: datetime
) -> dict[str, Any]:
    """Give the account ``player_id`` the ``role`` (``player`` takes a role away)."""
    require(actor, ADMIN)
    if role not in ROLES:
        raise ModerationError(400, "bad_request", f"role is one of {', '.join(ROLES)}")
    reason = check_reason(reason)
    name = name_of(conn, player_id)
    if actor.id == player_id:
        raise forbidden("nobody changes their own role (ask another admin)")
    before = conn.scalar(select(Account.role).where(Account.player_id == player_id))
    if before is None:
        raise ModerationError(
            409, "conflict", f"{name} is a guest: only a claimed account holds a role"
        )
    conn.execute(update(Account).where(Account.player_id == player_id).values(role=role))
    audit.record(
        conn, actor, "grant", player_id, reason, now, {"role": role, "before": before, "name": name}
    )
    return {"player": {"id": player_id, "name": name}, "role": role, "before": before}


def staff(conn: Connection) -> list[dict[str, Any]]:
    """The moderators and admins, by name."""
    rows = conn.execute(
        select(Player.id, Player.name, Account.role)
        .join(Account, Account.player_id == Player.id)
        .where(Account.role != "player")
        .order_by(Player.name)
    )
    return [{"id": r.id, "name": r.name, "role": r.role} for r in rows]
