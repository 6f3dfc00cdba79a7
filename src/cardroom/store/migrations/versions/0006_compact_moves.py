"""moves: keyed by (match, number) without a rowid or a second index, the action deflated,
who sent it as 8 bytes, no per-move timestamp: a stored move takes a few dozen bytes

Revision ID: 0006_compact_moves
Revises: 0005_tokens
Create Date: 2026-11-30 23:00:00
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from cardroom.store.move_codec import pack, unpack

revision = "0006_compact_moves"
down_revision = "0005_tokens"
branch_labels = None
depends_on = None

BATCH = 5000


def _sender_key(player_id: str, action_id: str) -> bytes:
    # As cardroom.tables.audience.action_key made it in this revision (kept here, frozen).
    return hashlib.blake2b(f"{player_id}\0{action_id}".encode(), digest_size=8).digest()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    op.create_table(
        "moves_compact",
        sa.Column("match_id", sa.String(length=40), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.LargeBinary(), nullable=True),
        sa.Column("sent_by", sa.LargeBinary(length=8), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "number"),
        sqlite_with_rowid=False,
    )
    bind = op.get_bind()
    compact = sa.table(
        "moves_compact",
        *(
            sa.column(name)
            for name in ("match_id", "number", "round", "kind", "seat", "action", "sent_by")
        ),
    )
    rows = bind.execute(
        sa.text(
            "SELECT match_id, number, round, kind, seat, action, player_id, action_id "
            "FROM moves ORDER BY match_id, number"
        )
    )
    while batch := rows.fetchmany(BATCH):
        bind.execute(
            compact.insert(),
            [
                {
                    "match_id": r.match_id,
                    "number": r.number,
                    "round": r.round,
                    "kind": None if r.kind == "action" else r.kind,
                    "seat": r.seat,
                    "action": pack(_json(r.action)),
                    "sent_by": (
                        _sender_key(r.player_id, r.action_id)
                        if r.player_id and r.action_id
                        else None
                    ),
                }
                for r in batch
            ],
        )
    op.drop_table("moves")
    op.rename_table("moves_compact", "moves")


def downgrade() -> None:
    op.create_table(
        "moves_wide",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(length=40), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=True),
        sa.Column("player_id", sa.String(length=40), nullable=True),
        sa.Column("action_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("match_id", "number"),
    )
    bind = op.get_bind()
    wide = sa.table(
        "moves_wide",
        *(sa.column(n) for n in ("match_id", "number", "round", "kind", "seat")),
        sa.column("action", sa.JSON()),
    )
    rows = bind.execute(
        sa.text("SELECT match_id, number, round, kind, seat, action FROM moves ORDER BY 1, 2")
    )
    while batch := rows.fetchmany(BATCH):
        bind.execute(
            wide.insert(),
            [
                {
                    "match_id": r.match_id,
                    "number": r.number,
                    "round": r.round,
                    "kind": r.kind or "action",
                    "seat": r.seat,
                    "action": unpack(r.action),
                }
                for r in batch
            ],
        )  # who sent each action is not kept: its 8-byte key cannot be turned back
    op.drop_table("moves")
    op.rename_table("moves_wide", "moves")
    op.create_index("ix_moves_match_id", "moves", ["match_id"])
