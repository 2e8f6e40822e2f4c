"""A user's in-site notifications and choices (issue 11 item 5, R-SE-5): what the
notifications page and its API read and write (the web layer calls only these).

Every outbox row of the user is an in-site notification, mailed or not (no address,
unsubscribed, given up); ``read_at`` marks it read. The user's choices live in
``notification_prefs``: the address the sender mails to and the kinds not mailed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from crosstable.core.errors import RuleError
from crosstable.service.series.sender import KINDS

__all__ = ["KINDS", "Notification", "Preferences"]
from crosstable.store import Store
from crosstable.store.series_models import NotificationPrefsRow, SeriesOutboxRow

MAX_EMAIL = 320


@dataclass(frozen=True)
class Notification:
    id: int
    kind: str
    payload: dict[str, Any]
    created_at: str
    read: bool
    mailed: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "data": self.payload,
            "created_at": self.created_at,
            "read": self.read,
            "mailed": self.mailed,
        }


@dataclass(frozen=True)
class Preferences:
    email: str
    muted: tuple[str, ...]

    @property
    def mailed(self) -> tuple[str, ...]:
        return tuple(kind for kind in KINDS if kind not in self.muted)


def notifications(store: Store, user_id: int, *, limit: int = 100) -> list[Notification]:
    """The user's notifications, newest first."""
    with store.reading() as session:
        query = (
            select(SeriesOutboxRow)
            .where(SeriesOutboxRow.user_id == user_id)
            .order_by(SeriesOutboxRow.id.desc())
            .limit(limit)
        )
        return [
            Notification(
                row.id,
                row.kind,
                dict(row.payload),
                row.created_at,
                row.read_at is not None,
                row.sent_at is not None and not row.mail_skipped,
            )
            for row in session.scalars(query)
        ]


def unread_count(store: Store, user_id: int) -> int:
    with store.reading() as session:
        query = select(func.count()).where(
            SeriesOutboxRow.user_id == user_id, SeriesOutboxRow.read_at.is_(None)
        )
        return int(session.scalar(query) or 0)


def mark_read(store: Store, user_id: int, now: dt.datetime, ids: list[int] | None = None) -> int:
    """Mark the user's notifications ``ids`` (None: all) read; how many were unread."""
    at = now.astimezone(dt.UTC).isoformat(timespec="seconds")
    with store.transaction() as session:
        statement = update(SeriesOutboxRow).where(
            SeriesOutboxRow.user_id == user_id, SeriesOutboxRow.read_at.is_(None)
        )
        if ids is not None:
            statement = statement.where(SeriesOutboxRow.id.in_(ids))
        result = session.execute(statement.values(read_at=at))
        return int(getattr(result, "rowcount", 0) or 0)


def preferences(store: Store, user_id: int) -> Preferences:
    with store.reading() as session:
        row = session.get(NotificationPrefsRow, user_id)
        if row is None:
            return Preferences("", ())
        return Preferences(row.email, tuple(kind for kind in KINDS if kind in row.muted))


def set_preferences(store: Store, user_id: int, email: str, mailed: list[str]) -> Preferences:
    """The user's address and the kinds mailed (the others muted); refused when bad."""
    address = email.strip()
    if len(address) > MAX_EMAIL:
        raise RuleError(f"an e-mail address is at most {MAX_EMAIL} characters long")
    if address and ("@" not in address or any(c.isspace() for c in address)):
        raise RuleError(f"{address} is not an e-mail address")
    unknown = [kind for kind in mailed if kind not in KINDS]
    if unknown:
        raise RuleError(f"{unknown[0]} is not a kind of notification")
    muted = [kind for kind in KINDS if kind not in mailed]
    with store.transaction() as session:
        row = session.get(NotificationPrefsRow, user_id)
        if row is None:
            session.add(NotificationPrefsRow(user_id=user_id, email=address, muted=muted))
        else:
            row.email, row.muted = address, muted
    return Preferences(address, tuple(muted))
