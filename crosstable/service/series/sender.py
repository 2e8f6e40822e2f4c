"""The outbox's sender: every due notification mailed once.

A row is *due* when it is not sent, not given up and its ``next_try_at`` (if any) has
come. :func:`send_due` takes due rows one at a time, each in its own write
transaction: the row is claimed with ``SELECT … FOR UPDATE SKIP LOCKED`` on
PostgreSQL (a second sender skips it and takes the next one; on SQLite the write
transaction's ``BEGIN IMMEDIATE`` lets one sender in at a time), delivered over
SMTP (the standard library's :mod:`smtplib`) and marked sent in that same
transaction, so a row is never mailed twice by two senders. A refused or failed
delivery counts an attempt and sets ``next_try_at`` to now + ``base_delay`` ×
2^(attempts − 1); after ``max_attempts`` the row is given up (``gave_up_at``, the
last error kept). A recipient without an e-mail address, or who unsubscribed from
the kind, is marked sent with ``mail_skipped`` (the in-site notification stands).

Recipients: a mail goes to exactly one address, the one stored in the
user's choices (``notification_prefs.email``, checked when it is set: one address,
``email-validator`` on the web's surfaces, :func:`one_address` here), never to anything
read from text shown to people (a registration's name). The envelope's recipient is
given to SMTP explicitly, and the ``To`` header is built with the standard library's
:class:`~email.headerregistry.Address`, so no header can add a recipient. An address
stored before the check that is not one plain address (``a@x,b@y``, ``Eve <e@x>``,
a non-ASCII one) is not mailed: the row is kept without mail, the reason in
``last_error`` and among the errors reported (``crosstable tick --send`` prints them).

A crash between the SMTP server's acceptance and the commit can still repeat one
mail at the next pass (at-least-once at that single moment; SMTP offers no
transaction with the database).

Settings come from :meth:`MailSettings.from_env`: ``CROSSTABLE_SMTP_HOST`` (no
host: no mail is sent), ``CROSSTABLE_SMTP_PORT`` (25), ``CROSSTABLE_SMTP_FROM``,
``CROSSTABLE_SMTP_STARTTLS`` (1/true), ``CROSSTABLE_SMTP_USER`` /
``CROSSTABLE_SMTP_PASSWORD``, ``CROSSTABLE_BASE_URL`` and ``CROSSTABLE_SECRET`` (the
unsubscribe link's address and signing key).
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import hashlib
import hmac
import os
import smtplib
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.service.clock import Clock
from crosstable.service.series.courier import Courier
from crosstable.service.series.delivery import DeliveryError, Retries, Skipped, deliver_due
from crosstable.service.series.mail_text import (
    DEFAULT,
    SUBJECTS,
    Context,
    context_of,
    language_of,
    letter,
    site_language,
    unsubscribe_line,
)
from crosstable.store import Store
from crosstable.store.series_models import NotificationPrefsRow, SeriesOutboxRow

#: the kinds a user may choose (the outbox's kinds; "news" is written by the news feed)
#: long unsubscribe links stay one line (RFC 5322 allows 998 characters)
MAIL_POLICY = SMTP.clone(max_line_length=998)
KINDS = (
    "registered",
    "start-moved",
    "stage-starts",
    "qualified",
    "eliminated",
    "news",
    "petition-accepted",
    "petition-refused",
    "round-starts",
    "start-waits",
    "results-missing",
)
__all__ = ["KINDS", "SUBJECTS", "MailSettings", "compose", "one_address", "send_due"]

#: the longest address (RFC 5321's path limit; the settings' field has the same bound)
MOST = 320
#: why a stored address is not mailed (kept on the row, reported by the sender)
NOT_ONE = "the stored e-mail address is not one address: mail skipped"


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int = 25
    sender: str = "crosstable@localhost"
    starttls: bool = False
    username: str = ""
    password: str = ""
    max_attempts: int = 5
    base_delay: dt.timedelta = dt.timedelta(minutes=1)
    base_url: str = ""
    secret: str = ""
    timeout: float = 30.0
    #: the language of a recipient who chose none (``CROSSTABLE_LANGUAGE``, read also
    #: when the settings are made by hand, as ``tick --send --smtp-host`` makes them)
    language: str = field(default_factory=lambda: site_language(os.environ))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings | None:
        """The settings from the environment; None when no SMTP host is set."""
        values = os.environ if env is None else env
        host = values.get("CROSSTABLE_SMTP_HOST", "").strip()
        if not host:
            return None
        return cls(
            host=host,
            port=int(values.get("CROSSTABLE_SMTP_PORT", "25")),
            sender=values.get("CROSSTABLE_SMTP_FROM", "crosstable@localhost"),
            starttls=values.get("CROSSTABLE_SMTP_STARTTLS", "").lower() in ("1", "true", "yes"),
            username=values.get("CROSSTABLE_SMTP_USER", ""),
            password=values.get("CROSSTABLE_SMTP_PASSWORD", ""),
            base_url=values.get("CROSSTABLE_BASE_URL", "").rstrip("/"),
            secret=values.get("CROSSTABLE_SECRET", ""),
            language=site_language(values),
        )


@dataclass
class SendReport:
    sent: int = 0
    skipped: int = 0
    failed: int = 0
    gave_up: int = 0
    errors: list[str] = field(default_factory=list)


def unsubscribe_token(secret: str, user_id: int, kind: str) -> str:
    """A signed token naming the user and the kind (HMAC-SHA256 over both)."""
    body = f"{user_id}:{kind}"
    mac = hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()[:32]
    return base64.urlsafe_b64encode(f"{body}:{mac}".encode()).decode().rstrip("=")


def read_unsubscribe_token(secret: str, token: str) -> tuple[int, str] | None:
    """The user and kind of a token signed with ``secret``; None when it is not genuine."""
    try:
        padded = token + "=" * (-len(token) % 4)
        user, kind, mac = base64.urlsafe_b64decode(padded.encode()).decode().split(":")
        user_id = int(user)
    except (ValueError, UnicodeDecodeError):
        return None
    expected = unsubscribe_token(secret, user_id, kind)
    if kind not in KINDS or not hmac.compare_digest(expected, token.rstrip("=")):
        return None
    _ = mac
    return user_id, kind


def one_address(stored: str) -> str | None:
    """The one plain ASCII address ``stored`` is (``name@example.org``), as SMTP's
    envelope takes it; None for anything else: several addresses, a display name, a
    comment, spaces or control characters, non-ASCII text, an empty part."""
    text = stored.strip()
    if not text or len(text) > MOST or not text.isascii() or not text.isprintable():
        return None
    if any(c.isspace() for c in text):
        return None
    try:
        address = Address(addr_spec=text)
    except (ValueError, IndexError, HeaderParseError):
        return None
    if not address.username or not address.domain or address.addr_spec != text:
        return None
    return text


def set_address(store: Store, user_id: int, email: str) -> None:
    """The user's e-mail address for notifications ("" removes it); one address only
    (the web's settings check it further with ``email-validator``)."""
    address = email.strip()
    if address and one_address(address) is None:
        raise RuleError(
            "{address} is not an e-mail address",
            address=address,
        )
    with store.transaction() as session:
        prefs = session.get(NotificationPrefsRow, user_id)
        if prefs is None:
            session.add(NotificationPrefsRow(user_id=user_id, email=address, muted=[]))
        else:
            prefs.email = address


def unsubscribe(store: Store, user_id: int, kind: str) -> None:
    """No more mail of ``kind`` to the user (the in-site list still shows it)."""
    with store.transaction() as session:
        prefs = session.get(NotificationPrefsRow, user_id)
        if prefs is None:
            session.add(NotificationPrefsRow(user_id=user_id, email="", muted=[kind]))
        elif kind not in prefs.muted:
            prefs.muted = [*prefs.muted, kind]


def _claim(session: Session, now: str, skip_locked: bool) -> SeriesOutboxRow | None:
    query = (
        select(SeriesOutboxRow)
        .where(
            SeriesOutboxRow.sent_at.is_(None),
            SeriesOutboxRow.gave_up_at.is_(None),
            or_(SeriesOutboxRow.next_try_at.is_(None), SeriesOutboxRow.next_try_at <= now),
        )
        .order_by(SeriesOutboxRow.id)
        .limit(1)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    return session.scalars(query).first()


def _address(session: Session, row: SeriesOutboxRow) -> tuple[str, NotificationPrefsRow | None]:
    """The address stored in the user's choices ("" when none); never the row's
    ``recipient``, which is a name shown to people."""
    prefs = session.get(NotificationPrefsRow, row.user_id) if row.user_id is not None else None
    return (prefs.email.strip() if prefs is not None else ""), prefs


def compose(
    row: SeriesOutboxRow,
    address: str,
    settings: MailSettings,
    *,
    language: str = DEFAULT,
    context: Context | None = None,
) -> EmailMessage:
    """The mail for one outbox row in ``language`` (mail_text.py writes it), with its
    unsubscribe link when the site is known."""
    written = letter(
        row.kind, row.payload, language=language, context=context, base_url=settings.base_url
    )
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = settings.sender
    message["To"] = Address(addr_spec=address)  # one address: a name cannot add another
    message["Subject"] = written.subject
    lines = [written.subject, "", *written.lines]
    if settings.base_url and settings.secret and row.user_id is not None:
        token = unsubscribe_token(settings.secret, row.user_id, row.kind)
        link = f"{settings.base_url}/notifications/unsubscribe/{token}"
        lines += ["", unsubscribe_line(link, language)]
        message["List-Unsubscribe"] = f"<{link}>"
    message.set_content("\n".join(lines) + "\n")
    message["Content-Language"] = language  # (set_content replaces the Content- headers)
    return message


def _row_id(row: SeriesOutboxRow) -> int:
    return row.id


def send_due(store: Store, clock: Clock, settings: MailSettings, *, limit: int = 500) -> SendReport:
    """Deliver up to ``limit`` due outbox rows; what happened, counted."""

    def send(session: Session, row: SeriesOutboxRow) -> bool:
        stored, prefs = _address(session, row)
        if not stored or (prefs is not None and row.kind in prefs.muted):
            row.mail_skipped = True
            return False
        address = one_address(stored)
        if address is None:  # stored before addresses were checked: not guessed at
            row.mail_skipped = True
            raise Skipped(NOT_ONE)
        language = language_of(session, row.user_id, settings.language)
        try:
            mail = compose(
                row, address, settings, language=language, context=context_of(session, row.payload)
            )
        except ValueError as error:  # a header the mail cannot carry: retrying cannot help
            raise DeliveryError(f"the mail cannot be written: {error}", final=True) from None
        try:
            courier.deliver(mail, address)
        except (smtplib.SMTPException, OSError) as error:
            raise DeliveryError(f"{type(error).__name__}: {error}") from None
        return True

    retries = Retries(settings.max_attempts, settings.base_delay)
    with contextlib.closing(Courier(settings)) as courier:  # (one connection for the pass)
        counts = deliver_due(store, clock, _claim, send, retries, label=_row_id, limit=limit)
    return SendReport(counts.sent, counts.skipped, counts.failed, counts.gave_up, counts.errors)
