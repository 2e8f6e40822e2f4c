"""Team competitions: teams, their members in board order, and each round's line-ups.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

_ENTRY = ("tournament_id", "entry")
_ENTRIES = ("entries.tournament_id", "entries.number")


def upgrade() -> None:
    op.create_table(
        "teams",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("start", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("captain", sa.Integer(), nullable=True),
    )
    op.create_table(
        "team_members",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("entry", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(_ENTRY, _ENTRIES),
    )
    op.create_table(
        "lineups",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("team", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("board", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(_ENTRY, _ENTRIES),
    )


def downgrade() -> None:
    op.drop_table("lineups")
    op.drop_table("team_members")
    op.drop_table("teams")
