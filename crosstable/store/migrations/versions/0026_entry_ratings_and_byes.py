"""A player's national rating and manual rating beside the FIDE one (the regulations'
rating method chooses which the tournament ranks by), and whether the player is
entitled to half-point byes.

Revision ID: 0026
Revises: 0025
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


# (plain ALTER TABLE, also on SQLite: a batch would copy ``entries``, which the team
# tables' foreign keys refer to)


def upgrade() -> None:
    op.add_column("entries", sa.Column("national_rating", sa.Integer(), nullable=True))
    op.add_column("entries", sa.Column("manual_rating", sa.Integer(), nullable=True))
    op.add_column(
        "entries", sa.Column("half_byes", sa.Boolean(), nullable=False, server_default=sa.true())
    )


def downgrade() -> None:
    for column in ("half_byes", "manual_rating", "national_rating"):
        op.drop_column("entries", column)
