"""Rating lists in generations: ``rating_list_players`` is keyed by
(generation, FIDE id), and ``rating_list_imports`` says which generation is current,
so an import writes a new generation in short batches and makes it visible at once at
the end, instead of holding the write lock for the whole file. The rows already there
become generation 0 (current while no import row is).

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

_COLUMNS = (
    "fide_id, name, folded, federation, sex, title, birth_year, standard, rapid, blitz, "
    "list_name, list_date"
)


def _players(name: str, *, generation: bool) -> None:
    key = ["generation", "fide_id"] if generation else ["fide_id"]
    op.create_table(
        name,
        *(
            [sa.Column("generation", sa.Integer(), server_default="0", nullable=False)]
            if generation
            else []
        ),
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
        sa.PrimaryKeyConstraint(*key, name=f"pk_{name}_{'g' if generation else 'f'}"),
    )


def upgrade() -> None:
    op.create_table(
        "rating_list_imports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("started", sa.String(32), nullable=False),
        sa.Column("heartbeat", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rating_list_imports"),
    )
    op.drop_index("ix_rating_list_players_folded", table_name="rating_list_players")
    op.rename_table("rating_list_players", "rating_list_players_0015")
    _players("rating_list_players", generation=True)
    op.execute(
        f"INSERT INTO rating_list_players (generation, {_COLUMNS}) "
        f"SELECT 0, {_COLUMNS} FROM rating_list_players_0015"
    )
    op.drop_table("rating_list_players_0015")
    op.create_index(
        "ix_rating_list_players_folded",
        "rating_list_players",
        ["generation", "folded"],
        postgresql_ops={"folded": "text_pattern_ops"},
    )


def downgrade() -> None:
    """Back to one row per FIDE id: the current generation's."""
    op.drop_index("ix_rating_list_players_folded", table_name="rating_list_players")
    op.rename_table("rating_list_players", "rating_list_players_0023")
    _players("rating_list_players", generation=False)
    op.execute(
        f"INSERT INTO rating_list_players ({_COLUMNS}) "
        f"SELECT {_COLUMNS} FROM rating_list_players_0023 WHERE generation = COALESCE("
        "(SELECT id FROM rating_list_imports WHERE state = 'current'), 0)"
    )
    op.drop_table("rating_list_players_0023")
    op.drop_table("rating_list_imports")
    op.create_index(
        "ix_rating_list_players_folded",
        "rating_list_players",
        ["folded"],
        postgresql_ops={"folded": "text_pattern_ops"},
    )
