"""Signed sign-in payloads already used: a Telegram login (and later a Mini App's
``initData``) is accepted once; its digest is kept until it could no longer be fresh.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "used_signatures",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("used_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_used_signatures_used_at", "used_signatures", ["used_at"])


def downgrade() -> None:
    op.drop_index("ix_used_signatures_used_at", table_name="used_signatures")
    op.drop_table("used_signatures")
