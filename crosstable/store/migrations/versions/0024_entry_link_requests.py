"""An organiser's request that an account confirm an entry as its own: the entry is
linked to the account only when its owner confirms (the web's way of linking a player
to a user; the command line links at once, as an administrator's act).

Revision ID: 0024
Revises: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entry_link_requests",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("requested_by", sa.String(200), nullable=False),
        sa.Column("requested_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_entry_link_requests_user_id", "entry_link_requests", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_entry_link_requests_user_id", table_name="entry_link_requests")
    op.drop_table("entry_link_requests")
