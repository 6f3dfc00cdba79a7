"""moderation: roles on accounts, reports, sanctions, and an append-only audit log

Revision ID: 0011_moderation
Revises: 0010_voids
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_moderation"
down_revision = "0010_voids"
branch_labels = None
depends_on = None

APPEND_ONLY = "the moderation audit log is append-only"


def upgrade() -> None:
    with op.batch_alter_table("league_accounts") as batch:
        batch.add_column(
            sa.Column("role", sa.String(length=16), nullable=False, server_default="player")
        )
    op.create_table(
        "moderation_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("target_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=500)),
        sa.Column("table_id", sa.String(length=40)),
        sa.Column("match_id", sa.String(length=40)),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_by", sa.String(length=40)),
        sa.Column("handled_at", sa.DateTime(timezone=True)),
        sa.Column("outcome", sa.String(length=500)),
    )
    op.create_index("ix_moderation_reports_status", "moderation_reports", ["status", "created_at"])
    op.create_index(
        "ix_moderation_reports_target", "moderation_reports", ["target_id", "created_at"]
    )
    op.create_index(
        "ix_moderation_reports_reporter", "moderation_reports", ["reporter_id", "created_at"]
    )
    op.create_table(
        "moderation_sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(length=40), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.String(length=40)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True)),
        sa.Column("lifted_at", sa.DateTime(timezone=True)),
        sa.Column("lifted_by", sa.String(length=40)),
        sa.Column("lift_reason", sa.String(length=500)),
    )
    op.create_index(
        "ix_moderation_sanctions_player", "moderation_sanctions", ["player_id", "created_at"]
    )
    op.create_table(
        "moderation_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.String(length=40)),
        sa.Column("actor_name", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=24), nullable=False),
        sa.Column("target", sa.String(length=48), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
    )
    op.create_index("ix_moderation_audit_target", "moderation_audit", ["target"])
    op.create_index("ix_moderation_audit_actor", "moderation_audit", ["actor_id"])
    # The database itself refuses to change or remove an audit row, whoever asks.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION moderation_audit_append_only() RETURNS trigger AS $$ "
            f"BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END; $$ LANGUAGE plpgsql"
        )
        op.execute(
            "CREATE TRIGGER moderation_audit_append_only BEFORE UPDATE OR DELETE "
            "ON moderation_audit FOR EACH ROW EXECUTE FUNCTION moderation_audit_append_only()"
        )
    else:
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER moderation_audit_no_{event.lower()} BEFORE {event} "
                f"ON moderation_audit BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER moderation_audit_append_only ON moderation_audit")
        op.execute("DROP FUNCTION moderation_audit_append_only()")
    op.drop_index("ix_moderation_audit_actor", table_name="moderation_audit")
    op.drop_index("ix_moderation_audit_target", table_name="moderation_audit")
    op.drop_table("moderation_audit")
    op.drop_index("ix_moderation_sanctions_player", table_name="moderation_sanctions")
    op.drop_table("moderation_sanctions")
    op.drop_index("ix_moderation_reports_reporter", table_name="moderation_reports")
    op.drop_index("ix_moderation_reports_target", table_name="moderation_reports")
    op.drop_index("ix_moderation_reports_status", table_name="moderation_reports")
    op.drop_table("moderation_reports")
    with op.batch_alter_table("league_accounts") as batch:
        batch.drop_column("role")
