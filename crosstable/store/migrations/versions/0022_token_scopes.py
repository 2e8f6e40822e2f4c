"""API token scopes: what a token may do. A game server's token posts results of its
tournaments and nothing else; a personal token keeps what its user may do.

Existing tokens get the narrowest scope that covers what they did: a game server's
``results``, a personal one ``account``.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch:
        batch.add_column(sa.Column("scopes", sa.String(200), nullable=False, server_default=""))
    op.execute("UPDATE api_tokens SET scopes = 'results' WHERE kind = 'game server'")
    op.execute("UPDATE api_tokens SET scopes = 'account' WHERE kind <> 'game server'")


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("scopes")
