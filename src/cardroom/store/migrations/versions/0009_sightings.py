"""sightings: keyed hashes of the network addresses and device tokens players sign in from,
so the ladder never rates two accounts of one place against each other

Revision ID: 0009_sightings
Revises: 0007_divisions
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_sightings"
down_revision = "0008_skeletons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_sightings",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(length=8), primary_key=True),
        sa.Column("hash", sa.String(length=64), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_league_sightings_hash", "league_sightings", ["hash"])
    op.create_index("ix_league_sightings_seen", "league_sightings", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_league_sightings_seen", table_name="league_sightings")
    op.drop_index("ix_league_sightings_hash", table_name="league_sightings")
    op.drop_table("league_sightings")
