"""Swiss, knockout and Scheveningen in the store.

* ``entries.team``: the team of a Scheveningen player (the two teams meet each
  other; players of one team never meet).
* ``games.match`` and ``games.match_game``: in a knockout, the bracket slot of the
  match a game belongs to and the game's number within the match (1, 2, … then the
  tie-break games), so the bracket is replayed from the games alone.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entries") as batch:
        batch.add_column(sa.Column("team", sa.String(100), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("match", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("match_game", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("match_game")
        batch.drop_column("match")
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("team")
