"""A series its organiser paused: ``series.paused``. While it is set
the tick opens no edition of the series by itself; the editions already open or
running go on, and the organiser may still open one by hand.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ALTER TABLE … ADD COLUMN, not a batch: the editions refer to series, so
    # SQLite (foreign keys on) refuses the batch's copy of the table
    op.add_column(
        "series", sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    # in place, as 0013 does (editions refer to series: SQLite refuses a table copy)
    op.drop_column("series", "paused")
