"""A battle-chess series: ``series.variant`` ("" or
``battle``) and ``series.setup_minutes`` (the set-up time, None: not set). Every group
tournament such a series creates is battle chess with that set-up time; its colours are
drawn from the group's own published seed, as a single battle tournament's are.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("series") as batch:
        batch.add_column(sa.Column("variant", sa.String(20), nullable=False, server_default=""))
        batch.add_column(sa.Column("setup_minutes", sa.Integer(), nullable=True))


def downgrade() -> None:
    # in place, not by copying the table: editions and entries refer to series, so
    # SQLite (foreign keys on) refuses to drop the old copy; SQLite drops a column
    # since 3.35 (as 0008 does)
    op.drop_column("series", "setup_minutes")
    op.drop_column("series", "variant")
