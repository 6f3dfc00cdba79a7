"""moves: who sent an action and its id (a resent action is applied once across restarts);
tables: the epoch that fences the writes of a process that lost the table

Revision ID: 0004_exactly_once_and_fencing
Revises: 0003_keeper
Create Date: 2026-11-30 19:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_exactly_once_and_fencing"
down_revision = "0003_keeper"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("player_id", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("action_id", sa.String(length=64), nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("action_id")
        batch.drop_column("player_id")
