"""Battle chess: whether a round's colours are drawn.

``rounds.colours_drawn``: None (or False) until the computer has drawn the colours of the
round's games (a battle-chess tournament only; in every other tournament the
colours come from the schedule and the column stays None). The draw is one
recorded change of the round row and its games, so undo takes it back.

Revision ID: 0006
Revises: 0005 (0005_account_events, written alongside)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("colours_drawn", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("colours_drawn")
