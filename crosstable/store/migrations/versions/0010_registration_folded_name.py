"""A series registration's name case-folded, indexed per edition.

Registration refuses a second player of the same name (letter case aside) in one
edition; with the folded name in an index that check is one look-up, whatever the
number of players registered (before: every registration's name was read back).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

INDEX = "ix_series_registrations_folded_name"


def upgrade() -> None:
    with op.batch_alter_table("series_registrations") as batch:
        batch.add_column(
            sa.Column("folded_name", sa.String(200), nullable=False, server_default="")
        )
    table = sa.table(
        "series_registrations", sa.column("id", sa.Integer), sa.column("name", sa.String)
    )
    folded = sa.table(
        "series_registrations", sa.column("id", sa.Integer), sa.column("folded_name", sa.String)
    )
    connection = op.get_bind()
    for row_id, name in connection.execute(sa.select(table.c.id, table.c.name)).all():
        connection.execute(
            folded.update()
            .where(folded.c.id == row_id)
            .values(folded_name=str(name).casefold()[:200])
        )
    op.create_index(INDEX, "series_registrations", ["edition_id", "folded_name"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="series_registrations")
    with op.batch_alter_table("series_registrations") as batch:
        batch.drop_column("folded_name")
