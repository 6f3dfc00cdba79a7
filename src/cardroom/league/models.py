"""The league's tables: accounts, ratings, per-seat match results, achievements and seasons.

They share the store's ``Base`` so one Alembic history covers the whole database. A *subject*
is whoever holds a rating or a place on a board: a player id (``p_…``) or a bot level
(``bot:easy``), since bots are rated too but are not rows of ``players``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.expression import false

from cardroom.league.lookalikes import MAX_SKELETON
from cardroom.store.models import Base, utcnow

BOT_PREFIX = "bot:"


def bot_subject(level: str) -> str:
    return BOT_PREFIX + level


class Account(Base):
    """A claimed name: the guest's player row gains a password and can sign in anywhere."""

    __tablename__ = "league_accounts"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    # What the name looks like (``lookalikes.skeleton``): no other name may look the same.
    name_skeleton: Mapped[str | None] = mapped_column(String(MAX_SKELETON), index=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    signed_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # player, moderator or admin (``cardroom.moderation.roles``): only an account holds a role.
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")


class Rating(Base):
    """The current OpenSkill rating of a subject for one game and mode."""

    __tablename__ = "league_ratings"

    subject: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistory(Base):
    """A rating after each rated match: plots, and the ranked board of any past period."""

    __tablename__ = "league_rating_history"
    __table_args__ = (
        Index("ix_league_rating_history_board", "game", "mode", "at"),
        Index("ix_league_rating_history_subject", "subject", "game", "mode"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(48))
    game: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(8))
    match_id: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Result(Base):
    """One seat of one finished match: the facts boards and career statistics are built from."""

    __tablename__ = "league_results"
    __table_args__ = (
        Index("ix_league_results_board", "game", "finished_at"),
        Index("ix_league_results_subject", "subject", "finished_at"),
    )

    match_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    subject: Mapped[str] = mapped_column(String(48))
    table_id: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(8))
    ranked: Mapped[bool] = mapped_column(Boolean)
    players: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    rounds_won: Mapped[int] = mapped_column(Integer)
    turns: Mapped[int] = mapped_column(Integer)
    stock_played: Mapped[int] = mapped_column(Integer)
    best_round: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The seat forfeited the match (left, or timed out too often: the ladder's rules).
    forfeited: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Why a match at ranked rules was counted as casual (``ladder.Verdict.reason``); None
    # when it was rated or played at a casual table. A void is ``league_voids``' to say.
    unrated: Mapped[str | None] = mapped_column(String(16))


class Award(Base):
    """An achievement a player has earned: once, with the match that earned it."""

    __tablename__ = "league_achievements"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    achievement: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(40))
    table_id: Mapped[str] = mapped_column(String(40))
    awarded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Season(Base):
    """A league period with its own boards; ``closed`` once frozen into standings."""

    __tablename__ = "league_seasons"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    status: Mapped[str] = mapped_column(String(8), default="open")
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Standing(Base):
    """A frozen place on a season's board (the archive that never changes again)."""

    __tablename__ = "league_standings"

    season_id: Mapped[str] = mapped_column(ForeignKey("league_seasons.id"), primary_key=True)
    board: Mapped[str] = mapped_column(String(8), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    rank: Mapped[int] = mapped_column(Integer)
    subject: Mapped[str] = mapped_column(String(48))
    name: Mapped[str] = mapped_column(String(64))
    value: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)


class Trophy(Base):
    """1st, 2nd or 3rd place on a season's board, shown on the player's profile."""

    __tablename__ = "league_trophies"

    season_id: Mapped[str] = mapped_column(ForeignKey("league_seasons.id"), primary_key=True)
    board: Mapped[str] = mapped_column(String(8), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    place: Mapped[int] = mapped_column(Integer)
    value: Mapped[float] = mapped_column(Float)
    awarded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DivisionPlace(Base):
    """A player's division in one season, game and mode: placed once, moved at season end."""

    __tablename__ = "league_divisions"

    season_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    division: Mapped[str] = mapped_column(String(16))
    how: Mapped[str] = mapped_column(String(12))  # placement, promoted, relegated, stayed
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Unlock(Base):
    """A card back or table theme a player has earned: once, with what earned it."""

    __tablename__ = "league_unlocks"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    item: Mapped[str] = mapped_column(String(32), primary_key=True)
    reason: Mapped[str] = mapped_column(String(64))
    unlocked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Choice(Base):
    """The card back and theme a player chose: stored here, so every device shows them."""

    __tablename__ = "league_choices"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    card_back: Mapped[str | None] = mapped_column(String(32))
    theme: Mapped[str | None] = mapped_column(String(32))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Sighting(Base):
    """Where a player was seen signing in (a new guest, a claim, a sign-in): a keyed hash of
    the network address or of a device token, never the address itself (HMAC-SHA256 with the
    server's secret, ``ladder.sighting_hash``). Two players seen on one hash within the
    window are never rated against each other (docs/league.md, "Ladder rules"). One row per
    player, kind and hash, its time renewed; rows older than the window are pruned."""

    __tablename__ = "league_sightings"
    __table_args__ = (
        Index("ix_league_sightings_hash", "hash"),
        Index("ix_league_sightings_seen", "seen_at"),
    )

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # "address" or "device"
    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


MODERATOR = "moderator"  # ``Void.source`` of a match voided on its own


class Void(Base):
    """A match whose results no longer count (docs/league.md, "Fair play"): off every board,
    its ratings recomputed as if it had never been rated. ``source`` says who voided it: a
    moderator (``MODERATOR``) or a cheat mark (the marked player's id), so lifting a mark
    lifts only the voids it made; a match stays void while any row names it."""

    __tablename__ = "league_voids"

    match_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    source: Mapped[str] = mapped_column(String(48), primary_key=True)
    reason: Mapped[str] = mapped_column(String(500))
    voided_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CheatMark(Base):
    """An account marked as cheating: its results are void, it is on no board, and its
    profile says so, until a moderator lifts the mark."""

    __tablename__ = "league_cheat_marks"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(500))
    marked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
