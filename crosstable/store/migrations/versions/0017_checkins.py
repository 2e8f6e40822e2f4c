"""The hall's check-in: ``checkins``, one row per player who confirmed being
present for a round (tournament, round, entry number, when). Written only through the
service (:mod:`crosstable.service.checkin`), so each check-in is an event of the history
and undo takes it back.

Revision ID: 0017
Revises: 0016 (0016_game_moves, landed alongside)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "checkins",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_checkins_tournament_id_tournaments"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player"],
            ["entries.tournament_id", "entries.number"],
            name=op.f("fk_checkins_tournament_id_entries"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "player", name=op.f("pk_checkins")),
    )


def downgrade() -> None:
    op.drop_table("checkins")
