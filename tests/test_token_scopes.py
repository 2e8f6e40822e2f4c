"""API token scopes (issue 25 item 8): a game server's token (scope ``results``) posts the
results of its tournaments and nothing else, through every route of the app; a personal
token keeps what its user may do, or only results when made so; tokens made before
scopes keep the narrowest scope that covers what they did (migration 0022)."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi.routing import APIRoute
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from test_service_support import started
from web_support import csrf_of, signed_in

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.accounts.tokens import ACCOUNT, RESULTS, SCOPES, scope_of
from crosstable.store import open_store
from crosstable.store.engine import upgrade
from crosstable.web.app import create_app
from crosstable.web.security import RESULT_ROUTES
from tests.asgi_client import TestClient

PASSWORD = "correct horse battery"
SCOPE_REFUSAL = "this API token may only post results"
START = dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC)


@dataclass
class World:
    service: Service
    accounts: Accounts
    client: TestClient
    tid: int
    admin: dict[str, str]
    server: dict[str, str]
    server_id: int


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "token-scopes-test")
    store = open_store(f"sqlite:///{tmp_path / 'scopes.db'}")
    service = Service(store, clock=FixedClock(START), random=random.Random(1))
    accounts = Accounts(store, clock=service.clock)
    admin = accounts.create_user("arbiter", PASSWORD, is_admin=True)
    tid = started(service, 6)
    server_id, server_token = accounts.create_game_server(
        accounts.create_user("bridge", PASSWORD).id, "bridge", tournaments=[tid]
    )
    try:
        with TestClient(create_app(service=service)) as client:
            yield World(
                service,
                accounts,
                client,
                tid,
                _bearer(accounts.create_token(admin.id)),
                _bearer(server_token),
                server_id,
            )
    finally:
        store.close()


def _refused_by_scope(answer: Any) -> bool:
    return answer.status_code == 403 and SCOPE_REFUSAL in answer.text


def _filled(path: str, world: World) -> str:
    values = {"tid": str(world.tid), "token_id": str(world.server_id), "fmt": "json"}
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values.get(m.group(1), "1"), path)


def _routes(items: Any, prefix: str = "") -> Iterator[tuple[str, set[str]]]:
    """(path, methods) of every route of the app, into included routers."""
    for route in items:
        if hasattr(route, "original_router"):
            yield from _routes(route.original_router.routes, prefix + route.include_context.prefix)
        elif isinstance(route, APIRoute):
            yield prefix + route.path, set(route.methods)


def test_a_game_servers_token_reaches_only_the_result_routes(world: World) -> None:
    """Walk the app's route table with a game server's token (granted the tournament):
    a result route is not refused by the scope; every other route is refused (403) or,
    for a route that never asks who is calling, answers exactly as to an anonymous
    visitor (the token adds nothing)."""
    walked = reachable = 0
    for declared, methods in _routes(world.client.app.routes):  # type: ignore[attr-defined]
        if declared == "/t/{tid}/events":  # the live stream: public, and it never ends
            continue
        for method in sorted(methods - {"HEAD", "OPTIONS"}):
            path = _filled(declared, world)
            send: dict[str, Any] = {} if method == "GET" else {"json": {}}
            with_token = world.client.request(
                method, path, headers=world.server, follow_redirects=False, **send
            )
            assert with_token.status_code < 500, (method, declared, with_token.text[:200])
            walked += 1
            if (method, declared) in RESULT_ROUTES:
                assert not _refused_by_scope(with_token), (method, declared)
                reachable += 1
                continue
            if _refused_by_scope(with_token):
                continue
            anonymous = world.client.request(method, path, follow_redirects=False, **send)
            assert method == "GET" or with_token.status_code in (401, 403, 404, 405, 422)
            assert with_token.status_code == anonymous.status_code, (
                method,
                declared,
                with_token.status_code,
                anonymous.status_code,
                with_token.text[:200],
            )
    assert reachable == len(RESULT_ROUTES) and walked > 150


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/v1/tournaments/{tid}/registration", None),
        ("POST", "/api/v1/tournaments/{tid}/undo", {}),
        ("POST", "/api/v1/tournaments/{tid}/revert", {"seq": 1}),
        ("POST", "/api/v1/tournaments", {"name": "Mine", "format": "swiss", "rounds": 3}),
        ("POST", "/api/v1/tournaments/{tid}/rounds/1/boards/1/reject", None),
        ("POST", "/api/v1/tournaments/{tid}/rounds/1/pgn", {"pgn": "*"}),
        ("GET", "/api/v1/tournaments/{tid}/pairing", None),
        ("GET", "/api/v1/game-servers", None),
        ("GET", "/account", None),
        ("GET", "/t/{tid}/manage", None),
    ],
)
def test_a_game_servers_token_is_refused_with_a_clear_message(
    world: World, method: str, path: str, body: Any
) -> None:
    answer = world.client.request(
        method, path.format(tid=world.tid), json=body, headers=world.server, follow_redirects=False
    )
    assert answer.status_code == 403, answer.text[:300]
    assert SCOPE_REFUSAL in answer.text
    assert world.service.history(world.tid)[-1].kind == "start"  # nothing was done


def test_a_game_servers_token_posts_its_results_single_batch_and_moves(world: World) -> None:
    base = f"/api/v1/tournaments/{world.tid}/rounds/1/boards"
    single = world.client.post(f"{base}/1/result", json={"result": "1-0"}, headers=world.server)
    assert single.status_code == 200, single.text
    batch = world.client.post(
        "/api/v1/results",
        json={"results": [{"tournament": world.tid, "round": 1, "board": 2, "result": "0-1"}]},
        headers=world.server,
    )
    assert batch.status_code == 200 and batch.json()["accepted"] == 1, batch.text
    corrected = world.client.post(
        f"{base}/2/correct", json={"result": "1-0", "expected": "0-1"}, headers=world.server
    )
    assert corrected.status_code == 200, corrected.text
    # another tournament, not granted: the role says no (the scope lets the route through)
    other = started(world.service, 4)
    refused = world.client.post(
        f"/api/v1/tournaments/{other}/rounds/1/boards/1/result",
        json={"result": "1-0"},
        headers=world.server,
    )
    assert refused.status_code == 403 and SCOPE_REFUSAL not in refused.text


def test_a_personal_token_acts_as_its_user_or_only_posts_results(world: World) -> None:
    admin = world.accounts.find_user("arbiter")
    assert admin is not None
    body = {"name": "Open", "format": "swiss", "rounds": 3}
    whole = world.client.post("/api/v1/tournaments", json=body, headers=world.admin)
    assert whole.status_code == 201, whole.text
    narrow = _bearer(world.accounts.create_token(admin.id, "results app", scope=RESULTS))
    refused = world.client.post("/api/v1/tournaments", json=body, headers=narrow)
    assert _refused_by_scope(refused)
    assert _refused_by_scope(
        world.client.post(f"/api/v1/tournaments/{world.tid}/undo", json={}, headers=narrow)
    )
    posted = world.client.post(
        f"/api/v1/tournaments/{world.tid}/rounds/1/boards/3/result",
        json={"result": "1/2-1/2"},
        headers=narrow,
    )
    assert posted.status_code == 200, posted.text
    assert [scope for *_rest, scope in world.accounts.tokens(admin.id)] == [ACCOUNT, RESULTS]
    with pytest.raises(RuleError, match="scope: "):
        world.accounts.create_token(admin.id, scope="everything")


def test_scopes_are_shown_and_chosen_on_the_account_page(world: World) -> None:
    signed_in(world.client, "arbiter", PASSWORD)
    page = world.client.get("/account")
    csrf = csrf_of(page.text)
    made = world.client.post(
        "/account/tokens",
        data={"label": "scoresheet app", "scope": RESULTS, "csrf_token": csrf},
        follow_redirects=False,
    )
    assert made.status_code == 303
    page = world.client.get("/account").text
    assert "scoresheet app" in page and "results" in page
    admin = world.accounts.find_user("arbiter")
    assert admin is not None
    made_tokens = world.accounts.tokens(admin.id)
    assert ("scoresheet app", RESULTS) in [(label, scope) for _i, label, _at, scope in made_tokens]
    bad = world.client.post(
        "/account/tokens",
        data={"label": "x", "scope": "root", "csrf_token": csrf},
        follow_redirects=False,
    )
    assert bad.status_code == 303  # refused with a message, nothing made
    assert len(world.accounts.tokens(admin.id)) == 2
    servers = world.client.get("/admin/game-servers").text
    assert "results" in servers


def test_the_command_line_shows_and_chooses_scopes(world: World, capsys: Any) -> None:
    url = str(world.service.store.url)
    assert main(["game-server", "list", "--db", url]) == 0
    assert '"scope": "results"' in capsys.readouterr().out
    made = ["account", "token", "arbiter", "--label", "bot", "--scope", "results", "--db", url]
    assert main(made) == 0
    token = capsys.readouterr().out.strip().rsplit(" ", 1)[-1]
    assert world.accounts.token_for(token)[1].scope == RESULTS  # type: ignore[union-attr]
    assert main(["account", "tokens", "arbiter", "--db", url]) == 0
    assert '"scope": "results"' in capsys.readouterr().out
    assert main(["account", "token", "arbiter", "--scope", "root", "--db", url]) == 2
    assert "scope: 'root' is not one of account, results" in capsys.readouterr().err


def test_tokens_made_before_scopes_keep_what_they_did(tmp_path: Path) -> None:
    """Migration 0022: a game server's token gets ``results``, a personal one ``account``."""
    from alembic import command
    from alembic.config import Config

    store = open_store(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        accounts = Accounts(store)
        ann = accounts.create_user("ann", PASSWORD)
        personal = accounts.create_token(ann.id)
        _sid, server = accounts.create_game_server(ann.id, "bridge")
        config = Config()
        config.set_main_option("script_location", "crosstable.store:migrations")
        with store._writer.connect() as connection, connection.begin():
            config.attributes["connection"] = connection
            command.downgrade(config, "0021")
        upgrade(store)
        with store.engine.connect() as connection:
            rows = connection.execute(text("SELECT kind, scopes FROM api_tokens ORDER BY id"))
            assert [tuple(r) for r in rows] == [("personal", ACCOUNT), ("game server", RESULTS)]
        assert accounts.token_for(personal)[1].scope == ACCOUNT  # type: ignore[union-attr]
        assert accounts.token_for(server)[1].scope == RESULTS  # type: ignore[union-attr]
    finally:
        store.close()


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["personal", "game server", "other"]), stored=st.text(max_size=30))
def test_a_stored_scope_is_read_as_one_of_the_scopes(kind: str, stored: str) -> None:
    """Whatever a row holds, its scope is a known one, and a game server's is results."""
    scope = scope_of(kind, stored)
    assert scope in SCOPES
    assert kind != "game server" or scope == RESULTS
    assert stored not in SCOPES or kind == "game server" or scope == stored
