"""Game servers' tokens and shared rate limits.

* ``api_tokens.kind`` ("personal" or "game server"), ``every_tournament`` and
  ``per_minute``: an administrator's token for a game server, with its own limit of
  results a minute, for the tournaments granted to it (or every tournament).
* ``api_token_grants``: the tournaments a game server's token may post results for.
* ``rate_counters``: requests per key in fixed windows, shared by every process that
  serves a PostgreSQL database (one UPSERT a request; past windows are deleted).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch:
        batch.add_column(
            sa.Column("kind", sa.String(20), nullable=False, server_default="personal")
        )
        batch.add_column(
            sa.Column("every_tournament", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("per_minute", sa.Integer(), nullable=True))
    op.create_table(
        "api_token_grants",
        sa.Column("token_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["token_id"], ["api_tokens.id"], name="fk_api_token_grants_token_id_api_tokens"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_api_token_grants_tournament_id_tournaments",
        ),
        sa.PrimaryKeyConstraint("token_id", "tournament_id", name="pk_api_token_grants"),
    )
    op.create_index("ix_api_token_grants_tournament_id", "api_token_grants", ["tournament_id"])
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("window_start", sa.BigInteger(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "window_start", name="pk_rate_counters"),
    )
    op.create_index("ix_rate_counters_window_start", "rate_counters", ["window_start"])


def downgrade() -> None:
    op.drop_index("ix_rate_counters_window_start", table_name="rate_counters")
    op.drop_table("rate_counters")
    op.drop_index("ix_api_token_grants_tournament_id", table_name="api_token_grants")
    op.drop_table("api_token_grants")
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("per_minute")
        batch.drop_column("every_tournament")
        batch.drop_column("kind")
