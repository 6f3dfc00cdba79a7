"""The tables of the database, as SQLAlchemy 2 declarative models.

Designed to grow: accounts, ratings and leaderboards hang off ``players.id``;
a match records who sat where (player or bot level), its options, seed and result, and its
moves replay it exactly (R7.5).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import false

from cardroom.store.move_codec import PackedAction


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A person: a guest with a display name, or an account (``league_accounts``).

    ``token_generation`` goes up when every token issued so far must stop working (a claim, a
    password change, signing out everywhere): a token names the generation it was issued in.
    """

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    token_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)  # en, pl, de, fr


class Table(Base):
    """A place to play: seats, house rules, owner; it outlives its matches (rematches)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), index=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    game: Mapped[str] = mapped_column(String(16), default="skip")
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    abandon_after: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16), index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    match_id: Mapped[str | None] = mapped_column(String(40))
    runtime: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    casual: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Never ranked, whatever its rules (the ranked queue's match against a bot)."""
    banned: Mapped[list[Any]] = mapped_column(JSON, default=list)
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Bumped by every process that takes the table over: its writes are fenced with it, so a
    process that lost the table (a lapsed lease, a frozen process) can never store again."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Seat(Base):
    """Who sits where at a table: a player, a bot level, or nobody."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    bot_level: Mapped[str | None] = mapped_column(String(32))
    away: Mapped[bool] = mapped_column(Boolean, default=False)


class Match(Base):
    """One match: options, seed and seats fix it; its moves replay it (R7.5)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    game: Mapped[str] = mapped_column(String(16), default="skip")
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    scores: Mapped[list[Any]] = mapped_column(JSON, default=list)
    winners: Mapped[list[Any] | None] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Move(Base):
    """One step of a match, in order: an action by a seat, or a table decision between rounds
    (``next_round``, ``solo`` for R2.5), so that replaying the log rebuilds the match exactly.

    Kept small, since moves are most of the database (``store/move_codec.py``): keyed by
    (match, number) with no other index (SQLite keeps the rows in that key's order, without a
    rowid); ``kind`` is null for a seat's action, the common case; ``action`` is its JSON
    deflated; ``sent_by`` is 8 bytes naming who sent the action and the id the client gave it,
    so a resent action is recognised (and applied once) after a restart too."""

    __tablename__ = "moves"
    __table_args__ = ({"sqlite_with_rowid": False},)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str | None] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any] | None] = mapped_column(PackedAction)
    sent_by: Mapped[bytes | None] = mapped_column(LargeBinary(8))


class ServerSecret(Base):
    """Keys shared by every server process (the token signing key), made once."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class KeptGame(Base):
    """A game played with physical cards whose score the keeper adds up (``docs/keeper.md``):
    the kept game's versioned JSON, its owner, the code that shares it read-only, and a
    revision that every applied change raises by one."""

    __tablename__ = "kept_games"
    __table_args__ = (UniqueConstraint("owner_id", "create_entry"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    game: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))  # playing | over | closed
    revision: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    create_entry: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class KeptEntry(Base):
    """An entry applied to a kept game, by the id its device gave it: a device that sends it
    again (it never heard the answer) is told so instead of entering the round twice."""

    __tablename__ = "kept_entries"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("kept_games.id", ondelete="CASCADE"), primary_key=True
    )
    entry: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    revision: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
