"""Signing in with Telegram (seed 003's app lives in Telegram): the login
widget's data checked exactly as Telegram documents it
(https://core.telegram.org/widgets/login, "Checking authorization"), and an account
linked with one Telegram user.

* **The fields** (:func:`login_data`, :func:`check_fields`): only the widget's fields,
  each at most once; ``hash`` is 64 hexadecimal digits, ``id`` and ``auth_date`` are
  ASCII digits within range, no value is longer than :data:`MAX_FIELD` or has control
  characters. Anything else is a RuleError naming the field (the web answers 400), never
  a TypeError from the comparison.
* **The signature**: the *data-check-string* is every received field but ``hash``,
  sorted by name, written ``key=value`` and joined by a line feed (``\\n``); the
  secret key is SHA-256 of the bot's token (the bytes of the digest, not its hex);
  the data are genuine when the hexadecimal HMAC-SHA-256 of the data-check-string
  under that key equals ``hash`` (compared in constant time).
* **Freshness**: ``auth_date`` (Unix seconds) at most :func:`login_max_age` old
  (``CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE`` seconds, 300 by default, at most a day) and not
  more than :data:`SKEW` in the future, by the service's clock.
* **Once** (:func:`use_once`): the SHA-256 of an accepted payload is kept in
  ``used_signatures`` (an ``INSERT … ON CONFLICT DO NOTHING``, so two processes on one
  database accept it once between them) until it could no longer be fresh; older rows
  are deleted at each use. A login link from a browser's history or a log is refused.
* **Started here** (:func:`start`, :func:`take_state`): the Telegram page gives the
  browser a one-time state (kept in its signed session cookie, bound to the account or
  to "signed out", :data:`STATE_AGE` at most) that the widget's return address carries;
  the web layer signs in or links only when the state matches, and forgets it at the
  first callback. A link made by someone else (the account-takeover attack: a signed-in
  user opening an attacker's signed login link) or a cross-site GET changes nothing.
* **Linking**: one Telegram user links one account and one account one Telegram user;
  a Telegram user not linked yet who signs in without an account gets a new account
  named :func:`~crosstable.service.accounts.users.telegram_username` (``tg:<id>``: the
  colon is refused in names people choose, so nobody can take it first), the Telegram
  name shown. Signing in never links an existing account. The site's own accounts,
  guests and players without Telegram are unchanged.

The bot's token comes from the configuration (``CROSSTABLE_TELEGRAM_BOT_TOKEN``) and
never from the request.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from crosstable.core.errors import RuleError
from crosstable.service.accounts.users import telegram_username
from crosstable.store import Store
from crosstable.store.telegram_models import TelegramLinkRow, UsedSignatureRow

#: how old a login may be unless ``CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE`` says otherwise,
#: the most that setting may say, and how far in the future a clock may be
MAX_AGE = dt.timedelta(seconds=300)
LONGEST_AGE = dt.timedelta(days=1)
SKEW = dt.timedelta(seconds=60)
#: how long the Telegram page's state is good for, and how long a page reuses it (two
#: tabs of one browser share it)
STATE_AGE = dt.timedelta(minutes=15)
STATE_REUSE = dt.timedelta(minutes=5)
#: where the state lives in the session
STATE_KEY = "telegram_state"
#: the kind of a used payload in ``used_signatures``
KIND = "telegram-login"
#: the fields the widget sends (others are refused: they would not be signed by Telegram)
FIELDS = ("id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash")
MAX_FIELD = 512
_HASH = re.compile(r"[0-9a-fA-F]{64}")
_DIGITS = re.compile(r"[0-9]{1,19}")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
#: ``auth_date`` past this (the year 5138) is no date at all
_LAST_STAMP = 10**11


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


def login_max_age(env: Mapping[str, str] | None = None) -> dt.timedelta:
    """How old a login may be: ``CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE`` seconds (a positive
    whole number, at most a day), else :data:`MAX_AGE`."""
    raw = (os.environ if env is None else env).get("CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE", "")
    raw = raw.strip()
    if not _DIGITS.fullmatch(raw) or int(raw) == 0:
        return MAX_AGE
    return min(dt.timedelta(seconds=int(raw)), LONGEST_AGE)


def login_data(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The fields of a login callback's query, each at most once (a field given twice
    is refused: which of the two would the signature be checked on?)."""
    data: dict[str, str] = {}
    for key, value in pairs:
        if key in data:
            if key in FIELDS:
                raise RuleError("Telegram login: the field {field} is given twice", field=key)
            raise RuleError("Telegram login: unexpected field {field}", field=repr(key[:40]))
        data[key] = value
    return data


def check_fields(data: Mapping[str, str]) -> None:
    """A RuleError naming the first malformed field: an unknown or missing one, one too
    long or with control characters, a ``hash`` that is not 64 hexadecimal digits, an
    ``id`` or ``auth_date`` that is not a whole number in range (ASCII digits only:
    ``int()`` would read " 12", "1_2" and "١٢")."""
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
    for key in FIELDS:
        if _CONTROLS.search(data.get(key, "")):
            raise RuleError("Telegram login: the field {field} has control characters", field=key)
        if _SURROGATES.search(data.get(key, "")):
            raise RuleError("Telegram login: the field {field} is not valid text", field=key)
    if not _HASH.fullmatch(data["hash"]):
        raise RuleError("Telegram login: hash is not 64 hexadecimal digits")
    for key, last in (("id", 2**63 - 1), ("auth_date", _LAST_STAMP)):
        if not _DIGITS.fullmatch(data[key]) or int(data[key]) > last:
            raise RuleError("Telegram login: {field} is not a whole number", field=key)


