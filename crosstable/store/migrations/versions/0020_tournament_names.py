"""An index on ``tournaments.name``: the series' tick finds the
round robin of a group by its title before it creates one (so a tick stopped midway
does not create it twice); without the index each look-up read every tournament,
and a stage of 1 000 groups on a portal of 10 000 tournaments read them 1 000 times.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tournaments_name", "tournaments", ["name"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_name", table_name="tournaments")
