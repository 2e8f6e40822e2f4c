"""API tokens: random, shown once, only their SHA-256 kept."""

from __future__ import annotations

import secrets

from sqlalchemy import select

from crosstable.service.accounts.base import AccountsBase, UserInfo, _user, token_hash
from crosstable.service.errors import NotFoundError
from crosstable.store.accounts_models import (
    ApiTokenRow,
    UserRow,
)


class Tokens(AccountsBase):
    """A user's API tokens."""

    def create_token(self, user_id: int, label: str = "") -> str:
        """A new API token for ``user_id``; shown once (only its hash is kept)."""
        token = "ct_" + secrets.token_urlsafe(32)
        with self.store.transaction() as session:
            session.add(
                ApiTokenRow(
                    user_id=user_id,
                    token_hash=token_hash(token),
                    label=label.strip()[:100],
                    created_at=self._now(),
                )
            )
        return token

    def user_for_token(self, token: str) -> UserInfo | None:
        with self.store.reading() as session:
            row = session.scalars(
                select(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash(token))
            ).first()
            if row is None:
                return None
            user = session.get(UserRow, row.user_id)
            return None if user is None else _user(user)

    def tokens(self, user_id: int) -> list[tuple[int, str, str]]:
        with self.store.reading() as session:
            rows = session.scalars(select(ApiTokenRow).where(ApiTokenRow.user_id == user_id))
            return [(r.id, r.label, r.created_at) for r in rows]

    def revoke_token(self, user_id: int, token_id: int) -> None:
        with self.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.user_id != user_id:
                raise NotFoundError("there is no token {token}", token=token_id)
            session.delete(row)
