"""Fuzz targets of the Telegram sign-in (issue 25 item 4; docs/fuzzing.md): the login
callback's query, as fields and as raw text, through the real web app, and the parser
and checks of the service — the answer is a redirect or a clear 4xx naming what is
wrong, never a 500, never another exception, each input under a time bound."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_series_telegram import NOW, TOKEN, login, signed
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service.series import telegram
from crosstable.store import Store
from tests.asgi_client import TestClient
from tests.test_fuzz_support import bounded, examples

FUZZ = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: text without lone surrogates (a URL cannot carry one)
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
VALUES = st.one_of(
    TEXT,
    st.from_regex(r"[0-9]{1,25}", fullmatch=True),
    st.from_regex(r"[0-9a-fA-F]{60,66}", fullmatch=True),
    st.sampled_from(
        ["", "-1", " 7", "1_0", "١٢", "６", "1e9", "0x10", "é" * 64, "\x00", "9" * 600]
    ),
    st.text(max_size=5).map(lambda s: s * 200),
    st.integers(150, 512).map(lambda n: "ж" * n),  # within the field's bound, over a column's
)
KEYS = st.one_of(st.sampled_from(telegram.FIELDS), TEXT, st.sampled_from(["state", "admin"]))
PAIRS = st.lists(st.tuples(KEYS, VALUES), max_size=10)


@pytest.fixture
def app(store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    from test_web_series import Web

    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_NAME", "crosstable_bot")
    return Web(store)


def _state(client: TestClient) -> str:
    found = re.search(r'data-auth-url="([^"]+)"', client.get("/telegram").text)
    assert found
    return urlsplit(found.group(1)).path


def _clear(answer: Any) -> None:
    """A redirect, or a 4xx whose JSON names what is wrong; never a 5xx."""
    assert answer.status_code in (303, 400, 403, 409, 422), (answer.status_code, answer.text)
    if answer.status_code >= 400:
        detail = answer.json()["detail"]
        assert isinstance(detail, str) and len(detail) > 10


@FUZZ
@given(pairs=PAIRS, started=st.booleans(), sign=st.booleans())
def test_fuzz_the_login_callback(
    app: Any, pairs: list[tuple[str, str]], started: bool, sign: bool
) -> None:
    """Any query; sometimes signed (so the checks after the signature run: the state,
    the one use, the account made), sometimes with this browser's state."""
    client = TestClient(app.app)
    if sign:
        fields = {k: v for k, v in pairs if k in telegram.FIELDS and k != "hash"}
        fields.setdefault("auth_date", str(int(app.service.clock.now().timestamp())))
        fields.setdefault("id", "4242")
        pairs = list(signed(fields).items())
    path = _state(client) if started else "/telegram/login"
    with bounded("the login callback"):
        answer = client.get(
            path + "?" + urlencode(pairs),
            headers={"Accept": "application/json"},
            follow_redirects=False,
        )
    _clear(answer)


@FUZZ
@given(raw=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=300))
def test_fuzz_the_raw_query(app: Any, raw: str) -> None:
    """Raw query text: stray %, &, =, ;, '+', half escapes of UTF-8 ("%ED%A0%80")."""
    client = TestClient(app.app)
    with bounded("the raw query"):
        answer = client.get(
            _state(client) + "?" + raw + "&x=%ED%A0%80%ZZ",
            headers={"Accept": "application/json"},
            follow_redirects=False,
        )
    _clear(answer)


@settings(max_examples=examples(300), deadline=None)
@given(pairs=st.lists(st.tuples(KEYS, st.one_of(VALUES, st.text(max_size=20))), max_size=10))
def test_fuzz_the_service_checks(pairs: list[tuple[str, str]]) -> None:
    """``login_data`` and ``verify_login`` on anything (lone surrogates too): a RuleError
    or a Telegram user, nothing else; a well-formed signed login is accepted."""
    with bounded("the service's checks"):
        try:
            data = telegram.login_data(pairs)
            who = telegram.verify_login(data, TOKEN, NOW)
        except RuleError as error:
            assert str(error).startswith(("Telegram login:", "signing in"))
        else:
            assert who.id == int(data["id"])
    assert telegram.verify_login(login(5, at=NOW), TOKEN, NOW).id == 5
