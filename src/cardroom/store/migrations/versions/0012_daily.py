"""daily deal attempts: one scored attempt per player, game and day (docs/daily.md)

Revision ID: 0012_daily
Revises: 0011_moderation
Create Date: 2026-12-05 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_daily"
down_revision = "0011_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_attempts",
        sa.Column("id", sa.String(length=40), primary_key=True),
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.Column("scored_key", sa.String(length=80), nullable=True, unique=True),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("result", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("marks", sa.String(length=2000), nullable=True),
        sa.Column("words", sa.String(length=200), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_daily_attempts_player_id", "daily_attempts", ["player_id"])
    op.create_index("ix_daily_board", "daily_attempts", ["game", "day", "scored", "status"])


def downgrade() -> None:
    op.drop_index("ix_daily_board", "daily_attempts")
    op.drop_index("ix_daily_attempts_player_id", "daily_attempts")
    op.drop_table("daily_attempts")
