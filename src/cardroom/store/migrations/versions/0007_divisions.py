"""divisions: a player's division per season, game and mode; unlocked rewards; chosen ones;
casual tables (never ranked: the ranked queue's match against a bot)

Revision ID: 0007_divisions
Revises: 0006_compact_moves
Create Date: 2026-11-30 22:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_divisions"
down_revision = "0006_compact_moves"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables",
        sa.Column("casual", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "league_divisions",
        sa.Column("season_id", sa.String(length=16), primary_key=True),
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(length=16), primary_key=True),
        sa.Column("mode", sa.String(length=8), primary_key=True),
        sa.Column("division", sa.String(length=16), nullable=False),
        sa.Column("how", sa.String(length=12), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_unlocks",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("item", sa.String(length=32), primary_key=True),
        sa.Column("reason", sa.String(length=64), nullable=False),
        sa.Column("unlocked_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_choices",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("card_back", sa.String(length=32), nullable=True),
        sa.Column("theme", sa.String(length=32), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("league_choices")
    op.drop_table("league_unlocks")
    op.drop_table("league_divisions")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("casual")
