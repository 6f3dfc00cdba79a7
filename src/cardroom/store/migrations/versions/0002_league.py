"""league: accounts, ratings and their history, match results, achievements, seasons

Revision ID: 0002_league
Revises: 0001
Create Date: 2026-11-29 11:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_league"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "league_accounts",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("signed_in_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("player_id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "league_ratings",
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("subject", "game", "mode"),
    )
    op.create_table(
        "league_rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_league_rating_history_board", "league_rating_history", ["game", "mode", "at"]
    )
    op.create_index(
        "ix_league_rating_history_subject", "league_rating_history", ["subject", "game", "mode"]
    )
    op.create_table(
        "league_results",
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("rounds_won", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("stock_played", sa.Integer(), nullable=False),
        sa.Column("best_round", sa.Integer(), nullable=False),
        sa.Column("finished_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("ix_league_results_board", "league_results", ["game", "finished_at"])
    op.create_index("ix_league_results_subject", "league_results", ["subject", "finished_at"])
    op.create_table(
        "league_achievements",
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("achievement", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("awarded_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "achievement"),
    )
    op.create_table(
        "league_seasons",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("starts_at", WHEN, nullable=False),
        sa.Column("ends_at", WHEN, nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("closed_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_league_seasons_ends_at"), "league_seasons", ["ends_at"])
    op.create_table(
        "league_standings",
        sa.Column("season_id", sa.String(length=16), nullable=False),
        sa.Column("board", sa.String(length=8), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(length=48), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["league_seasons.id"]),
        sa.PrimaryKeyConstraint("season_id", "board", "game", "mode", "position"),
    )
    op.create_table(
        "league_trophies",
        sa.Column("season_id", sa.String(length=16), nullable=False),
        sa.Column("board", sa.String(length=8), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.String(length=40), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("awarded_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["league_seasons.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("season_id", "board", "game", "mode", "player_id"),
    )


def downgrade() -> None:
    op.drop_table("league_trophies")
    op.drop_table("league_standings")
    op.drop_index(op.f("ix_league_seasons_ends_at"), table_name="league_seasons")
    op.drop_table("league_seasons")
    op.drop_table("league_achievements")
    op.drop_index("ix_league_results_subject", table_name="league_results")
    op.drop_index("ix_league_results_board", table_name="league_results")
    op.drop_table("league_results")
    op.drop_index("ix_league_rating_history_subject", table_name="league_rating_history")
    op.drop_index("ix_league_rating_history_board", table_name="league_rating_history")
    op.drop_table("league_rating_history")
    op.drop_table("league_ratings")
