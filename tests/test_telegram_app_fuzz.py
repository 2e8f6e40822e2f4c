"""Fuzz targets of the app inside Telegram (docs/fuzzing.md): the Mini App's initData
parser and checks, the sign-in route, the bot's reading of updates and button data, and
the webhook — a RuleError or an answer, a clear 4xx or Telegram's 200, never another
exception or a 500, each input under a time bound."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, store  # noqa: F401
from test_telegram_app import NOW, SECRET, TOKEN, init_data

from crosstable.core.errors import RuleError
from crosstable.service import telegram_bot
from crosstable.service.accounts import telegram_app
from crosstable.store import Store
from tests.asgi_client import TestClient
from tests.test_fuzz_support import bounded, examples

FUZZ = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEXT = st.text(max_size=60)
NAMES = st.one_of(
    st.sampled_from(["user", "auth_date", "hash", "query_id", "signature", "start_param"]),
    st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
    TEXT,
)
VALUES = st.one_of(
    TEXT,
    st.from_regex(r"[0-9]{1,22}", fullmatch=True),
    st.from_regex(r"[0-9a-f]{64}", fullmatch=True),
    st.sampled_from(["%FF", "%ED%A0%80", "%", "%0A", "+", "{}", "[]", '{"id":true}', "١٢"]),
    st.integers(1, 10**20).map(lambda n: json.dumps({"id": n, "first_name": "x" * (n % 300)})),
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


#: names init_data() takes as its own parameters, or makes itself
OWN = {"at", "telegram_id", "token", "language", "person", "user", "hash"}


def _signed(pairs: list[tuple[str, str]], at: Any) -> str:
    """``initData`` genuinely signed around the fuzzed fields."""
    fields = {k: v for k, v in pairs if k.isidentifier() and k.islower() and k not in OWN}
    return init_data(at, **fields)


def _raw(pairs: list[tuple[str, str]], sign: bool) -> str:
    if sign:
        return _signed(pairs, NOW)
    return "&".join(f"{k}={v}" for k, v in pairs)


@settings(max_examples=examples(300), deadline=None)
@given(pairs=st.lists(st.tuples(NAMES, VALUES), max_size=12), sign=st.booleans())
def test_fuzz_the_init_data_checks(pairs: list[tuple[str, str]], sign: bool) -> None:
    """Any initData text, sometimes genuinely signed around fuzzed fields: a RuleError
    naming the Mini App (or the missing setup), or the signed user."""
    raw = _raw(pairs, sign)
    with bounded("the initData checks"):
        try:
            data, who = telegram_app.verify_init_data(raw, TOKEN, NOW)
        except RuleError as error:
            assert str(error).startswith("Telegram Mini App:"), str(error)
        else:
            assert who.id == json.loads(data["user"])["id"]
            assert telegram_app.start_path(data).startswith("/")


@settings(max_examples=examples(200), deadline=None)
@given(
    names=st.fixed_dictionaries(
        {"first_name": st.text(max_size=80), "last_name": st.text(max_size=80)},
        optional={"username": st.from_regex(r"[A-Za-z0-9_]{5,32}", fullmatch=True)},
    ),
    number=st.integers(1, 2**63 - 1),
    start=st.text(max_size=20),
)
def test_any_names_signed_by_telegram_come_back_exactly(
    names: dict[str, str], number: int, start: str
) -> None:
    """Whatever Telegram puts in the user's names (any Unicode, '&', '=', '+', '%', line
    feeds inside the JSON), percent-encoded and signed as Telegram does, the data are
    accepted and read back exactly: the parser decodes what the encoder wrote."""
    if any(c in start for c in "\x00\ud800") or not start.isprintable():
        start = "t7"
    raw = init_data(NOW, number, person=names, start_param=start)
    data, who = telegram_app.verify_init_data(raw, TOKEN, NOW)
    assert who.id == number and data["start_param"] == start
    assert (who.first_name, who.last_name) == (names["first_name"][:200], names["last_name"][:200])
    assert who.username == names.get("username", "pia_plays")


@settings(max_examples=examples(300), deadline=None)
@given(raw=st.text(max_size=400))
def test_fuzz_the_init_data_text(raw: str) -> None:
    with bounded("the initData parser"):
        try:
            telegram_app.parse_init_data(raw)
        except RuleError as error:
            assert str(error).startswith("Telegram Mini App:")


@settings(max_examples=examples(300), deadline=None)
@given(update=JSON, data=st.one_of(TEXT, st.from_regex(r"r:[0-9:]{1,30}:[wdbx]", fullmatch=True)))
def test_fuzz_the_bots_reading(update: Any, data: str) -> None:
    """Any JSON as an update, any button data: what it asks or None, never an error."""
    with bounded("the bot's reading"):
        asked = telegram_bot.incoming(update)
        assert asked is None or isinstance(asked, (telegram_bot.Command, telegram_bot.Press))
        shaped = {"callback_query": {"id": "q", "from": {"id": 5}, "data": data}}
        press = telegram_bot.incoming(shaped)
        report = telegram_bot.parse_report(data)
    if report is not None:
        assert len(data) <= telegram_bot.MAX_DATA and press is not None
        assert report.result in telegram_bot.RESULTS.values()


@pytest.fixture
def web(store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    from test_web_series import Web

    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_WEBHOOK_SECRET", SECRET)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_API", "http://127.0.0.1:9")  # nobody: no network
    site = Web(store)
    site.client = TestClient(site.app)
    return site


@FUZZ
@given(pairs=st.lists(st.tuples(NAMES, VALUES), max_size=10), sign=st.booleans())
def test_fuzz_the_mini_app_sign_in(web: Any, pairs: list[tuple[str, str]], sign: bool) -> None:
    """The sign-in route: 200 with a path of the site, or 400/403 with a message."""
    client = web.client
    from test_web_series import _csrf

    csrf = _csrf(client.get("/telegram/app").text)
    raw = (
        _signed(pairs, web.service.clock.now())
        if sign
        else "&".join(f"{k}={quote(v)}" for k, v in pairs)
    )
    headers = {"X-CSRF-Token": csrf, "Accept": "application/json"}
    with bounded("the Mini App's sign-in"):
        answer = client.post("/telegram/app/login", json={"init_data": raw}, headers=headers)
    assert answer.status_code in (200, 400, 403), (answer.status_code, answer.text)
    if answer.status_code == 200:
        assert answer.json()["next"].startswith("/")
        client.cookies.clear()  # signed out again for the next example
    else:
        assert len(answer.json()["detail"]) > 10


@FUZZ
@given(update=JSON)
def test_fuzz_the_webhook(web: Any, update: Any) -> None:
    """Any JSON body with the right secret: Telegram gets 200 (the Bot API's failure to
    answer is logged, not raised)."""
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    with bounded("the webhook"):
        answer = web.client.post("/telegram/webhook", json=update, headers=headers)
    assert answer.status_code == 200, answer.text
