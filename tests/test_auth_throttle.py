"""Wrong API tokens and wrong passwords are throttled per client (and, for passwords, per
account) in the store, so every process on one database counts together (issue 25 item
12): two app instances on one database (a SQLite file, a PostgreSQL schema) stand for
two worker processes."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, migrated_url  # noqa: F401
from web_support import csrf_of

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

PASSWORD = "correct horse battery"
START = dt.datetime(2026, 5, 1, 18, 0, 30, tzinfo=dt.UTC)
LIMIT = 20  # wrong tokens a client may send in 10 minutes (SignInLimits.bad_tokens)


@dataclass
class Two:
    """Two apps (two processes' worth of state) on one database file."""

    one: TestClient
    two: TestClient
    accounts: Accounts
    valid: str
    url: str


@contextmanager
def _client(url: str, address: str) -> Iterator[TestClient]:
    """An app of its own (its own store, clock and counters' process state) on ``url``."""
    store = open_store(url)
    service = Service(store, clock=FixedClock(START), random=random.Random(1))
    try:
        with TestClient(create_app(service=service), client=(address, 40000)) as client:
            yield client
    finally:
        store.close()


@pytest.fixture
def two(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Two]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "auth-throttle-test")
    url = migrated_url
    store = open_store(url)
    accounts = Accounts(store, clock=FixedClock(START))
    ann = accounts.create_user("ann", PASSWORD)
    accounts.create_user("bob", PASSWORD)
    valid = accounts.create_token(ann.id)
    with _client(url, "10.0.0.1") as one, _client(url, "10.0.0.1") as two_:
        yield Two(one, two_, accounts, valid, url)
    store.close()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_wrong_tokens_are_counted_across_processes_and_refused_with_retry_after(
    two: Two,
) -> None:
    for attempt in range(LIMIT):
        client = two.one if attempt % 2 else two.two
        answer = client.get("/api/v1/me", headers=_bearer(f"ct_wrong{attempt}"))
        assert answer.status_code == 401, (attempt, answer.text)
    for client in (two.one, two.two):
        refused = client.get("/api/v1/me", headers=_bearer("ct_wrong-again"))
        assert refused.status_code == 429, refused.text
        assert int(refused.headers["Retry-After"]) == 600 - 30  # to the window's end
        assert "wrong API token" in refused.json()["detail"]
        posted = client.post("/api/v1/results", json={"results": []}, headers=_bearer("ct_x"))
        assert posted.status_code == 429
    # a page asked with a wrong token: the same refusal, drawn as a page (never a 500)
    page = two.one.get("/account", headers=_bearer("ct_page"), follow_redirects=False)
    assert page.status_code == 429 and page.headers["Retry-After"]
    # a valid token is never slowed by the failures, not even from the same address
    me = two.one.get("/api/v1/me", headers=_bearer(two.valid))
    assert me.status_code == 200 and me.json()["user"]["username"] == "ann"
    # another client is not affected
    with _client(two.url, "10.0.0.2") as other:
        assert other.get("/api/v1/me", headers=_bearer("ct_wrong")).status_code == 401


def test_wrong_passwords_are_counted_across_processes_per_address_and_account(
    two: Two,
) -> None:
    def sign_in(client: TestClient, name: str, password: str) -> int:
        token = csrf_of(client.get("/signin").text)
        answer = client.post(
            "/signin",
            data={"username": name, "password": password, "csrf_token": token},
            follow_redirects=False,
        )
        return int(answer.status_code)

    for attempt in range(10):  # the account's limit, split over two processes
        assert sign_in(two.one if attempt % 2 else two.two, "ann", "wrong") == 303
    with _client(two.url, "10.0.0.9") as elsewhere:
        assert sign_in(elsewhere, "ann", PASSWORD) == 429  # the account is at its limit
        assert sign_in(elsewhere, "bob", PASSWORD) == 303  # another account is not


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    token=st.text(
        alphabet=st.characters(min_codepoint=0x21, max_codepoint=0xFF), min_size=1, max_size=600
    )
)
def test_any_bearer_value_gets_a_clear_4xx(two: Two, token: str) -> None:
    """Whatever the header carries (long, Latin-1, punctuation): 401 or 429, never a 5xx."""
    header = f"Bearer {token}".encode("latin-1")  # as a client may send it
    answer = two.one.get("/api/v1/me", headers={"Authorization": header})  # type: ignore[dict-item]
    assert answer.status_code in (401, 429), answer.text
    assert answer.json()["detail"]
