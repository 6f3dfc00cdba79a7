"""skeletons: claimed names' look-alike skeletons recomputed with Unicode's full confusables
table and the digit/letter classes (``1 l i``, ``0 o``, ``5 s``) of ``league/lookalikes.py``

Revision ID: 0008_skeletons
Revises: 0007_divisions
Create Date: 2026-12-05 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardroom.league.lookalikes import skeleton

revision = "0008_skeletons"
down_revision = "0007_divisions"
branch_labels = None
depends_on = None


def upgrade() -> None:
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
    """Nothing to undo in the schema; the skeletons stay as this revision made them."""
