"""Signing in from the Telegram Mini App: the ``initData`` that Telegram hands the web
app opened inside it, checked as Telegram documents it
(https://core.telegram.org/bots/webapps, "Validating data received via the Mini App"),
used once, and the player signed in without a password.

* **The text** (:func:`parse_init_data`): a query string of at most :data:`MAX_TEXT`
  characters and :data:`MAX_FIELDS` fields, ``name=value`` pairs separated by ``&``,
  percent-decoded (a ``+`` is a space, as the browser's ``URLSearchParams`` reads it),
  strict UTF-8, each name once, names of small letters and ``_``; no value with a
  control character below U+0020 (JSON escapes them, so Telegram never sends them raw).
  Anything else is a RuleError naming the field (the web answers 400).
* **The fields** (:func:`check_fields`): ``hash`` is 64 hexadecimal digits,
  ``auth_date`` a whole number of seconds, ``user`` a JSON object whose ``id`` is a
  whole number and whose names are texts. Fields Telegram may add later are signed
  like the others and kept in the check.
* **The signature**: the *data-check-string* is every received field but ``hash``
  (``signature``, Telegram's Ed25519 signature for third parties, included), sorted by
  name, written ``key=value`` with the decoded value, joined by a line feed; the secret
  key is the HMAC-SHA-256 of the bot's token under the key ``WebAppData``; the data are
  genuine when the hexadecimal HMAC-SHA-256 of the data-check-string under that secret
  equals ``hash`` (compared in constant time). The login widget's key (SHA-256 of the
  token) does not verify a Mini App's data, nor the other way round.
* **Freshness**: ``auth_date`` at most the login widget's window old
  (``CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE``, 300 s by default) and not more than a
  minute ahead, by the service's clock.
* **Once**: an accepted ``initData`` goes into ``used_signatures`` under its own kind
  (:data:`KIND`), shared by every process on the database; a second use is refused.
* **Signing in**: the account linked with the Telegram user, else a new account
  ``tg:<id>`` linked now, as the login widget does — never another existing account.

The bot's token comes from the configuration (``CROSSTABLE_TELEGRAM_BOT_TOKEN``) and
never from the request.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

from crosstable.core.errors import RuleError
from crosstable.service.series import telegram
from crosstable.store import Store

#: the kind of a used Mini App payload in ``used_signatures``
KIND = "telegram-webapp"
#: the longest ``initData`` read, and the most fields (Telegram sends about ten)
MAX_TEXT = 8192
MAX_FIELDS = 32
#: the constant Telegram keys the bot token with to make the secret
WEB_APP_DATA = b"WebAppData"
_NAME = re.compile(r"[a-z_]{1,40}")
_HASH = re.compile(r"[0-9a-fA-F]{64}")
_DIGITS = re.compile(r"[0-9]{1,19}")
#: the characters JSON must escape (a genuine payload never has them raw)
_CONTROLS = re.compile(r"[\x00-\x1f]")
_LAST_STAMP = 10**11
_LARGEST_ID = 2**63 - 1


def parse_init_data(raw: str) -> dict[str, str]:
    """The fields of an ``initData`` text; a RuleError naming what is wrong."""
    if not raw:
        raise RuleError("Telegram Mini App: no initData was sent; open the app from Telegram")
    if len(raw) > MAX_TEXT:
        raise RuleError(
            "Telegram Mini App: initData is longer than {count} characters", count=MAX_TEXT
        )
    pairs = raw.split("&")
    if len(pairs) > MAX_FIELDS:
        raise RuleError(
            "Telegram Mini App: initData has more than {count} fields", count=MAX_FIELDS
        )
    data: dict[str, str] = {}
    for pair in pairs:
        name, equals, encoded = pair.partition("=")
        if not equals or not _NAME.fullmatch(name):
            raise RuleError(
                "Telegram Mini App: initData has a malformed field {field}",
                field=repr(pair[:40]),
            )
        if name in data:
            raise RuleError("Telegram Mini App: the field {field} is given twice", field=name)
        try:
            value = unquote_plus(encoded, errors="strict")
        except UnicodeDecodeError:
            raise RuleError(
                "Telegram Mini App: the field {field} is not valid text", field=name
            ) from None
        if _CONTROLS.search(value):
            raise RuleError(
                "Telegram Mini App: the field {field} has control characters", field=name
            )
        data[name] = value
    return data


def check_fields(data: Mapping[str, str]) -> None:
    """A RuleError naming the first malformed field of parsed ``initData``."""
    for key in ("hash", "auth_date", "user"):
        if not data.get(key):
            raise RuleError("Telegram Mini App: the field {field} is missing", field=key)
    if not _HASH.fullmatch(data["hash"]):
        raise RuleError("Telegram Mini App: hash is not 64 hexadecimal digits")
    stamp = data["auth_date"]
    if not _DIGITS.fullmatch(stamp) or int(stamp) > _LAST_STAMP:
        raise RuleError("Telegram Mini App: {field} is not a whole number", field="auth_date")
    user_of(data)


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """Telegram's WebAppUser object as the Mini App's data give it (the fields read)."""

    id: int
    first_name: str = ""
    last_name: str = ""
    username: str = ""


def user_of(data: Mapping[str, str]) -> WebAppUser:
    """The ``user`` field read as Telegram's WebAppUser object (its id a whole number,
    its names texts)."""
    try:
        user = json.loads(data.get("user", ""))
    except (ValueError, RecursionError):
        raise RuleError("Telegram Mini App: the field {field} is not JSON", field="user") from None
    if not isinstance(user, dict):
        raise RuleError("Telegram Mini App: the field {field} is not JSON", field="user")
    number = user.get("id")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= _LARGEST_ID:
        raise RuleError("Telegram Mini App: the user's id is not a whole number")
    for key in ("first_name", "last_name", "username", "language_code"):
        if not isinstance(user.get(key, ""), str):
            raise RuleError("Telegram Mini App: the user's {field} is not a text", field=key)
    return WebAppUser(
        number, user.get("first_name", ""), user.get("last_name", ""), user.get("username", "")
    )


def secret_key(token: str) -> bytes:
    """The HMAC-SHA-256 of the bot's token, keyed by ``WebAppData``."""
    return hmac.new(WEB_APP_DATA, token.encode("utf-8"), hashlib.sha256).digest()


