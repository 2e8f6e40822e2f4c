"""A portal's series: series, editions, registrations, stages, groups, the
series' history and the notifications outbox (crosstable/store/series_models.py).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_S = sa.String
_I = sa.Integer


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("id", _I(), nullable=False),
        sa.Column("name", _S(200), nullable=False),
        sa.Column("kind", _S(20), nullable=False),
        sa.Column("weekday", _I(), nullable=True),
        sa.Column("day", _I(), nullable=True),
        sa.Column("start_time", _S(5), nullable=False),
        sa.Column("zone", _S(64), nullable=False),
        sa.Column("max_group_size", _I(), nullable=False),
        sa.Column("qualifiers_per_group", _I(), nullable=False),
        sa.Column("final_min", _I(), nullable=False),
        sa.Column("group_cycles", _I(), nullable=False),
        sa.Column("final_cycles", _I(), nullable=False),
        sa.Column("super_final_players", _I(), nullable=False),
        sa.Column("super_final_cycles", _I(), nullable=False),
        sa.Column("tiebreaks", _S(400), nullable=False),
        sa.Column("time_control", _S(100), nullable=False),
        sa.Column("pre_registration", sa.Boolean(), nullable=False),
        sa.Column("deadline_minutes", _I(), nullable=False),
        sa.Column("created_at", _S(40), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_series"),
    )
    op.create_table(
        "series_editions",
        sa.Column("id", _I(), nullable=False),
        sa.Column("series_id", _I(), nullable=False),
        sa.Column("number", _I(), nullable=False),
        sa.Column("planned_start", _S(40), nullable=False),
        sa.Column("deadline", _S(40), nullable=False),
        sa.Column("first_deadline", _S(40), nullable=False),
        sa.Column("state", _S(20), nullable=False),
        sa.Column("stage", _I(), nullable=False),
        sa.Column("postponed", _I(), nullable=False),
        sa.Column("extended", sa.Boolean(), nullable=False),
        sa.Column("closed_at", _S(40), nullable=True),
        sa.Column("finished_at", _S(40), nullable=True),
        sa.Column("created_at", _S(40), nullable=False),
        sa.ForeignKeyConstraint(
            ["series_id"], ["series.id"], name="fk_series_editions_series_id_series"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_editions"),
        sa.UniqueConstraint("series_id", "number", name="uq_series_editions_series_id"),
    )
    op.create_index("ix_series_editions_series_id", "series_editions", ["series_id"])
    op.create_index("ix_series_editions_state", "series_editions", ["state"])
    op.create_table(
        "series_registrations",
        sa.Column("id", _I(), nullable=False),
        sa.Column("edition_id", _I(), nullable=False),
        sa.Column("name", _S(200), nullable=False),
        sa.Column("rating", _I(), nullable=True),
        sa.Column("user_id", _I(), nullable=True),
        sa.Column("registered_at", _S(40), nullable=False),
        sa.Column("withdrawn_at", _S(40), nullable=True),
        sa.ForeignKeyConstraint(
            ["edition_id"],
            ["series_editions.id"],
            name="fk_series_registrations_edition_id_series_editions",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_registrations"),
    )
    op.create_index("ix_series_registrations_edition_id", "series_registrations", ["edition_id"])
    op.create_table(
        "series_stages",
        sa.Column("id", _I(), nullable=False),
        sa.Column("edition_id", _I(), nullable=False),
        sa.Column("number", _I(), nullable=False),
        sa.Column("kind", _S(20), nullable=False),
        sa.Column("cycles", _I(), nullable=False),
        sa.Column("qualifiers_per_group", _I(), nullable=False),
        sa.Column("created_at", _S(40), nullable=False),
        sa.Column("started_at", _S(40), nullable=True),
        sa.Column("finished_at", _S(40), nullable=True),
        sa.ForeignKeyConstraint(
            ["edition_id"],
            ["series_editions.id"],
            name="fk_series_stages_edition_id_series_editions",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_stages"),
        sa.UniqueConstraint("edition_id", "number", name="uq_series_stages_edition_id"),
    )
    op.create_index("ix_series_stages_edition_id", "series_stages", ["edition_id"])
    op.create_table(
        "series_groups",
        sa.Column("id", _I(), nullable=False),
        sa.Column("stage_id", _I(), nullable=False),
        sa.Column("letter", _I(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("tournament_id", _I(), nullable=True),
        sa.ForeignKeyConstraint(
            ["stage_id"], ["series_stages.id"], name="fk_series_groups_stage_id_series_stages"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_series_groups_tournament_id_tournaments"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_groups"),
        sa.UniqueConstraint("stage_id", "letter", name="uq_series_groups_stage_id"),
        sa.UniqueConstraint("tournament_id", name="uq_series_groups_tournament_id"),
    )
    op.create_index("ix_series_groups_stage_id", "series_groups", ["stage_id"])
    op.create_table(
        "series_events",
        sa.Column("id", _I(), nullable=False),
        sa.Column("series_id", _I(), nullable=False),
        sa.Column("edition_id", _I(), nullable=True),
        sa.Column("at", _S(40), nullable=False),
        sa.Column("actor", _S(200), nullable=False),
        sa.Column("kind", _S(40), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("step", _S(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["series_id"], ["series.id"], name="fk_series_events_series_id_series"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_series_events"),
        sa.UniqueConstraint("step", name="uq_series_events_step"),
    )
    op.create_index("ix_series_events_series_id", "series_events", ["series_id"])
    op.create_table(
        "series_outbox",
        sa.Column("id", _I(), nullable=False),
        sa.Column("user_id", _I(), nullable=True),
        sa.Column("recipient", _S(320), nullable=False),
        sa.Column("kind", _S(40), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", _S(40), nullable=False),
        sa.Column("sent_at", _S(40), nullable=True),
        sa.Column("attempts", _I(), nullable=False),
        sa.Column("dedupe_key", _S(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_series_outbox"),
        sa.UniqueConstraint("dedupe_key", name="uq_series_outbox_dedupe_key"),
    )
    op.create_index("ix_series_outbox_sent_at", "series_outbox", ["sent_at"])


def downgrade() -> None:
    for table in (
        "series_outbox",
        "series_events",
        "series_groups",
        "series_stages",
        "series_registrations",
        "series_editions",
        "series",
    ):
        op.drop_table(table)
