"""The first schema: tournaments, entries, rounds, games, byes, the event log.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("system", sa.String(20), nullable=False),
        sa.Column("cycles", sa.Integer(), nullable=False),
        sa.Column("point_system", sa.JSON(), nullable=False),
        sa.Column("bye_points", sa.String(20), nullable=True),
        sa.Column("tiebreaks", sa.String(400), nullable=False),
        sa.Column("withdrawal_rule", sa.String(20), nullable=False),
        sa.Column("rules_edition", sa.String(8), nullable=False),
        sa.Column("swap_last_rounds", sa.Boolean(), nullable=False),
        sa.Column("rounds_planned", sa.Integer(), nullable=True),
        sa.Column("time_control", sa.String(100), nullable=False),
        sa.Column("start_date", sa.String(10), nullable=True),
        sa.Column("end_date", sa.String(10), nullable=True),
        sa.Column("regulations", sa.JSON(), nullable=False),
        sa.Column("draw_method", sa.String(10), nullable=True),
        sa.Column("draw_seed", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_table(
        "entries",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("start", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("title", sa.String(10), nullable=False),
        sa.Column("federation", sa.String(10), nullable=False),
        sa.Column("fide_id", sa.String(20), nullable=False),
        sa.Column("birth_date", sa.String(10), nullable=False),
        sa.Column("sex", sa.String(1), nullable=False),
        sa.Column("withdrawn_from", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_entries_tournament_id_tournaments"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_entries"),
    )
    op.create_table(
        "rounds",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("cycle", sa.Integer(), nullable=False),
        sa.Column("date", sa.String(10), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_rounds_tournament_id_tournaments"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_rounds"),
    )
    op.create_table(
        "games",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("board", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("white", sa.Integer(), nullable=False),
        sa.Column("black", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(2), nullable=True),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("white_report", sa.String(2), nullable=True),
        sa.Column("black_report", sa.String(2), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_games_tournament_id_tournaments"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["rounds.tournament_id", "rounds.number"],
            name="fk_games_tournament_id_rounds",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "white"],
            ["entries.tournament_id", "entries.number"],
            name="fk_games_tournament_id_entries",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "black"],
            ["entries.tournament_id", "entries.number"],
            name="fk_games_tournament_id_entries_black",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "board", name="pk_games"),
    )
    op.create_table(
        "byes",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_byes_tournament_id_tournaments"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["rounds.tournament_id", "rounds.number"],
            name="fk_byes_tournament_id_rounds",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player"],
            ["entries.tournament_id", "entries.number"],
            name="fk_byes_tournament_id_entries",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "player", name="pk_byes"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name="fk_events_tournament_id_tournaments"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("tournament_id", "seq", name="uq_events_tournament_id"),
    )
    op.create_index(
        "uq_events_idempotency", "events", ["tournament_id", "idempotency_key"], unique=True
    )
    op.create_table(
        "live_standings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_live_standings_tournament_id_tournaments",
        ),
        sa.PrimaryKeyConstraint("tournament_id", name="pk_live_standings"),
    )
    op.create_table(
        "preferences",
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_preferences"),
    )
    _append_only_events()


def _append_only_events() -> None:
    """The history cannot be rewritten: UPDATE and DELETE on ``events`` fail."""
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER events_append_only_{action.lower()} BEFORE {action} ON events "
                "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION crosstable_events_append_only() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'the event log is append-only'; END $$"
        )
        op.execute(
            "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION crosstable_events_append_only()"
        )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_append_only ON events")
        op.execute("DROP FUNCTION IF EXISTS crosstable_events_append_only()")
    for table in (
        "preferences",
        "live_standings",
        "events",
        "byes",
        "games",
        "rounds",
        "entries",
        "tournaments",
    ):
        op.drop_table(table)
