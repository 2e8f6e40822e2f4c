"""The one retry loop of the outbox's channels (e-mail, Telegram): each due delivery
taken in its own write transaction, sent, and marked sent in that same transaction.

A channel gives :func:`deliver_due` how to *claim* the next due row (``SELECT … FOR
UPDATE SKIP LOCKED`` on PostgreSQL: a second sender skips a row being sent and takes
the next; SQLite's ``BEGIN IMMEDIATE`` lets one writer in) and how to *send* it. A
failed send raises :class:`DeliveryError`: an attempt is counted, the error kept,
and the row waits ``base_delay × 2^(attempts − 1)`` — or the ``retry_after`` the
other side asked for — until ``max_attempts``, or is given up at once when the
failure is ``final`` (retrying cannot help). A send that raises :class:`Skipped` marks
the row sent without delivery, its reason kept in ``last_error``, logged and counted in
the errors reported. A row both channels keep has
``attempts``, ``last_error``, ``next_try_at``, ``sent_at`` and ``gave_up_at``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.orm import Session

from crosstable.service.clock import Clock
from crosstable.store import Store

log = logging.getLogger(__name__)


class Delivery(Protocol):
    attempts: int
    last_error: str
    next_try_at: str | None
    sent_at: str | None
    gave_up_at: str | None


class DeliveryError(Exception):
    """The channel refused or did not answer; ``retry_after`` seconds when it said so,
    ``final`` when retrying cannot help."""

    def __init__(self, text: str, *, retry_after: int | None = None, final: bool = False):
        super().__init__(text)
        self.retry_after = retry_after
        self.final = final


class Skipped(Exception):  # noqa: N818 - a signal, not an error
    """Nothing may be sent for this row, for a reason worth keeping (an address that is
    not one address): marked sent without delivery, the reason kept and reported."""


@dataclass(frozen=True)
class Retries:
    max_attempts: int = 5
    base_delay: dt.timedelta = dt.timedelta(minutes=1)


@dataclass
class Counts:
    sent: int = 0
    skipped: int = 0
    failed: int = 0
    gave_up: int = 0
    errors: list[str] = field(default_factory=list)


def iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="seconds")


#: claim(session, now, skip_locked) → the next due row, or None
Claim = Callable[[Session, str, bool], Any]
#: send(session, row) → True when sent, False when skipped (nothing to send: marked sent)
Send = Callable[[Session, Any], bool]


def deliver_due(
    store: Store,
    clock: Clock,
    claim: Claim,
    send: Send,
    retries: Retries,
    *,
    label: Callable[[Any], object],
    limit: int = 500,
) -> Counts:
    """Send up to ``limit`` due rows of one channel; what happened, counted."""
    counts = Counts()
    skip_locked = store.dialect == "postgresql"
    for _ in range(limit):
        now = clock.now()
        with store.transaction() as session:
            row: Delivery | None = claim(session, iso(now), skip_locked)
            if row is None:
                break
            try:
                sent = send(session, row)
            except Skipped as skipped:
                row.sent_at = iso(now)
                row.last_error = str(skipped)[:1000]
                counts.skipped += 1
                counts.errors.append(f"notification {label(row)}: {row.last_error}")
                log.warning("notification %s: %s", label(row), row.last_error)
                continue
            except DeliveryError as error:
                row.attempts += 1
                row.last_error = str(error)[:1000]
                counts.errors.append(f"notification {label(row)}: {row.last_error}")
                if error.final or row.attempts >= retries.max_attempts:
                    row.gave_up_at = iso(now)
                    counts.gave_up += 1
                else:
                    if error.retry_after is not None:
                        delay = dt.timedelta(seconds=max(1, error.retry_after))
                    else:
                        delay = retries.base_delay * (2 ** (row.attempts - 1))
                    row.next_try_at = iso(now + delay)
                    counts.failed += 1
                continue
            row.sent_at = iso(now)
            if sent:
                row.attempts += 1
                counts.sent += 1
            else:
                counts.skipped += 1
    return counts
