"""The series' record and its notifications, written in the caller's transaction.

:func:`record` appends one line to ``series_events`` (the series' history); a
time-driven step passes its ``step`` key, unique in the table, so the same step
can never be recorded twice. :func:`notify` writes an outbox row in the same
transaction as the change that causes it; its ``dedupe_key`` is unique, so a
notification is queued at most once whatever runs the step. The senders (sender.py,
telegram_sender.py) read the unsent rows, deliver them and set ``sent_at``.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.service.read_views import JsonObject
from crosstable.store.series_models import SeriesEventRow, SeriesOutboxRow, SeriesRegistrationRow


def record(
    session: Session,
    series_id: int,
    edition_id: int | None,
    kind: str,
    summary: str,
    *,
    at: str,
    actor: str = "",
    data: JsonObject | None = None,
    step: str | None = None,
) -> None:
    """One line of the series' history."""
    session.add(
        SeriesEventRow(
            series_id=series_id,
            edition_id=edition_id,
            at=at,
            actor=actor,
            kind=kind,
            summary=summary,
            data=data or {},
            step=step,
        )
    )


def step_done(session: Session, step: str) -> bool:
    """The time-driven step ``step`` was recorded already."""
    query = select(SeriesEventRow.id).where(SeriesEventRow.step == step)
    return session.scalars(query).first() is not None


def notify(
    session: Session,
    registration: SeriesRegistrationRow,
    kind: str,
    dedupe_key: str,
    payload: JsonObject,
    *,
    at: str,
) -> None:
    """Queue a notification to a registered player (skipped if the key is queued)."""
    notify_user(session, registration.user_id, registration.name, kind, dedupe_key, payload, at=at)


def notify_user(
    session: Session,
    user_id: int | None,
    recipient: str,
    kind: str,
    dedupe_key: str,
    payload: JsonObject,
    *,
    at: str,
) -> None:
    """Queue a notification to an account or a name (skipped if the key is queued)."""
    query = select(SeriesOutboxRow.id).where(SeriesOutboxRow.dedupe_key == dedupe_key)
    if session.scalars(query).first() is not None:
        return
    session.add(
        SeriesOutboxRow(
            user_id=user_id,
            recipient=recipient,
            kind=kind,
            payload=payload,
            created_at=at,
            sent_at=None,
            attempts=0,
            dedupe_key=dedupe_key,
        )
    )


def outbox(session: Session, *, unsent_only: bool = False) -> list[SeriesOutboxRow]:
    """The outbox in the order it was written."""
    query = select(SeriesOutboxRow).order_by(SeriesOutboxRow.id)
    if unsent_only:
        query = query.where(SeriesOutboxRow.sent_at.is_(None))
    return list(session.scalars(query))
