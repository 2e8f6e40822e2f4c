"""Telegram: accounts linked with Telegram, and the outbox's
Telegram deliveries (one per outbox row: at most once).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "telegram_links",
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("telegram_id", sa.BigInteger(), nullable=False, unique=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("linked_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "telegram_deliveries",
        sa.Column("outbox_id", sa.Integer(), sa.ForeignKey("series_outbox.id"), primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_try_at", sa.String(40), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("sent_at", sa.String(40), nullable=True),
        sa.Column("gave_up_at", sa.String(40), nullable=True),
    )
    op.create_index("ix_telegram_deliveries_sent_at", "telegram_deliveries", ["sent_at"])


def downgrade() -> None:
    op.drop_table("telegram_deliveries")
    op.drop_table("telegram_links")
