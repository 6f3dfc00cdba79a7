"""The daily deal's table: one row per attempt (``docs/daily.md``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.models import Base, utcnow


class DailyAttempt(Base):
    """An attempt at one game's deal of one day: the person's moves, replayed on demand.

    ``scored_key`` is ``player/game/day`` on the scored attempt and NULL on practice ones: its
    unique index is the one-attempt rule, whichever process or tab asks first. ``seq`` counts
    the moves stored; a move is written only over the ``seq`` it was played on, so two tabs
    cannot both add the next one.
    """

    __tablename__ = "daily_attempts"
    __table_args__ = (Index("ix_daily_board", "game", "day", "scored", "status"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    day: Mapped[str] = mapped_column(String(10))  # YYYY-MM-DD, UTC
    scored: Mapped[bool] = mapped_column(Boolean)
    scored_key: Mapped[str | None] = mapped_column(String(80), unique=True)
    moves: Mapped[str] = mapped_column(Text, default="[]")  # the person's actions, JSON
    seq: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(12), default="playing")  # or finished
    result: Mapped[int | None] = mapped_column(Integer)  # turns or points; NULL: failed
    place: Mapped[int | None] = mapped_column(Integer)
    marks: Mapped[str | None] = mapped_column(String(2000))
    words: Mapped[str | None] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