def verify_login(
    data: Mapping[str, str],
    token: str,
    now: dt.datetime,
    max_age: dt.timedelta | None = None,
) -> TelegramUser:
    """The Telegram user of well-formed, genuine, fresh login data; a RuleError saying
    what is wrong. ``max_age`` defaults to :func:`login_max_age`."""
    if not token:
        raise RuleError("signing in with Telegram is not set up on this site")
    check_fields(data)
    if not hmac.compare_digest(signature(data, token), data["hash"].lower()):
        raise RuleError("Telegram login: the signature does not match (not sent by Telegram)")
    oldest = login_max_age() if max_age is None else max_age
    when = dt.datetime.fromtimestamp(int(data["auth_date"]), dt.UTC)
    if now - when > oldest:
        raise RuleError(
            "Telegram login: it is more than {seconds} seconds old; sign in with Telegram again",
            seconds=int(oldest.total_seconds()),
        )
    if when - now > SKEW:
        raise RuleError("Telegram login: auth_date is in the future")
    return TelegramUser(
        int(data["id"]),
        data.get("first_name", ""),
        data.get("last_name", ""),
        data.get("username", ""),
        when,
    )


def payload_digest(data: Mapping[str, str], kind: str = KIND) -> str:
    """The SHA-256 (hex) that stands for a signed payload in ``used_signatures``: its
    kind, data-check-string and hash (in small letters: "AB…" and "ab…" are one)."""
    text = f"{kind}\n{data_check_string(data)}\nhash={data.get('hash', '').lower()}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def use_once(
    store: Store,
    data: Mapping[str, str],
    now: dt.datetime,
    env: Mapping[str, str] | None = None,
    kind: str = KIND,
) -> None:
    """Mark a verified payload used; a RuleError if it was used before (by any process
    on the database). Rows that could no longer be fresh are deleted first; ``kind``
    tells the login widget's payloads from the Mini App's."""
    at = now.astimezone(dt.UTC)
    stale = at - login_max_age(env) - SKEW
    insert: Any = pg_insert if store.dialect == "postgresql" else sqlite_insert
    statement = (
        insert(UsedSignatureRow)
        .values(digest=payload_digest(data, kind), kind=kind, used_at=_stamp(at))
        .on_conflict_do_nothing()
        .returning(UsedSignatureRow.digest)
    )
    with store.transaction() as session:
        session.execute(delete(UsedSignatureRow).where(UsedSignatureRow.used_at < _stamp(stale)))
        fresh = session.execute(statement).first()
    if fresh is None:
        raise RuleError("Telegram login: this login was already used; sign in with Telegram again")


def _stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


def start(session: MutableMapping[str, object], user_id: int | None, now: dt.datetime) -> str:
    """The one-time state of a sign-in started on the Telegram page, kept in the
    browser's (signed) session for the account (0: signed out); a state made less than
    :data:`STATE_REUSE` ago for the same account is given again."""
    at = int(now.timestamp())
    kept = session.get(STATE_KEY)
    if (
        isinstance(kept, dict)
        and kept.get("user") == (user_id or 0)
        and isinstance(kept.get("at"), int)
        and 0 <= at - kept["at"] < STATE_REUSE.total_seconds()
        and isinstance(kept.get("value"), str)
    ):
        return str(kept["value"])
    value = secrets.token_urlsafe(32)
    session[STATE_KEY] = {"value": value, "user": user_id or 0, "at": at}
    return value


def take_state(
    session: MutableMapping[str, object], given: str | None, user_id: int | None, now: dt.datetime
) -> bool:
    """Whether ``given`` is the browser's state for this account, not older than
    :data:`STATE_AGE`; the state is forgotten whatever the answer (checked once)."""
    kept = session.pop(STATE_KEY, None)
    if not isinstance(kept, dict) or not given or not given.isascii() or len(given) > 100:
        return False
    value, made = kept.get("value"), kept.get("at")
    if not isinstance(value, str) or not isinstance(made, int):
        return False
    if kept.get("user") != (user_id or 0):
        return False
    if not 0 <= int(now.timestamp()) - made <= STATE_AGE.total_seconds():
        return False
    return hmac.compare_digest(value.encode("ascii", "replace"), given.encode("ascii"))


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
    (user name ``tg:<id>``, which nobody can choose) linked now — never another existing
    account."""
    found = account_of(store, who.id)
    if found is not None:
        link(store, found, who, now)  # the names as Telegram has them now
        return found
    create = accounts.create_user
    user = create(
        telegram_username(who.id),
        secrets.token_urlsafe(24),
        display_name=(who.name or who.label)[:200],  # the column's width (Telegram's: 2×512)
        derived=True,
    )
    link(store, int(user.id), who, now)
    return int(user.id)
