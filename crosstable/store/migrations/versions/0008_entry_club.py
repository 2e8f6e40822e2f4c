"""A player's club: ``entries.club``, "" when not given.

The club is a detail of the registration like the federation: shown on the player
page and editable through ``Registration.edit_player`` at any time before the finish
(no pairing reads it). TRF has no field for it, so a TRF export leaves it out; the
whole-tournament JSON document carries it with the other columns.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entries") as batch:
        batch.add_column(sa.Column("club", sa.String(100), nullable=False, server_default=""))


def downgrade() -> None:
    # in place, not by copying the table: other tables refer to entries, so SQLite
    # (foreign keys on) refuses to drop the old copy; SQLite drops a column since 3.35
    op.drop_column("entries", "club")
