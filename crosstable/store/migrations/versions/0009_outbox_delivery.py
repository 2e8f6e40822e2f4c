"""The outbox's delivery: what the sender needs per row.

``next_try_at`` — not before this moment (the backoff after a refused delivery; NULL:
at once); ``last_error`` — the last failure's text; ``gave_up_at`` — set when the
row failed its last allowed attempt (never tried again); ``mail_skipped`` — the
recipient has no e-mail address, so no mail was sent (the in-site notification
stands); ``read_at`` — the user read it in the site. A new table
``notification_prefs`` keeps a user's e-mail address for notifications and the kinds
the user does not want by mail (unsubscribed).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMNS = ("next_try_at", "last_error", "gave_up_at", "mail_skipped", "read_at")


def upgrade() -> None:
    with op.batch_alter_table("series_outbox") as batch:
        batch.add_column(sa.Column("next_try_at", sa.String(40), nullable=True))
        batch.add_column(sa.Column("last_error", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("gave_up_at", sa.String(40), nullable=True))
        batch.add_column(
            sa.Column("mail_skipped", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("read_at", sa.String(40), nullable=True))
    op.create_table(
        "notification_prefs",
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(320), nullable=False, server_default=""),
        sa.Column("muted", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notification_prefs")
    with op.batch_alter_table("series_outbox") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
