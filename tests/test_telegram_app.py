"""The app inside Telegram: the Mini App's initData checked as Telegram
documents it (HMAC-SHA-256 keyed by HMAC-SHA-256("WebAppData", token)), fresh, used once,
signing the player in without a password; the bot's webhook answering /start, /games and
result buttons against a loopback stand-in of the Bot API (its real HTTP contract:
sendMessage with an inline keyboard, answerCallbackQuery, editMessageText); reports
confirmed by the organiser as on the site; guests without Telegram still playing. SQLite
and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote

import pytest
from test_service_support import db_url, started, store  # noqa: F401
from test_web_series import Web, _csrf

from crosstable.core.errors import RuleError
from crosstable.service.accounts import telegram_app
from crosstable.service.series import telegram
from crosstable.store import Store
from tests.asgi_client import TestClient

TOKEN = "123456:TEST-token_for-the-bot"
SECRET = "webhook-secret_42"


def init_data(
    at: dt.datetime,
    telegram_id: int = 777,
    token: str = TOKEN,
    *,
    language: str = "en",
    person: dict[str, Any] | None = None,
    **extra: str,
) -> str:
    """``initData`` as Telegram makes it (the algorithm written out here from Telegram's
    documentation): the fields URL-encoded, ``hash`` the hex HMAC-SHA-256 of the sorted
    ``key=value`` lines under HMAC-SHA-256 of the token keyed by "WebAppData"."""
    user = {
        "id": telegram_id,
        "first_name": "Пия",
        "last_name": "Игрокова",
        "username": "pia_plays",
        "language_code": language,
    } | (person or {})
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(at.timestamp())),
        "signature": "c2lnbmVkIGJ5IFRlbGVncmFt",
    } | extra
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return "&".join(f"{key}={quote(value, safe='')}" for key, value in fields.items())


NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


# -- the service: parse, verify, once ---------------------------------------------------------


def test_genuine_init_data_are_accepted() -> None:
    data, who = telegram_app.verify_init_data(init_data(NOW), TOKEN, NOW + dt.timedelta(minutes=4))
    assert (who.id, who.username, who.name) == (777, "pia_plays", "Пия Игрокова")
    assert data["signature"] == "c2lnbmVkIGJ5IFRlbGVncmFt"  # signed with the rest
    assert telegram_app.start_path(data) == "/"
    started_at, _who = telegram_app.verify_init_data(init_data(NOW, start_param="t42"), TOKEN, NOW)
    assert telegram_app.start_path(started_at) == "/t/42"


def _widget_signed(raw: str) -> str:
    """The same fields signed with the login widget's key (SHA-256 of the token)."""
    fields = dict(pair.split("=", 1) for pair in raw.split("&"))
    fields.pop("hash")
    plain = {k: telegram_app.parse_init_data(f"{k}={v}")[k] for k, v in fields.items()}
    key = hashlib.sha256(TOKEN.encode()).digest()
    check = "\n".join(f"{k}={plain[k]}" for k in sorted(plain))
    return (
        raw.rsplit("&hash=", 1)[0] + "&hash=" + hmac.new(key, check.encode(), "sha256").hexdigest()
    )


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: init_data(NOW).replace("777", "778"), "signature does not match"),
        (lambda: init_data(NOW, token="999:another-bot"), "signature does not match"),
        (lambda: _widget_signed(init_data(NOW)), "signature does not match"),
        (lambda: init_data(NOW) + "&admin=1", "signature does not match"),
        (lambda: init_data(NOW - dt.timedelta(seconds=301)), "more than 300 seconds old"),
        (lambda: init_data(NOW + dt.timedelta(minutes=5)), "in the future"),
        (lambda: init_data(NOW).rsplit("&hash=", 1)[0], "hash is missing"),
        (lambda: init_data(NOW) + "&hash=" + "0" * 64, "hash is given twice"),
        (lambda: "", "no initData was sent"),
        (lambda: "user=%FF&auth_date=1&hash=" + "0" * 64, "user is not valid text"),
        (lambda: "user=%7B%7D&auth_date=1&hash=" + "0" * 64, "user's id is not a whole number"),
        (lambda: "user=x&auth_date=1&hash=" + "0" * 64, "user is not JSON"),
        (lambda: "user=%7B%22id%22%3A1%7D&auth_date=%0A1&hash=" + "0" * 64, "control characters"),
        (lambda: "a" * 9000, "longer than 8192 characters"),
        (lambda: "Bad=1", "malformed field"),
    ],
)
def test_forged_stale_or_malformed_init_data_are_refused(make: Any, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        telegram_app.verify_init_data(make(), TOKEN, NOW)


def test_without_a_bot_token_nothing_is_accepted() -> None:
    with pytest.raises(RuleError, match="not set up"):
        telegram_app.verify_init_data(init_data(NOW), "", NOW)


def test_init_data_are_used_once(store: Store) -> None:
    from crosstable.service.accounts import Accounts

    accounts = Accounts(store)
    raw = init_data(NOW)
    user_id, path = telegram_app.sign_in(accounts, store, raw, TOKEN, NOW)
    assert path == "/" and accounts.user(user_id).username == "tg:777"
    with pytest.raises(RuleError, match="already used"):
        telegram_app.sign_in(accounts, store, raw, TOKEN, NOW)
    later = NOW + dt.timedelta(seconds=5)  # a new opening of the app: the same account
    assert telegram_app.sign_in(accounts, store, init_data(later), TOKEN, later)[0] == user_id
    # the login widget's used payloads and the Mini App's are told apart
    assert telegram.payload_digest({"a": "1"}) != telegram.payload_digest({"a": "1"}, "x")


# -- the web: the Mini App's page and sign-in ---------------------------------------------------


@pytest.fixture
def web(store: Store, monkeypatch: pytest.MonkeyPatch) -> Web:
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_WEBHOOK_SECRET", SECRET)
    return Web(store)


def _opened(web: Web) -> tuple[TestClient, str]:
    client = TestClient(web.app)
    page = client.get("/telegram/app")
    assert page.status_code == 200
    return client, _csrf(page.text)


def test_the_mini_app_signs_the_player_in(web: Web) -> None:
    client, csrf = _opened(web)
    page = client.get("/telegram/app")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self' https://telegram.org;" in policy
    assert 'src="https://telegram.org/js/telegram-web-app.js"' in page.text
    assert 'src="/static/telegram.js"' in page.text and 'data-signed-in="0"' in page.text
    assert "telegram.org" not in client.get("/").headers["content-security-policy"]
    raw = init_data(web.service.clock.now(), start_param="t5")
    headers = {"X-CSRF-Token": csrf, "Accept": "application/json"}
    answer = client.post("/telegram/app/login", json={"init_data": raw}, headers=headers)
    assert answer.status_code == 200 and answer.json() == {"next": "/t/5"}
    made = web.accounts.find_user("tg:777")
    assert made is not None and made.display_name == "Пия Игрокова"
    assert "Пия Игрокова" in client.get("/series").text  # signed in, no password
    assert 'data-signed-in="1"' in client.get("/telegram/app").text
    # a Telegram user linked with an account signs in to it (a plain form post too)
    now = web.service.clock.now()
    telegram.link(
        web.service.store, web.player.id, telegram.TelegramUser(901, "P", "", "", now), now
    )
    other, csrf = _opened(web)
    raw = init_data(web.service.clock.now(), 901)
    answer = other.post("/telegram/app/login", data={"init_data": raw, "csrf_token": csrf})
    assert answer.status_code == 200 and web.accounts.find_user("tg:901") is None
    assert f'title="Account">{web.player.display_name}</a>' in other.get("/series").text


def _users(web: Web) -> int:
    return len(web.accounts.users())


FORGED = [
    (lambda raw: raw.replace("777", "778"), 403, "signature does not match"),
    (lambda raw: raw + "&hash=" + "0" * 64, 400, "hash is given twice"),
    (lambda raw: "user=%7B%7D&auth_date=1&hash=" + "0" * 64, 400, "user's id"),
]


def test_forged_stale_replayed_or_cross_site_init_data_change_nothing(web: Web) -> None:
    client, csrf = _opened(web)
    headers = {"X-CSRF-Token": csrf, "Accept": "application/json"}
    before = _users(web)
    for change, status, words in FORGED:
        raw = change(init_data(web.service.clock.now()))
        answer = client.post("/telegram/app/login", json={"init_data": raw}, headers=headers)
        assert answer.status_code == status and words in answer.json()["detail"]
    assert _users(web) == before and "Sign out" not in client.get("/").text
    stale = init_data(web.service.clock.now() - dt.timedelta(minutes=6))
    old = client.post("/telegram/app/login", json={"init_data": stale}, headers=headers)
    assert old.status_code == 403 and "more than 300 seconds old" in old.json()["detail"]
    raw = init_data(web.service.clock.now())
    # another site's page posting a visitor's initData: no CSRF token, nothing happens
    foreign = TestClient(web.app).post(
        "/telegram/app/login", json={"init_data": raw}, headers={"Accept": "application/json"}
    )
    assert foreign.status_code == 403 and web.accounts.find_user("tg:777") is None
    assert client.post("/telegram/app/login", json={"init_data": raw}, headers=headers).is_success
    again, csrf2 = _opened(web)
    replay = again.post(
        "/telegram/app/login",
        json={"init_data": raw},
        headers={"X-CSRF-Token": csrf2, "Accept": "application/json", "Accept-Language": "ru"},
    )
    assert replay.status_code == 403 and "уже" in replay.json()["detail"]  # in Russian


# -- the bot: a loopback Bot API and the webhook -----------------------------------------------


class BotApi:
    """A loopback server that answers the Bot API's methods as Telegram does
    (``POST /bot<token>/<method>``, JSON in, ``{"ok": true, "result": …}`` out) and
    keeps every call; another token is 401 Unauthorized, as Telegram answers."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                prefix = f"/bot{TOKEN}/"
                if not self.path.startswith(prefix):
                    return self._answer(
                        401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
                    )
                method = self.path.removeprefix(prefix)
                with api.lock:
                    api.calls.append((method, body))
                    number = len(api.calls)
                if method == "answerCallbackQuery":
                    return self._answer(200, {"ok": True, "result": True})
                result = {"message_id": number, "chat": {"id": body.get("chat_id")}, "date": 0}
                self._answer(200, {"ok": True, "result": result | {"text": body.get("text")}})

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

    def taken(self) -> list[tuple[str, dict[str, Any]]]:
        with self.lock:
            calls, self.calls = self.calls, []
        return calls

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def bot(web: Web, monkeypatch: pytest.MonkeyPatch) -> Iterator[BotApi]:
    api = BotApi()
    web.telegram = TestClient(web.app)  # type: ignore[attr-defined]
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_API", api.url)
    monkeypatch.setenv("CROSSTABLE_BASE_URL", "https://chess.example")
    yield api
    api.close()


def _update(web: Web, update: Any, secret: str | None = SECRET) -> Any:
    headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
    return web.telegram.post("/telegram/webhook", json=update, headers=headers)


def _command(text: str, telegram_id: int = 777, language: str = "en") -> dict[str, Any]:
    sender = {"id": telegram_id, "is_bot": False, "first_name": "Pia", "language_code": language}
    chat = {"id": telegram_id, "type": "private"}
    return {
        "update_id": 1,
        "message": {"message_id": 3, "from": sender, "chat": chat, "text": text},
    }


def _press(data: str, query: str, telegram_id: int = 777, message_id: int = 50) -> dict[str, Any]:
    sender = {"id": telegram_id, "is_bot": False, "first_name": "Pia", "language_code": "en"}
    message = {"message_id": message_id, "chat": {"id": telegram_id, "type": "private"}}
    press = {"id": query, "from": sender, "message": message, "chat_instance": "1", "data": data}
    return {"update_id": 2, "callback_query": press}


def test_the_webhook_checks_its_secret_and_start_opens_the_mini_app(
    web: Web, bot: BotApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _update(web, _command("/start"), secret=None).status_code == 403
    assert _update(web, _command("/start"), secret="guess").status_code == 403
    assert bot.taken() == []
    answer = _update(web, _command("/start"))
    assert answer.status_code == 200
    ((method, body),) = bot.taken()
    assert method == "sendMessage" and body["chat_id"] == 777
    button = body["reply_markup"]["inline_keyboard"][0][0]
    assert button == {
        "text": "Open the app",
        "web_app": {"url": "https://chess.example/telegram/app"},
    }
    assert "not linked" in body["text"]  # nobody linked yet: the app signs them in
    # in the player's language: Telegram's, Russian and Armenian
    _update(web, _command("/games", language="ru"))
    ((_method, russian),) = bot.taken()
    assert russian["reply_markup"]["inline_keyboard"][0][0]["text"] == "Открыть приложение"
    assert "Open the app" not in json.dumps(russian, ensure_ascii=False)
    _update(web, _command("/start", language="hy"))
    ((_method, armenian),) = bot.taken()
    assert armenian["reply_markup"]["inline_keyboard"][0][0]["text"] == "Բացել հավելվածը"
    # other messages, group chats and nonsense are left alone, and Telegram gets 200
    for update in ({"update_id": 5}, {"message": {"text": "/start"}}, [1], "x"):
        assert _update(web, update).status_code == 200
    assert bot.taken() == []
    monkeypatch.delenv("CROSSTABLE_TELEGRAM_WEBHOOK_SECRET")  # no webhook set up
    assert _update(web, _command("/start")).status_code == 404
    assert bot.taken() == []


def test_report_by_buttons_then_the_organiser_confirms(web: Web, bot: BotApi) -> None:
    """Pia (entry 1, linked with Telegram) reports from the bot; the others are guests
    without Telegram, added by the organiser, and play as before."""
    service = web.service
    tid = started(service, 4)
    web.accounts.claim(tid, web.admin)
    now = service.clock.now()
    telegram.link(service.store, web.player.id, telegram.TelegramUser(777, "Pia", "", "", now), now)
    web.accounts.link_entry(tid, 1, web.player.id)
    _update(web, _command("/games"))
    ((method, body),) = bot.taken()
    assert method == "sendMessage" and "Your games without a result" in body["text"]
    rows = body["reply_markup"]["inline_keyboard"]
    assert len(rows) == 3 and [b["text"] for b in rows[0]] == ["1: 1-0", "1: ½-½", "1: 0-1"]
    first = next(g for g in service.overview(tid).games if g.round == 1 and 1 in (g.white, g.black))
    press = rows[0][0]["callback_data"]
    assert press == f"r:{tid}:{first.round}:{first.board}:w"
    _update(web, _press(press, "q-1"))
    calls = bot.taken()
    assert [m for m, _b in calls] == ["answerCallbackQuery", "editMessageText"]
    assert calls[0][1]["callback_query_id"] == "q-1"
    assert "awaiting confirmation" in calls[0][1]["text"]
    assert calls[1][1]["message_id"] == 50 and "you reported 1-0" in calls[1][1]["text"]
    game = next(g for g in service.overview(tid).games if (g.round, g.board) == (1, first.board))
    reported = game.white_report if game.white == 1 else game.black_report
    assert game.result is None and reported == "1-0"
    revision = service.revision(tid)
    _update(web, _press(press, "q-1"))  # Telegram sends the same update again
    assert service.revision(tid) == revision
    bot.taken()
    # the organiser confirms on the site, as any report
    confirm = f"/api/v1/tournaments/{tid}/rounds/1/boards/{first.board}/confirm"
    done = TestClient(web.app).post(confirm, json={}, headers=web.auth("ann"))
    assert done.status_code == 200, done.text
    # guests without Telegram play: the organiser enters their game
    other = next(g for g in service.overview(tid).games if g.round == 1 and g.board != first.board)
    result = f"/api/v1/tournaments/{tid}/rounds/1/boards/{other.board}/result"
    assert (
        TestClient(web.app).post(result, json={"result": "½-½"}, headers=web.auth("ann")).is_success
    )
    results = {g.board: g.result for g in service.overview(tid).games if g.round == 1}
    assert results[first.board] in ("1-0", "0-1") and results[other.board] == "½-½"
    _update(web, _command("/games"))
    ((_m, listed),) = bot.taken()
    assert len(listed["reply_markup"]["inline_keyboard"]) == 2  # round 1 is played
    # buttons for someone else's game, not ours, or from a Telegram user not linked
    theirs = next(g for g in service.overview(tid).games if 1 not in (g.white, g.black))
    revision = service.revision(tid)
    _update(web, _press(f"r:{tid}:{theirs.round}:{theirs.board}:b", "q-9"))
    calls = bot.taken()
    assert calls[0][0] == "answerCallbackQuery" and "only your own games" in calls[0][1]["text"]
    _update(web, _press("r:1:1:1:x", "q-10"))
    assert "no longer valid" in bot.taken()[0][1]["text"]
    _update(web, _press(f"r:{tid}:2:1:w", "q-11", telegram_id=555))
    assert "not linked" in bot.taken()[0][1]["text"]
    assert service.revision(tid) == revision
