"""Server-side web sessions and shared sign-in counters.

* ``web_sessions``: one row per signed-in browser (the SHA-256 of the session id
  in its signed cookie, the user, created, last seen, revoked), so signing out, a
  password change and an administrator's "sign out everywhere" end a session on
  the server, not only in the browser.
* ``sign_in_counters``: failed sign-ins per address and per account in fixed
  windows, shared by every process serving the database.

A later migration follows with ``down_revision = "0004"``.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("last_seen_at", sa.String(40), nullable=False),
        sa.Column("revoked_at", sa.String(40), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_web_sessions_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_web_sessions"),
        sa.UniqueConstraint("token_hash", name="uq_web_sessions_token_hash"),
    )
    op.create_index("ix_web_sessions_user_id", "web_sessions", ["user_id"])
    op.create_index("ix_web_sessions_last_seen_at", "web_sessions", ["last_seen_at"])
    op.create_table(
        "sign_in_counters",
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("window_start", sa.BigInteger(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "window_start", name="pk_sign_in_counters"),
    )
    op.create_index("ix_sign_in_counters_window_start", "sign_in_counters", ["window_start"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_counters_window_start", table_name="sign_in_counters")
    op.drop_table("sign_in_counters")
    op.drop_index("ix_web_sessions_last_seen_at", table_name="web_sessions")
    op.drop_index("ix_web_sessions_user_id", table_name="web_sessions")
    op.drop_table("web_sessions")
