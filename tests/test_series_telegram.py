"""Telegram (issue 11 item 5): the login widget's data checked as Telegram documents it
(data-check-string, HMAC-SHA-256 keyed by SHA-256 of the bot token, auth_date
freshness), signing in and linking on the web, and the outbox's Telegram channel against
a loopback HTTP server that speaks the Bot API's sendMessage — every due row sent once,
retried after Telegram's retry_after, given up when the user blocked the bot, two
senders at once on SQLite and PostgreSQL sending each row once."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import random
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings, inbox, telegram
from crosstable.service.series.telegram_sender import (
    TelegramSettings,
    send_due_telegram,
)
from crosstable.store import Store, open_store

TOKEN = "123456:TEST-token_for-the-bot"
NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def signed(fields: dict[str, str], token: str = TOKEN) -> dict[str, str]:
    """Login data signed the way Telegram's documentation says (written out here)."""
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    key = hashlib.sha256(token.encode()).digest()
    return fields | {"hash": hmac.new(key, check.encode(), hashlib.sha256).hexdigest()}


def login(telegram_id: int = 777, at: dt.datetime = NOW, **extra: str) -> dict[str, str]:
    fields = {
        "id": str(telegram_id),
        "first_name": "Пия",
        "last_name": "Игрокова",
        "username": "pia_plays",
        "photo_url": "https://t.me/i/userpic/320/pia.jpg",
        "auth_date": str(int(at.timestamp())),
    }
    return signed(fields | extra)


# -- the signature and freshness -----------------------------------------------------------


