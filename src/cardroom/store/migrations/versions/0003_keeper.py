"""keeper: kept games (games played with physical cards) and the entries applied to them

Revision ID: 0003_keeper
Revises: 0002_league
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_keeper"
down_revision = "0002_league"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "kept_games",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("owner_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("create_entry", sa.String(length=64), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("owner_id", "create_entry"),
    )
    op.create_index("ix_kept_games_owner_id", "kept_games", ["owner_id"])
    op.create_table(
        "kept_entries",
        sa.Column(
            "game_id",
            sa.String(length=40),
            sa.ForeignKey("kept_games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("entry", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "entry"),
    )


def downgrade() -> None:
    op.drop_table("kept_entries")
    op.drop_index("ix_kept_games_owner_id", table_name="kept_games")
    op.drop_table("kept_games")
