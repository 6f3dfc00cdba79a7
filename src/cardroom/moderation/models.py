"""The moderation tables: reports, sanctions, and the append-only audit log.

Roles live with the accounts (``league_accounts.role``): only a claimed name can hold one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CursorResult, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.models import Base

MAX_TEXT = 500  # characters of a reason, a note or an outcome


class Report(Base):
    """One player's report of another, with the context the server quoted (chat lines as the
    table kept them, never as the client said they were), waiting for a moderator."""

    __tablename__ = "moderation_reports"
    __table_args__ = (
        Index("ix_moderation_reports_status", "status", "created_at"),
        Index("ix_moderation_reports_target", "target_id", "created_at"),
        Index("ix_moderation_reports_reporter", "reporter_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    target_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(String(16))  # chat, name, stalling, cheating, other
    note: Mapped[str | None] = mapped_column(String(MAX_TEXT))
    table_id: Mapped[str | None] = mapped_column(String(40))
    match_id: Mapped[str | None] = mapped_column(String(40))
    context: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(12), default="open")  # open, handled, dismissed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    handled_by: Mapped[str | None] = mapped_column(String(40))
    handled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str | None] = mapped_column(String(MAX_TEXT))


class Sanction(Base):
    """A sanction on a player: what, why, by whom, until when (None: until lifted), and its
    lifting. Rows are never deleted: a lifted or expired sanction stays the player's history."""

    __tablename__ = "moderation_sanctions"
    __table_args__ = (Index("ix_moderation_sanctions_player", "player_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))  # warn, mute, rank_ban, ban, rename
    reason: Mapped[str] = mapped_column(String(MAX_TEXT))
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_by: Mapped[str | None] = mapped_column(String(40))  # None: the command line
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    lifted_by: Mapped[str | None] = mapped_column(String(40))
    lift_reason: Mapped[str | None] = mapped_column(String(MAX_TEXT))


class AuditEntry(Base):
    """Who did what to whom, why and when: one row per moderator's or admin's action,
    appended and never changed (the migration adds triggers that refuse an UPDATE or a
    DELETE). Every process reads new rows in order to carry out their effects (closing a
    banned player's sockets, forgetting cached standings), so the log is also the bus's truth."""

    __tablename__ = "moderation_audit"
    __table_args__ = (
        Index("ix_moderation_audit_target", "target"),
        Index("ix_moderation_audit_actor", "actor_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor_id: Mapped[str | None] = mapped_column(String(40))  # None: the command line
    actor_name: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(24))
    target: Mapped[str] = mapped_column(String(48))  # a player id, a table id, or "report:12"
    reason: Mapped[str] = mapped_column(String(MAX_TEXT))
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


def inserted_id(result: CursorResult[Any]) -> int:
    """The id the database gave the row just inserted (its autoincrement key)."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the insert gave no primary key")
    return int(key[0])
