"""A game's moves: ``games.moves``, the game's PGN, None until given.

The PGN is kept as python-chess writes it back (the uploaded headers, the main line with
its comments and NAGs; variations are left out), at most
:data:`crosstable.formats.pgn.MAX_GAME_CHARS` characters. Storing or replacing it is a
recorded change of the game row like a result, so undo takes it back, and the
whole-tournament JSON document carries it with the game's other columns. The column is
loaded only when asked for (deferred), so reading a tournament's games does not read
their moves.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("moves", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("moves")
