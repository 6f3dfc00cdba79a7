"""tokens: a token generation per player (revocation); the look-alike skeleton of claimed names

Revision ID: 0005_tokens
Revises: 0004_exactly_once_and_fencing
Create Date: 2026-12-02 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardroom.league.lookalikes import MAX_SKELETON, skeleton

revision = "0005_tokens"
down_revision = "0004_exactly_once_and_fencing"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("token_generation", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column(
        "league_accounts",
        sa.Column("name_skeleton", sa.String(length=MAX_SKELETON), nullable=True),
    )
    op.create_index("ix_league_accounts_name_skeleton", "league_accounts", ["name_skeleton"])
    bind = op.get_bind()
    claimed = bind.execute(
        sa.text(
            "SELECT a.player_id, p.name FROM league_accounts a JOIN players p ON p.id = a.player_id"
        )
    ).all()
    for player_id, name in claimed:
        bind.execute(
            sa.text("UPDATE league_accounts SET name_skeleton = :s WHERE player_id = :p"),
            {"s": skeleton(name), "p": player_id},
        )


def downgrade() -> None:
    op.drop_index("ix_league_accounts_name_skeleton", table_name="league_accounts")
    with op.batch_alter_table("league_accounts") as batch:
        batch.drop_column("name_skeleton")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_generation")
