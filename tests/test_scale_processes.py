"""Many app processes on one PostgreSQL database (issue 17 item 2): sessions, CSRF
tokens, idempotency keys and the results' rate limits hold across them; the shared
counters keep one row per active key. Two apps on one database stand for two
``serve`` processes (each has its own memory: limiter, caches, secret read at start).
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from sqlalchemy import func, select
from test_service_support import db_url, make_service, new_database, started  # noqa: F401
from web_support import csrf_of, signed_in

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.shared import WINDOW, RateCounters, kept_setting
from crosstable.store import open_store
from crosstable.store.accounts_models import RateCounterRow
from crosstable.web.app import create_app
from crosstable.web.security import Caller, ResultLimits
from crosstable.web.site import site_secret
from tests.asgi_client import TestClient

PASSWORD = "correct horse battery"


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    """A fresh PostgreSQL schema (several processes serve PostgreSQL; SQLite has one)."""
    with new_database("postgresql", tmp_path) as url:
        yield url


class Two:
    """Two apps ("processes") on one database, each with its own service and memory."""

    def __init__(self, url: str) -> None:
        self.services = [make_service(open_store(url)) for _ in range(2)]
        accounts = Accounts(self.services[0].store, clock=self.services[0].clock)
        self.admin = accounts.create_user("arbiter", PASSWORD, is_admin=True)
        self.accounts = accounts
        self.tid = started(self.services[0], 8)
        self.clients = [TestClient(create_app(service=s)) for s in self.services]

    def close(self) -> None:
        for client in self.clients:
            client.close()
        for service in self.services:
            service.store.close()


@pytest.fixture
def two(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Two]:
    monkeypatch.delenv("CROSSTABLE_SECRET", raising=False)  # the database's own secret
    made = Two(pg_url)
    try:
        yield made
    finally:
        made.close()


def test_a_session_and_its_csrf_token_hold_on_the_other_process(two: Two) -> None:
    a, b = two.clients
    signed_in(a, "arbiter", PASSWORD)
    b.cookies.update(a.cookies)  # the same browser, its next request sent to process B
    assert b.get("/api/v1/me").json()["user"]["username"] == "arbiter"
    csrf = csrf_of(a.get("/account").text)  # a form from A's page, sent to B
    b.cookies.update(a.cookies)
    made = b.post(
        "/account/tokens", data={"label": "x", "csrf_token": csrf}, follow_redirects=False
    )
    assert made.status_code == 303 and made.headers["location"] == "/account"
    assert "new-token" in b.get("/account").text
    refused = b.post("/account/tokens", data={"label": "y", "csrf_token": "forged"})
    assert refused.status_code == 403
    # signing out on B ends the session on A too (the server's row)
    b.post("/signout", data={"csrf_token": csrf_of(b.get("/account").text)})
    assert a.get("/api/v1/me").json()["user"] is None


def test_an_idempotency_key_answers_once_across_processes(two: Two) -> None:
    auth = {"Authorization": f"Bearer {two.accounts.create_token(two.admin.id)}"}
    path = f"/api/v1/tournaments/{two.tid}/rounds/1/boards/1/result"
    body = {"result": "1-0", "idempotency_key": "from-the-game-server-1"}
    first = two.clients[0].post(path, json=body, headers=auth).json()
    again = two.clients[1].post(path, json=body, headers=auth).json()
    assert not first["replayed"] and again["replayed"] and again["seq"] == first["seq"]
    history = [e for e in two.services[1].history(two.tid) if e.kind == "result"]
    assert len(history) == 1


def test_the_results_limit_is_shared_by_the_processes(two: Two) -> None:
    made = two.clients[0].post(
        "/api/v1/game-servers",
        json={"username": "bridge", "tournaments": [two.tid], "per_minute": 4},
        headers={"Authorization": f"Bearer {two.accounts.create_token(two.admin.id)}"},
    )
    auth = {"Authorization": f"Bearer {made.json()['token']}"}
    spots = [(g.round, g.board) for g in two.services[0].overview(two.tid).games]
    codes = []
    for index, (rnd, board) in enumerate(spots[:6]):
        client = two.clients[index % 2]  # alternately to each process
        path = f"/api/v1/tournaments/{two.tid}/rounds/{rnd}/boards/{board}/result"
        codes.append(client.post(path, json={"result": "1-0"}, headers=auth).status_code)
    assert codes == [200, 200, 200, 200, 429, 429]  # per process, 4 each would pass


def test_processes_starting_together_agree_on_the_secret(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_SECRET", raising=False)
    services = [Service(open_store(pg_url)) for _ in range(6)]
    start = threading.Barrier(len(services))
    found: list[Any] = [None] * len(services)

    def begin(index: int) -> None:
        start.wait()
        try:
            found[index] = site_secret(services[index])
        except Exception as error:  # (a lost race: the second INSERT of the same key)
            found[index] = error

    threads = [threading.Thread(target=begin, args=(i,)) for i in range(len(services))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for service in services:
        service.store.close()
    assert all(isinstance(s, str) for s in found), found
    assert len(set(found)) == 1


def test_kept_setting_keeps_the_first(db_url: str) -> None:
    store = open_store(db_url)
    try:
        assert kept_setting(store, "web.secret", "first") == "first"
        assert kept_setting(store, "web.secret", "second") == "first"
    finally:
        store.close()


def test_shared_counters_keep_only_the_current_window(db_url: str) -> None:
    moment = dt.datetime(2026, 5, 1, 18, 0, 5, tzinfo=dt.UTC)
    clock = FixedClock(moment)
    store = open_store(db_url)
    try:
        one, other = RateCounters(store, clock=clock), RateCounters(store, clock=clock)
        assert [one.hit("results:user:a", 3) for _ in range(2)] == [None, None]
        assert other.hit("results:user:a", 3) is None  # counted with the first's
        assert one.hit("results:user:a", 3) == WINDOW - 5  # the 4th: wait for the next window
        assert other.hit("results:user:b", 3, count=4) == WINDOW - 5  # a batch over the limit
        for _minute in range(1, 4):  # later windows: the past ones are deleted
            clock.advance(dt.timedelta(minutes=1))
            for key in ("a", "b", "c"):
                one.hit(f"results:user:{key}", 3)
        with store.reading() as session:
            rows = session.scalar(select(func.count()).select_from(RateCounterRow))
            starts = set(session.scalars(select(RateCounterRow.window_start)))
        assert rows == 3 and len(starts) == 1
    finally:
        store.close()


def test_result_limits_in_memory_on_sqlite() -> None:
    """Without shared counters (SQLite: one process) the limit is counted in memory."""
    limits = ResultLimits()
    caller = Caller(None)
    for _ in range(60):
        limits.check_caller(caller, "results")
    with pytest.raises(Exception, match="429"):
        limits.check_caller(caller, "results")
    with pytest.raises(Exception, match="429"):
        ResultLimits().check("user:x", "results", count=61)