def signature(data: Mapping[str, str], token: str) -> str:
    """The hexadecimal HMAC-SHA-256 of the data-check-string under :func:`secret_key`."""
    message = telegram.data_check_string(data).encode("utf-8")
    return hmac.new(secret_key(token), message, hashlib.sha256).hexdigest()


def verify_init_data(
    raw: str,
    token: str,
    now: dt.datetime,
    max_age: dt.timedelta | None = None,
) -> tuple[dict[str, str], telegram.TelegramUser]:
    """The fields and the Telegram user of a well-formed, genuine, fresh ``initData``;
    a RuleError saying what is wrong. ``max_age`` defaults to the login widget's
    window (:func:`~crosstable.service.series.telegram.login_max_age`)."""
    if not token:
        raise RuleError("signing in with Telegram is not set up on this site")
    data = parse_init_data(raw)
    check_fields(data)
    if not hmac.compare_digest(signature(data, token), data["hash"].lower()):
        raise RuleError("Telegram Mini App: the signature does not match (not sent by Telegram)")
    oldest = telegram.login_max_age() if max_age is None else max_age
    when = dt.datetime.fromtimestamp(int(data["auth_date"]), dt.UTC)
    if now - when > oldest:
        raise RuleError(
            "Telegram Mini App: the data are more than {seconds} seconds old; close the app "
            "and open it again from Telegram",
            seconds=int(oldest.total_seconds()),
        )
    if when - now > telegram.SKEW:
        raise RuleError("Telegram Mini App: auth_date is in the future")
    user = user_of(data)
    who = telegram.TelegramUser(
        user.id, user.first_name[:200], user.last_name[:200], user.username[:64], when
    )
    return data, who


def start_path(data: Mapping[str, str]) -> str:
    """Where the Mini App opens: ``start_param`` ``t<id>`` is tournament ``id``'s page,
    anything else the home page (a path of this site only)."""
    start = data.get("start_param", "")
    if re.fullmatch(r"t[0-9]{1,9}", start):
        return f"/t/{int(start[1:])}"
    return "/"


def sign_in(accounts: Any, store: Store, raw: str, token: str, now: dt.datetime) -> tuple[int, str]:
    """The account the Mini App's ``initData`` signs in to (the linked one, else a new
    one) and the path to open; the data are used up. A RuleError when they are
    malformed, forged, stale or used before — and then nothing changes."""
    data, who = verify_init_data(raw, token, now)
    telegram.use_once(store, data, now, kind=KIND)
    return telegram.sign_in(accounts, store, who, now), start_path(data)
