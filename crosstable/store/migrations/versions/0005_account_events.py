"""The site's record of what administrators did to accounts.

* ``account_events``: flagged for computer help or cleared (who, when, why, the
  decision per running tournament), eligibility counts adjusted, the master status
  granted or revoked — one row per act, visible to administrators only;
* an index on ``entry_accounts.user_id`` (an account's entries are counted for its
  eligibility record and its master status).

No column changes: ``users.rated_games`` and ``users.online_tournaments`` are read
from now on as the administrator's adjustments (added to what the site counts), and
``users.is_master`` as a granted master status.

A later migration follows with ``down_revision = "0005"``.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_account_events_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_account_events"),
    )
    op.create_index("ix_account_events_user_id", "account_events", ["user_id"])
    op.create_index("ix_entry_accounts_user_id", "entry_accounts", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_entry_accounts_user_id", table_name="entry_accounts")
    op.drop_index("ix_account_events_user_id", table_name="account_events")
    op.drop_table("account_events")
