"""initial schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-29 11:13:24.511286
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("abandon_after", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=True),
        sa.Column("runtime", sa.JSON(), nullable=False),
        sa.Column("banned", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_tables_name"), "tables", ["name"], unique=False)
    op.create_index(op.f("ix_tables_status"), "tables", ["status"], unique=False)
    op.create_table(
        "matches",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_matches_status"), "matches", ["status"], unique=False)
    op.create_index(op.f("ix_matches_table_id"), "matches", ["table_id"], unique=False)
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=True),
        sa.Column("bot_level", sa.String(length=32), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
        ),
        sa.PrimaryKeyConstraint("table_id", "number"),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "number"),
    )
    op.create_index(op.f("ix_moves_match_id"), "moves", ["match_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_moves_match_id"), table_name="moves")
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index(op.f("ix_matches_table_id"), table_name="matches")
    op.drop_index(op.f("ix_matches_status"), table_name="matches")
    op.drop_table("matches")
    op.drop_index(op.f("ix_tables_status"), table_name="tables")
    op.drop_index(op.f("ix_tables_name"), table_name="tables")
    op.drop_table("tables")
    op.drop_table("server_secrets")
    op.drop_table("players")
