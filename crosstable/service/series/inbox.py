"""A user's in-site notifications and choices: what the
notifications page and its API read and write (the web layer calls only these).

Every outbox row of the user is an in-site notification, mailed or not (no address,
unsubscribed, given up); ``read_at`` marks it read. The user's choices live in
``notification_prefs``: the address the sender mails to and the kinds not mailed.

The choices per channel (the notifications' settings page): a kind is mailed unless
its bare name is in ``muted`` (what the mail sender reads), shown in the site unless
``site:<kind>`` is, and sent to Telegram unless ``telegram:<kind>`` is — one list, no
schema change, and the sender's reading of ``muted`` stays as it was.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select, update

from crosstable.core.errors import RuleError
from crosstable.service.series.mail_text import LANGUAGE_KEY, LANGUAGES
from crosstable.service.series.sender import KINDS, one_address

__all__ = ["KINDS", "Notification", "Preferences"]
from crosstable.service.series.shown import JsonObject
from crosstable.store import Store
from crosstable.store.models import PreferenceRow
from crosstable.store.series_models import NotificationPrefsRow, SeriesOutboxRow

MAX_EMAIL = 320
#: what separates addresses in a list: a setting holds one address
SEPARATORS = (",", ";")
#: the channels a user chooses per kind (e-mail, the in-site list, Telegram)
CHANNELS = ("email", "site", "telegram")


@dataclass(frozen=True)
class Notification:
    id: int
    kind: str
    #: what the notification says, by kind (a stored JSON payload, free-form by kind)
    payload: JsonObject
    created_at: str
    read: bool
    mailed: bool

    def as_dict(self) -> JsonObject:
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
    #: ``channel:kind`` entries for the site and Telegram (the kinds not delivered there)
    off: tuple[str, ...] = ()

    @property
    def mailed(self) -> tuple[str, ...]:
        return tuple(kind for kind in KINDS if kind not in self.muted)

    def receives(self, channel: str, kind: str) -> bool:
        """Whether ``kind`` goes to ``channel`` (email, site, telegram)."""
        if channel == "email":
            return kind not in self.muted
        return f"{channel}:{kind}" not in self.off


def _off_entries(muted: list[str]) -> tuple[str, ...]:
    return tuple(
        f"{channel}:{kind}"
        for channel in CHANNELS[1:]
        for kind in KINDS
        if f"{channel}:{kind}" in muted
    )


def _hidden(store: Store, user_id: int) -> list[str]:
    """The kinds the user does not want in the site's list."""
    prefs = preferences(store, user_id)
    return [kind for kind in KINDS if not prefs.receives("site", kind)]


def notifications(store: Store, user_id: int, *, limit: int = 100) -> list[Notification]:
    """The user's notifications, newest first."""
    with store.reading() as session:
        query = (
            select(SeriesOutboxRow)
            .where(SeriesOutboxRow.user_id == user_id)
            .where(SeriesOutboxRow.kind.notin_(_hidden(store, user_id)))
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
    """The user's unread notifications (of the kinds shown in the site)."""
    hidden = _hidden(store, user_id)
    with store.reading() as session:
        query = select(func.count()).where(
            SeriesOutboxRow.user_id == user_id,
            SeriesOutboxRow.read_at.is_(None),
            SeriesOutboxRow.kind.notin_(hidden),
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
        return Preferences(
            row.email,
            tuple(kind for kind in KINDS if kind in row.muted),
            _off_entries(list(row.muted)),
        )


def checked_address(text: str) -> str:
    """The one e-mail address ``text`` is, as the sender mails to it ("" for none);
    a RuleError naming it when it is anything else.

    Checked with ``email-validator`` (syntax only: no DNS look-up), which refuses a
    display name, angle brackets, a comment, a quoted local part and a domain without a
    dot; the local part is ASCII (SMTPUTF8 is not assumed of the site's mail server),
    an internationalised domain is kept in its ASCII (``xn--``) form."""
    address = text.strip()
    if not address:
        return ""
    if len(address) > MAX_EMAIL:
        raise RuleError("an e-mail address is at most {count} characters long", count=MAX_EMAIL)
    if any(mark in address for mark in SEPARATORS) and address.count("@") > 1:
        raise RuleError("one e-mail address only, not several: {address}", address=address)
    try:
        valid = validate_email(address, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError:
        valid = None
    checked = None if valid is None or valid.ascii_email is None else valid.ascii_email
    if checked is None or one_address(checked) != checked:
        raise RuleError(
            "{address} is not an e-mail address",
            address=address,
        )
    return checked


def set_preferences(
    store: Store,
    user_id: int,
    email: str,
    mailed: list[str],
    *,
    channels: dict[str, list[str]] | None = None,
) -> Preferences:
    """The user's address and the kinds mailed (the others muted); refused when bad.

    ``channels`` maps ``site`` and ``telegram`` to the kinds delivered there (the
    others are not); without it those choices stay as they were."""
    address = checked_address(email)
    unknown = [kind for kind in mailed if kind not in KINDS]
    if unknown:
        raise RuleError("{kind} is not a kind of notification", kind=unknown[0])
    for channel, kinds in (channels or {}).items():
        if channel not in CHANNELS[1:]:
            raise RuleError("{channel} is not a channel of notifications", channel=channel)
        unknown = [kind for kind in kinds if kind not in KINDS]
        if unknown:
            raise RuleError("{kind} is not a kind of notification", kind=unknown[0])
    muted = [kind for kind in KINDS if kind not in mailed]
    with store.transaction() as session:
        row = session.get(NotificationPrefsRow, user_id)
        kept = list(_off_entries(list(row.muted))) if row is not None else []
        if channels is not None:
            kept = [e for e in kept if e.split(":", 1)[0] not in channels]
            for channel, kinds in channels.items():
                kept += [f"{channel}:{kind}" for kind in KINDS if kind not in kinds]
        stored = muted + kept
        if row is None:
            session.add(NotificationPrefsRow(user_id=user_id, email=address, muted=stored))
        else:
            row.email, row.muted = address, stored
    return Preferences(address, tuple(muted), _off_entries(stored))


def language(store: Store, user_id: int) -> str | None:
    """The language the user chose for mails and Telegram (None: the site's default)."""
    with store.reading() as session:
        row = session.get(PreferenceRow, LANGUAGE_KEY.format(user=user_id))
        return row.value if row is not None and row.value in LANGUAGES else None


def set_language(store: Store, user_id: int, chosen: str | None) -> None:
    """The user's language for mails and Telegram (None or "": the site's default)."""
    if chosen and chosen not in LANGUAGES:
        raise RuleError("{language} is not a language of the site (en, ru)", language=chosen)
    key = LANGUAGE_KEY.format(user=user_id)
    with store.transaction() as session:
        row = session.get(PreferenceRow, key)
        if not chosen:
            if row is not None:
                session.delete(row)
        elif row is None:
            session.add(PreferenceRow(key=key, value=chosen))
        else:
            row.value = chosen
