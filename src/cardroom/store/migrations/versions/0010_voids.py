"""voids and cheat marks: matches whose results no longer count, and accounts marked as
cheating (docs/league.md, "Fair play"); each result row says whether its seat forfeited and
why a match at ranked rules went unrated, so histories can say so

Revision ID: 0010_voids
Revises: 0009_sightings
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_voids"
down_revision = "0009_sightings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_voids",
        sa.Column("match_id", sa.String(length=40), primary_key=True),
        sa.Column("source", sa.String(length=48), primary_key=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_cheat_marks",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("marked_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("league_results") as batch:
        batch.add_column(
            sa.Column("forfeited", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("unrated", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("league_results") as batch:
        batch.drop_column("unrated")
        batch.drop_column("forfeited")
    op.drop_table("league_cheat_marks")
    op.drop_table("league_voids")
