"""language: the language a player chose to read Cardroom in (issue 33)

Revision ID: 0013_language
Revises: 0011_moderation
Create Date: 2026-12-05 19:00:00

Numbered 0013: another branch adds 0012 at the same time, and the merge chains this one after it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_language"
down_revision = "0012_daily"  # the merge points it at 0012
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8)))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
