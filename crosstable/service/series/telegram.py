"""Signing in with Telegram (issue 11 item 5; seed 003's app lives in Telegram): the login
widget's data checked exactly as Telegram documents it
(https://core.telegram.org/widgets/login, "Checking authorization"), and an account
linked with one Telegram user.

* **The signature**: the *data-check-string* is every received field but ``hash``,
  sorted by name, written ``key=value`` and joined by a line feed (``\\n``); the
  secret key is SHA-256 of the bot's token (the bytes of the digest, not its hex);
  the data are genuine when the hexadecimal HMAC-SHA-256 of the data-check-string
  under that key equals ``hash`` (compared in constant time).
* **Freshness**: ``auth_date`` (Unix seconds) at most :data:`MAX_AGE` old (a day: a
  replayed link from a browser's history is refused) and not more than
  :data:`SKEW` in the future.
* **Linking**: one Telegram user links one account and one account one Telegram user;
  a Telegram user not linked yet who signs in without an account gets a new account
  (user name ``tg<id>``, the Telegram name shown) — the site's own accounts, guests
  and players without Telegram are unchanged.

The bot's token comes from the configuration (``CROSSTABLE_TELEGRAM_BOT_TOKEN``) and
never from the request.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.store import Store
from crosstable.store.telegram_models import TelegramLinkRow

#: the oldest login accepted, and how far in the future a clock may be
MAX_AGE = dt.timedelta(days=1)
SKEW = dt.timedelta(minutes=5)
#: the fields the widget sends (others are refused: they would not be signed by Telegram)
FIELDS = ("id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash")
MAX_FIELD = 512


@dataclass(frozen=True)
class TelegramUser:
    id: int
    first_name: str
    last_name: str
    username: str
    auth_date: dt.datetime

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    @property
    def label(self) -> str:
        return f"@{self.username}" if self.username else self.name


@dataclass(frozen=True)
class TelegramLink:
    user_id: int
    telegram_id: int
    username: str
    name: str
    linked_at: str

    @property
    def label(self) -> str:
        return f"@{self.username}" if self.username else self.name


def bot_token(env: Mapping[str, str] | None = None) -> str:
    """The bot's token from the configuration ("" when Telegram is not set up)."""
    return (os.environ if env is None else env).get("CROSSTABLE_TELEGRAM_BOT_TOKEN", "").strip()


def data_check_string(data: Mapping[str, str]) -> str:
    """Every field but ``hash``, sorted, ``key=value``, joined by line feeds."""
    return "\n".join(f"{key}={data[key]}" for key in sorted(data) if key != "hash")


def signature(data: Mapping[str, str], token: str) -> str:
    """The hexadecimal HMAC-SHA-256 of the data-check-string, keyed by SHA-256(token)."""
    secret = hashlib.sha256(token.encode("utf-8")).digest()
    message = data_check_string(data).encode("utf-8")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def verify_login(data: Mapping[str, str], token: str, now: dt.datetime) -> TelegramUser:
    """The Telegram user of genuine, fresh login data; a RuleError saying what is wrong."""
    if not token:
        raise RuleError("signing in with Telegram is not set up on this site")
    unknown = sorted(key for key in data if key not in FIELDS)
    if unknown:
        raise RuleError("Telegram login: unexpected field {field}", field=repr(unknown[0][:40]))
    for key in ("id", "auth_date", "hash"):
        if not data.get(key):
            raise RuleError("Telegram login: the field {field} is missing", field=key)
    if any(len(value) > MAX_FIELD for value in data.values()):
        raise RuleError(
            "Telegram login: a field is longer than {count} characters", count=MAX_FIELD
        )
    if not hmac.compare_digest(signature(data, token), data["hash"].lower()):
        raise RuleError("Telegram login: the signature does not match (not sent by Telegram)")
    try:
        user_id = int(data["id"])
        stamp = int(data["auth_date"])
        when = dt.datetime.fromtimestamp(stamp, dt.UTC)
    except (ValueError, OverflowError, OSError):
        raise RuleError("Telegram login: id and auth_date are whole numbers") from None
    if now - when > MAX_AGE:
        raise RuleError("Telegram login: it is more than a day old; sign in with Telegram again")
    if when - now > SKEW:
        raise RuleError("Telegram login: auth_date is in the future")
    return TelegramUser(
        user_id,
        data.get("first_name", ""),
        data.get("last_name", ""),
        data.get("username", ""),
        when,
    )


def _link(row: TelegramLinkRow) -> TelegramLink:
    return TelegramLink(row.user_id, row.telegram_id, row.username, row.name, row.linked_at)


def link_of(store: Store, user_id: int) -> TelegramLink | None:
    """The Telegram user linked with the account, if any."""
    with store.reading() as session:
        row = session.get(TelegramLinkRow, user_id)
        return None if row is None else _link(row)


def account_of(store: Store, telegram_id: int) -> int | None:
    """The account linked with the Telegram user, if any."""
    with store.reading() as session:
        query = select(TelegramLinkRow.user_id).where(TelegramLinkRow.telegram_id == telegram_id)
        return session.scalars(query).first()


def link(store: Store, user_id: int, who: TelegramUser, now: dt.datetime) -> TelegramLink:
    """Link the account with the Telegram user (again: the names refreshed); refused
    when either is linked with another."""
    at = now.astimezone(dt.UTC).isoformat(timespec="seconds")
    with store.transaction() as session:
        query = select(TelegramLinkRow).where(TelegramLinkRow.telegram_id == who.id)
        other = session.scalars(query).first()
        if other is not None and other.user_id != user_id:
            raise RuleError("this Telegram account is linked with another account of the site")
        row = session.get(TelegramLinkRow, user_id)
        if row is not None and row.telegram_id != who.id:
            raise RuleError("your account is linked with another Telegram account; unlink it first")
        if row is None:
            row = TelegramLinkRow(user_id=user_id, telegram_id=who.id, linked_at=at)
            session.add(row)
        row.username, row.name = who.username[:64], who.name[:200]
        session.flush()
        return _link(row)


def unlink(store: Store, user_id: int) -> bool:
    """Remove the account's link; whether there was one."""
    with store.transaction() as session:
        row = session.get(TelegramLinkRow, user_id)
        if row is None:
            return False
        session.delete(row)
        return True


def sign_in(accounts: Any, store: Store, who: TelegramUser, now: dt.datetime) -> int:
    """The account a verified Telegram user signs in to: the linked one, else a new one
    (user name ``tg<id>``) linked now."""
    found = account_of(store, who.id)
    if found is not None:
        link(store, found, who, now)  # the names as Telegram has them now
        return found
    create = accounts.create_user
    user = create(f"tg{who.id}", secrets.token_urlsafe(24), display_name=who.name or who.label)
    link(store, int(user.id), who, now)
    return int(user.id)
