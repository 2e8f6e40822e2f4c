"""The players of the imported rating lists: ``rating_list_players``,
one row per FIDE id, with the case-folded name indexed for the look-up by prefix
(``text_pattern_ops`` on PostgreSQL so that ``LIKE 'prefix%'`` uses it).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_list_players",
        sa.Column("fide_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("folded", sa.String(200), nullable=False),
        sa.Column("federation", sa.String(3), nullable=False),
        sa.Column("sex", sa.String(1), nullable=False),
        sa.Column("title", sa.String(3), nullable=False),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("standard", sa.Integer(), nullable=True),
        sa.Column("rapid", sa.Integer(), nullable=True),
        sa.Column("blitz", sa.Integer(), nullable=True),
        sa.Column("list_name", sa.String(200), nullable=False),
        sa.Column("list_date", sa.String(10), nullable=False),
        sa.PrimaryKeyConstraint("fide_id"),
    )
    op.create_index(
        "ix_rating_list_players_folded",
        "rating_list_players",
        ["folded"],
        postgresql_ops={"folded": "text_pattern_ops"},
    )


def downgrade() -> None:
    op.drop_index("ix_rating_list_players_folded", table_name="rating_list_players")
    op.drop_table("rating_list_players")
