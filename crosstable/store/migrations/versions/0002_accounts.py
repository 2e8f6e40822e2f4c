"""Accounts and permissions: users, API tokens, staff, access rules, entry owners.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(80), nullable=False),
        sa.Column("display_name", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("is_master", sa.Boolean(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("online_tournaments", sa.Integer(), nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("username", name="uq_users_username"),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_api_tokens_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_api_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_api_tokens_token_hash"),
    )
    op.create_table(
        "tournament_staff",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_staff_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_tournament_staff_user_id_users"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_staff"),
    )
    op.create_table(
        "tournament_access",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("approval", sa.String(20), nullable=False),
        sa.Column("self_registration", sa.Boolean(), nullable=False),
        sa.Column("opens_at", sa.String(40), nullable=True),
        sa.Column("closes_at", sa.String(40), nullable=True),
        sa.Column("eligibility", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_access_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["users.id"], name="fk_tournament_access_owner_id_users"
        ),
        sa.PrimaryKeyConstraint("tournament_id", name="pk_tournament_access"),
    )
    op.create_table(
        "entry_accounts",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_entry_accounts_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_entry_accounts_user_id_users"),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_entry_accounts"),
    )


def downgrade() -> None:
    for table in (
        "entry_accounts",
        "tournament_access",
        "tournament_staff",
        "api_tokens",
        "users",
    ):
        op.drop_table(table)
