"""The news and awards published after each stage of a series.

``series_news`` — one news item per finished stage (unique ``stage_id``: a step done
twice cannot publish twice): its title and what the page and the Atom feed show.
``series_awards`` — places 1–3 of every group, the final and the super-final: the
player (registration, account, name), the place, the stage and group, the points.
``series_results`` — every player's place, points, wins and games played in each group
of a finished stage: what the season's standings add up.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series_news",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("series_id", sa.Integer(), sa.ForeignKey("series.id"), nullable=False),
        sa.Column("edition_id", sa.Integer(), sa.ForeignKey("series_editions.id"), nullable=False),
        sa.Column(
            "stage_id",
            sa.Integer(),
            sa.ForeignKey("series_stages.id"),
            nullable=False,
        ),
        sa.Column("published_at", sa.String(40), nullable=False),
        sa.Column("title", sa.String(400), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.UniqueConstraint("stage_id", name="uq_series_news_stage_id"),
    )
    op.create_index("ix_series_news_series_id", "series_news", ["series_id"])
    op.create_table(
        "series_awards",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("series_id", sa.Integer(), sa.ForeignKey("series.id"), nullable=False),
        sa.Column("edition_id", sa.Integer(), sa.ForeignKey("series_editions.id"), nullable=False),
        sa.Column("stage_id", sa.Integer(), sa.ForeignKey("series_stages.id"), nullable=False),
        sa.Column("group_id", sa.Integer(), sa.ForeignKey("series_groups.id"), nullable=False),
        sa.Column(
            "registration_id",
            sa.Integer(),
            sa.ForeignKey("series_registrations.id"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("folded_name", sa.String(200), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("stage_number", sa.Integer(), nullable=False),
        sa.Column("stage_kind", sa.String(20), nullable=False),
        sa.Column("group_letter", sa.String(8), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("points", sa.String(20), nullable=False),
        sa.Column("awarded_at", sa.String(40), nullable=False),
        sa.UniqueConstraint("group_id", "registration_id", name="uq_series_awards_group_id"),
    )
    op.create_index("ix_series_awards_series_id", "series_awards", ["series_id"])
    op.create_index("ix_series_awards_stage_id", "series_awards", ["stage_id"])
    op.create_index("ix_series_awards_user_id", "series_awards", ["user_id"])
    op.create_index("ix_series_awards_folded_name", "series_awards", ["folded_name"])
    op.create_table(
        "series_results",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("series_id", sa.Integer(), sa.ForeignKey("series.id"), nullable=False),
        sa.Column("edition_id", sa.Integer(), sa.ForeignKey("series_editions.id"), nullable=False),
        sa.Column("stage_id", sa.Integer(), sa.ForeignKey("series_stages.id"), nullable=False),
        sa.Column("group_id", sa.Integer(), sa.ForeignKey("series_groups.id"), nullable=False),
        sa.Column(
            "registration_id",
            sa.Integer(),
            sa.ForeignKey("series_registrations.id"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("folded_name", sa.String(200), nullable=False),
        sa.Column("stage_number", sa.Integer(), nullable=False),
        sa.Column("stage_kind", sa.String(20), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("points", sa.String(20), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.UniqueConstraint("group_id", "registration_id", name="uq_series_results_group_id"),
    )
    op.create_index("ix_series_results_series_id", "series_results", ["series_id"])
    op.create_index("ix_series_results_edition_id", "series_results", ["edition_id"])


def downgrade() -> None:
    op.drop_table("series_results")
    op.drop_table("series_awards")
    op.drop_table("series_news")
