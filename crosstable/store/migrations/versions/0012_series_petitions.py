"""Petitions for a class or level tournament.

``series_petitions`` — at least 11 players of one class or level ask the
administrators of a series for their own tournament: the level, the players, who
asked and when, the state (``pending`` → ``accepted`` with the tournament made, or
``refused`` with the reason), who decided and when.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series_petitions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("series_id", sa.Integer(), sa.ForeignKey("series.id"), nullable=False),
        sa.Column("level", sa.String(100), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("requested_by", sa.String(200), nullable=False),
        sa.Column("requested_at", sa.String(40), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.String(200), nullable=False),
        sa.Column("decided_at", sa.String(40), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
    )
    op.create_index("ix_series_petitions_series_id", "series_petitions", ["series_id"])


def downgrade() -> None:
    op.drop_table("series_petitions")
