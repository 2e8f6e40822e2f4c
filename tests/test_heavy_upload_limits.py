"""Heavy uploads are rate-limited per account and per client, counted in the store so every
process on one database counts together, and checked before the body is read (issue 25
item 9): 429 with Retry-After; anonymous 401 and no role 403 without taking a byte. Two
app instances on one database (SQLite, PostgreSQL) stand for two processes."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request
from test_service_support import db_url, migrated_url, started  # noqa: F401
from test_web_limits import CHUNK, Pulled, call
from web_support import signed_in

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.limits import UPLOAD
from crosstable.web.routes import common
from crosstable.web.routes.common import HEAVY, KIB, HeavyLimit, declared_size
from tests.asgi_client import TestClient

PASSWORD = "correct horse battery"
START = dt.datetime(2026, 5, 1, 18, 0, 30, tzinfo=dt.UTC)


@dataclass
class World:
    url: str
    tid: int
    olga: dict[str, str]
    boris: dict[str, str]
    apps: list[Any]


def _app(url: str) -> Any:
    return create_app(
        service=Service(open_store(url), clock=FixedClock(START), random=random.Random(1))
    )


@pytest.fixture
def world(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "heavy-uploads-test")
    # small limits, so that a few 100 KiB uploads reach them (the units are the real ones)
    monkeypatch.setitem(HEAVY, "pgn", HeavyLimit(64 * KIB, per_account=4, per_client=6))
    url = migrated_url
    store = open_store(url)
    service = Service(store, clock=FixedClock(START), random=random.Random(1))
    accounts = Accounts(store, clock=service.clock)
    olga = accounts.create_user("olga", PASSWORD, is_admin=True)
    boris = accounts.create_user("boris", PASSWORD, is_admin=True)
    tid = started(service, 4)
    apps = [_app(url), _app(url)]
    yield World(
        url,
        tid,
        {"Authorization": f"Bearer {accounts.create_token(olga.id)}"},
        {"Authorization": f"Bearer {accounts.create_token(boris.id)}"},
        apps,
    )
    for app in apps:
        app.state.site.service.store.close()
    store.close()


def _junk_pgn(size: int = 100 * KIB) -> dict[str, str]:
    """A PGN body of ``size`` bytes that the service refuses quickly (422): what is counted
    is the upload, not whether it was good."""
    return {"pgn": '[Event "x"]\n\n{' + "c" * (size - 20) + "} *\n"}


def test_round_uploads_are_counted_across_processes_per_account(world: World) -> None:
    path = f"/api/v1/tournaments/{world.tid}/rounds/1/pgn"
    clients = [TestClient(app) for app in world.apps]
    for attempt in range(4):  # 100 KiB each: one unit; the account may send 4 a minute
        answer = clients[attempt % 2].post(path, json=_junk_pgn(), headers=world.olga)
        assert answer.status_code == 422, answer.text[:200]
    for client in clients:
        refused = client.post(path, json=_junk_pgn(), headers=world.olga)
        assert refused.status_code == 429, refused.text[:200]
        assert refused.headers["Retry-After"] == "30"  # to the minute's end
        assert "too many large uploads" in refused.json()["detail"]
    # the same address is at 6 now (4 + 2 refused): boris, from it, is refused too
    assert clients[0].post(path, json=_junk_pgn(), headers=world.boris).status_code == 429
    # ... but not from another address, nor a small upload (a game's PGN costs no unit)
    elsewhere = TestClient(world.apps[1], client=("10.0.0.7", 4000))
    assert elsewhere.post(path, json=_junk_pgn(), headers=world.boris).status_code == 422
    game = f"/api/v1/tournaments/{world.tid}/rounds/1/boards/1/pgn"
    small = clients[0].post(game, json={"pgn": "1. e4 e5 *"}, headers=world.olga)
    assert small.status_code == 200, small.text


def test_refusals_come_before_the_body_is_read(world: World) -> None:
    path = f"/api/v1/tournaments/{world.tid}/rounds/1/pgn"
    declared = [(b"content-type", b"application/json"), (b"content-length", str(UPLOAD).encode())]
    # anonymous: 401 without a byte taken
    receive = Pulled(chunks=UPLOAD // CHUNK)
    status, _headers, _body = call(world.apps[0], path, declared, receive)
    assert status == 401 and receive.taken == 0
    # an account without a role in the tournament: 403 without a byte taken
    app = world.apps[0]
    site = app.state.site
    nobody = site.accounts.create_user("nina", PASSWORD)
    token = site.accounts.create_token(nobody.id).encode()
    receive = Pulled(chunks=UPLOAD // CHUNK)
    status, _h, _b = call(app, path, [*declared, (b"authorization", b"Bearer " + token)], receive)
    assert status == 403 and receive.taken == 0
    # the organiser: an 8 MiB upload is 128 units, over the account's minute: 429, no byte
    receive = Pulled(chunks=UPLOAD // CHUNK)
    olga = world.olga["Authorization"].encode()
    status, headers, body = call(app, path, [*declared, (b"authorization", olga)], receive)
    assert status == 429 and receive.taken == 0, body[:200]
    assert headers[b"retry-after"] == b"30"


def test_the_round_page_form_is_limited_too(world: World) -> None:
    client = TestClient(world.apps[0])
    csrf = signed_in(client, "olga", PASSWORD)
    path = f"/t/{world.tid}/rounds/1/pgn"
    upload = {"file": ("round.pgn", _junk_pgn()["pgn"].encode(), "application/x-chess-pgn")}
    statuses = [
        client.post(path, data={"csrf_token": csrf}, files=upload, follow_redirects=False)
        for _ in range(5)
    ]
    assert [s.status_code for s in statuses] == [303] * 4 + [429]
    assert statuses[-1].headers["Retry-After"] == "30"


def _request(headers: list[tuple[bytes, bytes]]) -> Request:
    path = "/api/v1/tournaments/1/pgn"
    return Request(
        {"type": "http", "method": "POST", "path": path, "headers": headers, "query_string": b""}
    )


@settings(max_examples=300, deadline=None)
@given(value=st.binary(max_size=40))
def test_any_content_length_is_read_as_a_size_within_the_route_limit_or_its_number(
    value: bytes,
) -> None:
    """The declared length parser: a number of ASCII digits is taken as given; anything
    else (empty, signs, spaces, Unicode digits, 40 digits) counts as the route's limit."""
    size = declared_size(_request([(b"content-length", value)]))
    text = value.decode("latin-1")
    if text.isascii() and text.isdigit() and len(text) <= 12:
        assert size == int(text)
    else:
        assert size == UPLOAD
    assert common.declared_size(_request([])) == UPLOAD