def test_genuine_login_data_are_accepted() -> None:
    who = telegram.verify_login(login(), TOKEN, NOW + dt.timedelta(minutes=3))
    assert (who.id, who.username, who.name) == (777, "pia_plays", "Пия Игрокова")
    assert who.auth_date == NOW
    minimal = signed({"id": "5", "first_name": "A", "auth_date": str(int(NOW.timestamp()))})
    assert telegram.verify_login(minimal, TOKEN, NOW).label == "A"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d | {"first_name": "Mallory"}, "signature does not match"),
        (lambda d: d | {"id": "778"}, "signature does not match"),
        (lambda d: d | {"hash": "0" * 64}, "signature does not match"),
        (lambda d: {k: v for k, v in d.items() if k != "hash"}, "hash is missing"),
        (lambda d: {k: v for k, v in d.items() if k != "auth_date"}, "auth_date is missing"),
        (lambda d: d | {"admin": "1"}, "unexpected field 'admin'"),
        (lambda d: signed({k: v for k, v in d.items() if k != "hash"}, "999:other"), "signature"),
    ],
)
def test_forged_data_are_refused(change: Any, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        telegram.verify_login(change(login()), TOKEN, NOW)


def test_stale_or_future_logins_are_refused() -> None:
    old = login(at=NOW - dt.timedelta(seconds=301))  # minutes, not a day (issue 25 item 2)
    with pytest.raises(RuleError, match="more than 300 seconds old"):
        telegram.verify_login(old, TOKEN, NOW)
    assert telegram.verify_login(login(at=NOW - dt.timedelta(minutes=4)), TOKEN, NOW)
    with pytest.raises(RuleError, match="in the future"):
        telegram.verify_login(login(at=NOW + dt.timedelta(minutes=6)), TOKEN, NOW)
    with pytest.raises(RuleError, match="not set up"):
        telegram.verify_login(login(), "", NOW)
    with pytest.raises(RuleError, match="id is not a whole number"):
        telegram.verify_login(signed({"id": "x", "auth_date": "1"}), TOKEN, NOW)


# -- linking -------------------------------------------------------------------------------


def test_one_telegram_user_links_one_account(store: Store) -> None:
    who = telegram.verify_login(login(), TOKEN, NOW)
    telegram.link(store, 1, who, NOW)
    assert telegram.link(store, 1, who, NOW).telegram_id == 777  # again: unchanged
    assert telegram.account_of(store, 777) == 1
    with pytest.raises(RuleError, match="linked with another account"):
        telegram.link(store, 2, who, NOW)
    other = telegram.verify_login(login(888), TOKEN, NOW)
    with pytest.raises(RuleError, match="unlink it first"):
        telegram.link(store, 1, other, NOW)
    assert telegram.unlink(store, 1) and not telegram.unlink(store, 1)
    assert telegram.link_of(store, 1) is None


# -- the web: sign in, link, unlink ----------------------------------------------------------


@pytest.fixture
def web(store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    from test_web_series import Web

    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_NAME", "crosstable_bot")
    return Web(store)


def _query(data: dict[str, str], path: str = "/telegram/login") -> str:
    from urllib.parse import urlencode

    return path + "?" + urlencode(data)


def _started(client: Any) -> str:
    """The widget's return address on this browser's Telegram page: the login callback
    with the browser's one-time state (issue 25 item 1; without it nothing changes)."""
    import re
    from urllib.parse import urlsplit

    found = re.search(r'data-auth-url="([^"]+)"', client.get("/telegram").text)
    assert found
    return urlsplit(found.group(1)).path


def test_signing_in_with_telegram_makes_or_finds_the_account(web: Any) -> None:
    from tests.asgi_client import TestClient

    now = web.service.clock.now()
    guest = TestClient(web.app)
    page = guest.get("/telegram")
    assert 'data-telegram-login="crosstable_bot"' in page.text
    assert "https://telegram.org" in page.headers["content-security-policy"]
    assert "telegram.org" not in guest.get("/series").headers["content-security-policy"]
    answer = guest.get(_query(login(at=now), _started(guest)), follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    home = guest.get("/series").text
    assert "Пия Игрокова" in home  # signed in under the Telegram name
    made = web.accounts.find_user("tg:777")  # a name nobody can choose (issue 25 item 3)
    assert made is not None and telegram.account_of(web.service.store, 777) == made.id
    again = TestClient(web.app)
    again.get(_query(login(at=now + dt.timedelta(seconds=1)), _started(again)))
    assert telegram.account_of(web.service.store, 777) == made.id  # the same account
    forged = TestClient(web.app).get(_query(login(at=now) | {"id": "1"}))
    assert forged.status_code == 403 and "signature does not match" in forged.text
    assert web.accounts.find_user("tg1") is None


def test_a_signed_in_user_links_and_unlinks(web: Any) -> None:
    from test_web_series import _csrf

    now = web.service.clock.now()
    pia = web.signed_in("pia")
    done = pia.get(_query(login(555, at=now), _started(pia)))
    assert done.status_code == 200 and "Telegram account linked: @pia_plays" in done.text
    assert telegram.account_of(web.service.store, 555) == web.player.id
    ann = web.signed_in("ann")
    later = now + dt.timedelta(seconds=1)  # a new login: each is used once (issue 25 item 2)
    refused = ann.get(_query(login(555, at=later), _started(ann)))
    assert refused.status_code == 422 and "linked with another account" in refused.text
    page = pia.get("/telegram")
    assert 'id="telegram-linked"' in page.text
    pia.post("/telegram/unlink", data={"csrf_token": _csrf(page.text)})
    assert telegram.link_of(web.service.store, web.player.id) is None


def test_the_page_says_when_telegram_is_not_set_up(
    web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.asgi_client import TestClient

    monkeypatch.delenv("CROSSTABLE_TELEGRAM_BOT_TOKEN")
    client = TestClient(web.app)
    assert 'id="telegram-off"' in client.get("/telegram").text
    refused = client.get(_query(login(at=web.service.clock.now())))
    assert refused.status_code == 403 and "not set up" in refused.text


# -- the Bot API on loopback -----------------------------------------------------------------


class BotApi:
    """A loopback server answering ``POST /bot<token>/sendMessage`` as Telegram does:
    ``{"ok": true, "result": Message}``; ``busy`` chats get a 429 with retry_after the
    first ``busy_times`` tries, ``blocked`` chats a 403."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.tries: Counter[int] = Counter()
        self.busy: set[int] = set()
        self.busy_times = 1
        self.blocked: set[int] = set()
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                if self.path != f"/bot{TOKEN}/sendMessage":
                    return self._answer(
                        404, {"ok": False, "error_code": 404, "description": "Not Found"}
                    )
                chat = int(body["chat_id"])
                with api.lock:
                    api.tries[chat] += 1
                    if chat in api.blocked:
                        return self._answer(
                            403,
                            {
                                "ok": False,
                                "error_code": 403,
                                "description": "Forbidden: bot was blocked by the user",
                            },
                        )
                    if chat in api.busy and api.tries[chat] <= api.busy_times:
                        return self._answer(
                            429,
                            {
                                "ok": False,
                                "error_code": 429,
                                "description": "Too Many Requests: retry after 30",
                                "parameters": {"retry_after": 30},
                            },
                        )
                    api.messages.append(body)
                    number = len(api.messages)
                self._answer(
                    200,
                    {
                        "ok": True,
                        "result": {
                            "message_id": number,
                            "chat": {"id": chat},
                            "date": 0,
                            "text": body["text"],
                        },
                    },
                )

            def _answer(self, status: int, reply: dict[str, Any]) -> None:
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def bot() -> Iterator[BotApi]:
    api = BotApi()
    yield api
    api.close()


def _season(store: Store) -> tuple[Service, FixedClock, int]:
    clock = FixedClock(NOW)
    service = Service(store, clock=clock, random=random.Random(1))
    sid = service.create_series(
        SeriesSettings("Telegram blitz", "workdays", "19:00", "Europe/Moscow")
    )
    return service, clock, service.open_edition(sid)


def _link(store: Store, user: int, chat: int, at: dt.datetime) -> None:
    who = telegram.TelegramUser(chat, f"User {user}", "", f"user{user}", at)
    telegram.link(store, user, who, at)


def test_every_due_row_is_sent_once(store: Store, bot: BotApi) -> None:
    service, clock, edition = _season(store)
    service.register_for_edition(edition, "Before the link", user_id=1)  # not replayed
    clock.advance(dt.timedelta(minutes=1))
    _link(store, 1, 1001, clock.now())
    _link(store, 2, 1002, clock.now())
    clock.advance(dt.timedelta(minutes=1))
    service.withdraw_from_edition(edition, "Before the link")
    service.register_for_edition(edition, "Linked one", user_id=1)
    service.register_for_edition(edition, "Linked two", user_id=2)
    service.register_for_edition(edition, "No Telegram", user_id=3)
    service.register_for_edition(edition, "A guest")
    settings = TelegramSettings(TOKEN, api=bot.url, base_url="https://chess.example")
    report = send_due_telegram(store, clock, settings)
    assert (report.queued, report.sent, report.failed, report.gave_up) == (2, 2, 0, 0)
    assert sorted(m["chat_id"] for m in bot.messages) == [1001, 1002]
    assert all("Telegram blitz: registration confirmed" in m["text"] for m in bot.messages)
    assert all("https://chess.example/notifications" in m["text"] for m in bot.messages)
    again = send_due_telegram(store, clock, settings)
    assert (again.queued, again.sent) == (0, 0) and len(bot.messages) == 2
    # a kind muted for Telegram is not sent (it stays in the site)
    inbox.set_preferences(store, 2, "", list(inbox.KINDS), channels={"telegram": ["news"]})
    service.withdraw_from_edition(edition, "Linked two")
    service.register_for_edition(edition, "Linked two again", user_id=2)
    assert send_due_telegram(store, clock, settings).sent == 0
    assert inbox.unread_count(store, 2) == 2


def test_retry_after_and_a_blocked_bot(store: Store, bot: BotApi) -> None:
    service, clock, edition = _season(store)
    _link(store, 1, 2001, clock.now())
    _link(store, 2, 2002, clock.now())
    clock.advance(dt.timedelta(minutes=1))
    bot.busy.add(2001)
    bot.blocked.add(2002)
    service.register_for_edition(edition, "Busy", user_id=1)
    service.register_for_edition(edition, "Blocked", user_id=2)
    settings = TelegramSettings(TOKEN, api=bot.url)
    first = send_due_telegram(store, clock, settings)
    assert (first.sent, first.failed, first.gave_up) == (0, 1, 1)
    assert any("retry after 30" in e for e in first.errors)
    clock.advance(dt.timedelta(seconds=29))
    assert send_due_telegram(store, clock, settings).sent == 0  # Telegram said 30 s
    clock.advance(dt.timedelta(seconds=2))
    later = send_due_telegram(store, clock, settings)
    assert later.sent == 1 and [m["chat_id"] for m in bot.messages] == [2001]
    assert bot.tries[2002] == 1  # given up at once: never tried again
    assert send_due_telegram(store, clock, settings).sent == 0 and bot.tries[2002] == 1


def test_no_answer_is_retried_with_backoff_then_given_up(store: Store) -> None:
    service, clock, edition = _season(store)
    _link(store, 1, 3001, clock.now())
    clock.advance(dt.timedelta(minutes=1))
    service.register_for_edition(edition, "Nobody home", user_id=1)
    settings = TelegramSettings(TOKEN, api="http://127.0.0.1:9", timeout=2, max_attempts=3)
    for attempt in range(1, 4):
        report = send_due_telegram(store, clock, settings)
        assert report.failed + report.gave_up == 1, attempt
        clock.advance(dt.timedelta(minutes=2 ** (attempt - 1)))
    assert report.gave_up == 1
    assert send_due_telegram(store, clock, settings).failed == 0


def test_two_senders_at_once_send_each_row_once(db_url: str, bot: BotApi) -> None:
    first = open_store(db_url)
    service, clock, edition = _season(first)
    for user in range(1, 9):
        _link(first, user, 4000 + user, clock.now())
    clock.advance(dt.timedelta(minutes=1))
    for user in range(1, 9):
        service.register_for_edition(edition, f"Player {user}", user_id=user)
    second = open_store(db_url)
    settings = TelegramSettings(TOKEN, api=bot.url)
    reports: list[Any] = []
    threads = [
        threading.Thread(
            target=lambda s=s: reports.append(
                send_due_telegram(s, FixedClock(clock.now()), settings)
            )
        )
        for s in (first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.sent for r in reports) == 8
    assert sorted(m["chat_id"] for m in bot.messages) == [4001 + i for i in range(8)]
    first.engine.dispose()
    second.engine.dispose()


def test_the_ticker_of_serve_sends_to_telegram_too(
    store: Store, bot: BotApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crosstable.service.series.telegram_sender import with_telegram

    service, clock, edition = _season(store)
    _link(store, 1, 5001, clock.now())
    clock.advance(dt.timedelta(minutes=1))
    service.register_for_edition(edition, "Ticked", user_id=1)
    monkeypatch.delenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", raising=False)
    assert with_telegram(service, None) is None  # no bot: the mail sender as it was
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_API", bot.url)
    mailed: list[int] = []
    send = with_telegram(service, lambda: mailed.append(1))
    send()
    assert mailed == [1] and [m["chat_id"] for m in bot.messages] == [5001]
