"""The outbox's Telegram channel: every due notification of a
user who linked Telegram sent once, as a message from the site's bot, through the Bot
API's ``sendMessage`` (https://core.telegram.org/bots/api#sendmessage).

* **Who and what**: an outbox row of a user with a Telegram link, written at or after
  the link (older notifications are not replayed into the chat), of a kind the user
  receives on Telegram (``telegram:<kind>`` not muted, the settings page).
* **Once**: a row gets one ``telegram_deliveries`` row (its key is the outbox row, so
  two senders cannot both enqueue it); each delivery is taken in its own write
  transaction (``SELECT … FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite lets one
  writer in), sent and marked sent in that same transaction. As with SMTP, a crash
  after Telegram accepted the message and before the commit sends it again once.
* **Retries**: an answer with ``"ok": false``, an HTTP error or no answer counts an
  attempt and waits ``base_delay × 2^(attempts − 1)`` — or Telegram's
  ``parameters.retry_after`` seconds when it gives one (429) — and after
  ``max_attempts`` the delivery is given up. A 403 (the user blocked the bot) or 400
  (no such chat) is given up at once: retrying cannot help.
* **Settings**: ``CROSSTABLE_TELEGRAM_BOT_TOKEN`` (none: nothing is sent) and
  ``CROSSTABLE_TELEGRAM_API`` (default ``https://api.telegram.org``; the tests point it
  at a loopback server that speaks the Bot API's HTTP interface).

The Bot API client is the standard library's :mod:`urllib` (JSON over HTTPS POST): no
new dependency for one method.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from crosstable.service.clock import Clock
from crosstable.service.series.delivery import DeliveryError, Retries, deliver_due
from crosstable.service.series.mail_text import (
    DEFAULT,
    Context,
    context_of,
    language_of,
    letter,
    site_language,
)
from crosstable.service.telegram_bot import BotJson
from crosstable.store import Store
from crosstable.store.series_models import NotificationPrefsRow, SeriesOutboxRow
from crosstable.store.telegram_models import TelegramDeliveryRow, TelegramLinkRow

DEFAULT_API = "https://api.telegram.org"
#: Telegram's limit for a message's text
MAX_TEXT = 4096


@dataclass(frozen=True)
class TelegramSettings:
    token: str
    api: str = DEFAULT_API
    max_attempts: int = 5
    base_delay: dt.timedelta = dt.timedelta(minutes=1)
    base_url: str = ""
    timeout: float = 30.0
    #: the language of a recipient who chose none (``CROSSTABLE_LANGUAGE``, read also
    #: when the settings are made by hand, as ``tick --send --smtp-host`` makes them)
    language: str = field(default_factory=lambda: site_language(os.environ))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TelegramSettings | None:
        values = os.environ if env is None else env
        token = values.get("CROSSTABLE_TELEGRAM_BOT_TOKEN", "").strip()
        if not token:
            return None
        return cls(
            token=token,
            api=values.get("CROSSTABLE_TELEGRAM_API", DEFAULT_API).rstrip("/") or DEFAULT_API,
            base_url=values.get("CROSSTABLE_BASE_URL", "").rstrip("/"),
            language=site_language(values),
        )


@dataclass
class TelegramReport:
    queued: int = 0
    sent: int = 0
    failed: int = 0
    gave_up: int = 0
    errors: list[str] = field(default_factory=list)


#: Telegram refused or did not answer (the channels' shared failure, delivery.py)
BotApiError = DeliveryError


def send_message(settings: TelegramSettings, chat_id: int, text: str) -> BotJson:
    """``sendMessage`` of the Bot API: the sent Message, or :class:`BotApiError`."""
    return bot_call(settings, "sendMessage", {"chat_id": chat_id, "text": text[:MAX_TEXT]})


def bot_call(settings: TelegramSettings, method: str, payload: BotJson) -> BotJson:
    """One Bot API method (``sendMessage``, ``answerCallbackQuery``, ``editMessageText``…)
    with a JSON body: its result when an object, else {}; or :class:`BotApiError`."""
    url = f"{settings.api}/bot{settings.token}/{method}"
    body = json.dumps(payload).encode("utf-8")
    request = urllib.request.Request(
        url, data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.timeout) as answer:
            raw = answer.read(1_000_000)
    except urllib.error.HTTPError as error:  # Telegram answers errors with a JSON body too
        raw = error.read(1_000_000)
        status = error.code
    except (OSError, ValueError) as error:
        raise BotApiError(f"{type(error).__name__}: {error}") from None
    else:
        status = 200
    try:
        reply = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BotApiError(f"HTTP {status}: not a Bot API answer") from None
    if not isinstance(reply, dict) or reply.get("ok") is not True:
        reply = reply if isinstance(reply, dict) else {}
        code = int(reply.get("error_code") or status)
        parameters = reply.get("parameters") or {}
        retry = parameters.get("retry_after") if isinstance(parameters, dict) else None
        raise BotApiError(
            f"{code}: {str(reply.get('description', ''))[:300]}",
            retry_after=int(retry) if isinstance(retry, int) else None,
            final=code in (400, 403),
        )
    result = reply.get("result")
    return result if isinstance(result, dict) else {}


def message_text(
    row: SeriesOutboxRow,
    base_url: str = "",
    *,
    language: str = DEFAULT,
    context: Context | None = None,
) -> str:
    """The message of one outbox row in ``language`` (the mail's subject and lines, a
    link to the site's notifications)."""
    written = letter(row.kind, row.payload, language=language, context=context, base_url=base_url)
    lines = [written.subject, *written.lines]
    if base_url:
        lines.append(f"{base_url}/notifications")
    return "\n".join(lines)


def enqueue(store: Store, limit: int = 1000) -> int:
    """A delivery for each outbox row a linked user should get on Telegram and has none
    yet (written at or after the link, of a kind not muted there); how many."""
    with store.reading() as session:
        query = (
            select(
                SeriesOutboxRow.id,
                SeriesOutboxRow.kind,
                TelegramLinkRow.telegram_id,
                NotificationPrefsRow.muted,
            )
            .join(TelegramLinkRow, TelegramLinkRow.user_id == SeriesOutboxRow.user_id)
            .outerjoin(
                NotificationPrefsRow, NotificationPrefsRow.user_id == SeriesOutboxRow.user_id
            )
            .outerjoin(TelegramDeliveryRow, TelegramDeliveryRow.outbox_id == SeriesOutboxRow.id)
            .where(
                TelegramDeliveryRow.outbox_id.is_(None),
                SeriesOutboxRow.created_at >= TelegramLinkRow.linked_at,
            )
            .order_by(SeriesOutboxRow.id)
            .limit(limit)
        )
        wanted = [
            (outbox_id, chat)
            for outbox_id, kind, chat, muted in session.execute(query)
            if f"telegram:{kind}" not in (muted or [])
        ]
    queued = 0
    for outbox_id, chat in wanted:
        try:
            with store.transaction() as session:
                if session.get(TelegramDeliveryRow, outbox_id) is not None:
                    continue
                session.add(
                    TelegramDeliveryRow(
                        outbox_id=outbox_id, chat_id=chat, attempts=0, last_error=""
                    )
                )
            queued += 1
        except IntegrityError:  # another sender queued it meanwhile
            continue
    return queued


def _claim(session: Session, now: str, skip_locked: bool) -> TelegramDeliveryRow | None:
    query = (
        select(TelegramDeliveryRow)
        .where(
            TelegramDeliveryRow.sent_at.is_(None),
            TelegramDeliveryRow.gave_up_at.is_(None),
            or_(TelegramDeliveryRow.next_try_at.is_(None), TelegramDeliveryRow.next_try_at <= now),
        )
        .order_by(TelegramDeliveryRow.outbox_id)
        .limit(1)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    row: TelegramDeliveryRow | None = session.scalars(query).first()
    return row


def send_due_telegram(
    store: Store, clock: Clock, settings: TelegramSettings, *, limit: int = 500
) -> TelegramReport:
    """Queue what is new, then send up to ``limit`` due deliveries; what happened."""
    queued = enqueue(store)

    def send(session: Session, delivery: TelegramDeliveryRow) -> bool:
        row = session.get(SeriesOutboxRow, delivery.outbox_id)
        assert row is not None
        language = language_of(session, row.user_id, settings.language)
        text = message_text(
            row, settings.base_url, language=language, context=context_of(session, row.payload)
        )
        send_message(settings, delivery.chat_id, text)
        return True

    counts = deliver_due(
        store,
        clock,
        _claim,
        send,
        Retries(settings.max_attempts, settings.base_delay),
        label=lambda delivery: delivery.outbox_id,
        limit=limit,
    )
    return TelegramReport(queued, counts.sent, counts.failed, counts.gave_up, counts.errors)


def with_telegram(service: Any, send: Any) -> Any:
    """``send`` (the mail sender of ``crosstable serve``'s ticker, or None) followed by
    the Telegram channel when a bot token is configured."""
    settings = TelegramSettings.from_env()
    if settings is None:
        return send
    chosen = settings

    def both() -> None:
        try:
            if send is not None:
                send()
        finally:
            send_due_telegram(service.store, service.clock, chosen)

    return both
