"""Custom rating lists (a national federation's, a club's), each with its own id space,
and the list a tournament's player came from (``entries.rating_source``).

Revision ID: 0027
Revises: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "custom_lists",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("file", sa.String(200), nullable=False),
        sa.Column("month", sa.String(7), nullable=False),
        sa.Column("imported", sa.String(10), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_custom_lists"),
    )
    op.create_table(
        "custom_list_players",
        sa.Column("list", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.String(20), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("folded", sa.String(200), nullable=False),
        sa.Column("federation", sa.String(3), nullable=False),
        sa.Column("sex", sa.String(1), nullable=False),
        sa.Column("title", sa.String(3), nullable=False),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("standard", sa.Integer(), nullable=True),
        sa.Column("rapid", sa.Integer(), nullable=True),
        sa.Column("blitz", sa.Integer(), nullable=True),
        sa.Column("fide_id", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("list", "player_id", name="pk_custom_list_players"),
    )
    op.create_index(
        "ix_custom_list_players_folded",
        "custom_list_players",
        ["list", "folded"],
        postgresql_ops={"folded": "text_pattern_ops"},
    )
    op.create_index("ix_custom_list_players_fide_id", "custom_list_players", ["list", "fide_id"])
    # plain ALTER TABLE, also on SQLite (as 0026: a batch would copy ``entries``)
    op.add_column(
        "entries", sa.Column("rating_source", sa.String(80), nullable=False, server_default="")
    )


def downgrade() -> None:
    op.drop_column("entries", "rating_source")
    op.drop_index("ix_custom_list_players_fide_id", "custom_list_players")
    op.drop_index("ix_custom_list_players_folded", "custom_list_players")
    op.drop_table("custom_list_players")
    op.drop_table("custom_lists")
