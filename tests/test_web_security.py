"""Redirects and sign-in limits through HTTP (issue 13 items 8 and 11).

* Every ``next`` (the language switch, the sign-in page and form) and the way back
  after a refused form lead only to a path of this site.
* Failed sign-ins are limited per address and per account, in the database: 30 names
  from one address are refused after the address's limit; a rotating
  ``X-Forwarded-For`` changes nothing under the server settings ``crosstable serve``
  uses by default (and is believed only from a configured proxy); two apps on one
  database share the counts. Refusals are 429 with Retry-After, in the reader's language.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import db_url, migrated  # noqa: F401

from crosstable.cli.serve import server_options
from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store, open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of

PASSWORD = "correct horse battery"

HOSTILE = (
    "///evil.example",
    "//evil.example",
    "//evil.example/t/1",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "http://evil.example/",
    "https://evil.example",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "%2F%2Fevil.example",
    "/%09/evil.example",  # arrives as "/%09/…": harmless, but kept in the list
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/ /evil.example",
    "/\x00/evil.example",
    "/" + "a" * 5000,
)
#: what a hostile value may come back as (only "/%09/…" stays a path of this site)
SAFE = re.compile(r"^/(?![/\\])[!-~]*$")


def make_app(store: Store) -> Any:
    """The app on ``store`` with a clock that stands still: no window ends mid-test."""
    clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, 30, tzinfo=dt.UTC))
    return create_app(service=Service(store, clock=clock))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(open_store(migrated(f"sqlite:///{tmp_path / 'security.db'}")))
    service = app.state.site.service
    with TestClient(app) as client:
        client.app_state = service  # type: ignore[attr-defined]
        yield client


def _located(answer: Any) -> str:
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"])


def test_the_language_switch_never_leaves_the_site(client: TestClient) -> None:
    for target in HOSTILE:
        answer = client.get("/lang/en", params={"next": target}, follow_redirects=False)
        location = _located(answer)
        assert location == "/" or (target == "/%09/evil.example" and location == target), target
        assert SAFE.match(location), target


def test_percent_encoded_slashes_in_the_address_are_refused(client: TestClient) -> None:
    for raw in ("%2F%2Fevil.example", "%2f%2fevil.example", "%5C%5Cevil.example", "/%2Fevil"):
        answer = client.get(f"/lang/en?next={raw}", follow_redirects=False)
        assert _located(answer) == "/", raw


def test_paths_of_the_site_are_followed(client: TestClient) -> None:
    for target in ("/t/1/rounds/2", "/t/1?tab=standings", "/", "/account#tokens"):
        answer = client.get("/lang/ru", params={"next": target}, follow_redirects=False)
        assert _located(answer) == target


def test_sign_in_follows_only_paths_of_the_site(client: TestClient) -> None:
    Accounts(client.app_state.store).create_user("ann", PASSWORD)  # type: ignore[attr-defined]
    for target in (*HOSTILE[:14], *HOSTILE[15:19]):
        page = client.get("/signin", params={"next": target})
        assert "evil.example" not in page.text.split("<main", 1)[-1], target
        answer = client.post(
            "/signin",
            data={
                "username": "ann",
                "password": PASSWORD,
                "csrf_token": csrf_of(page.text),
                "next": target,
            },
            follow_redirects=False,
        )
        assert _located(answer) == "/", target
    page = client.get("/signin", params={"next": "/t/1/rounds/2"})
    answer = client.post(
        "/signin",
        data={"username": "ann", "password": PASSWORD, "csrf_token": csrf_of(page.text)}
        | {"next": "/t/1/rounds/2"},
        follow_redirects=False,
    )
    assert _located(answer) == "/t/1/rounds/2"


def test_the_way_back_after_a_refused_form_stays_on_the_site(client: TestClient) -> None:
    Accounts(client.app_state.store).create_user("ann", PASSWORD)  # type: ignore[attr-defined]
    token = csrf_of(client.get("/signin").text)
    client.post("/signin", data={"username": "ann", "password": PASSWORD, "csrf_token": token})
    token = csrf_of(client.get("/account").text)
    refused = {"csrf_token": token, "current_password": PASSWORD, "new_password": "x" * 9}
    for referer, back in (
        ("https://evil.example/account", "/"),
        ("//evil.example/account", "/"),
        ("http://testserver//evil.example", "/"),
        ("http://testserver/account?tab=1", "/account?tab=1"),
    ):
        answer = client.post(
            "/account/password", data=refused, headers={"Referer": referer}, follow_redirects=False
        )
        assert _located(answer) == back, referer


# -- sign-in limits ----------------------------------------------------------------------


def _attempt(client: TestClient, token: str, name: str, **headers: str) -> Any:
    return client.post(
        "/signin",
        data={"username": name, "password": "wrong password", "csrf_token": token},
        headers=headers,
        follow_redirects=False,
    )


def test_thirty_names_from_one_address_are_refused_after_the_limit(client: TestClient) -> None:
    token = csrf_of(client.get("/signin").text)
    answers = [_attempt(client, token, f"name{index}") for index in range(30)]
    codes = [answer.status_code for answer in answers]
    assert codes == [303] * 20 + [429] * 10
    refused = answers[-1]
    assert refused.headers["Retry-After"] == "570"  # the window's end (18:10), in seconds
    assert "try again in 10 min" in refused.text
    assert "too many sign-in attempts" in refused.text
    # the right password does not get through either, while the address is over its limit
    Accounts(client.app_state.store).create_user("ann", PASSWORD)  # type: ignore[attr-defined]
    blocked = client.post(
        "/signin",
        data={"username": "ann", "password": PASSWORD, "csrf_token": token},
        follow_redirects=False,
    )
    assert blocked.status_code == 429


def test_a_refusal_is_in_the_readers_language(client: TestClient) -> None:
    token = csrf_of(client.get("/signin").text)
    for _ in range(10):
        _attempt(client, token, "ann")
    russian = _attempt(client, token, "ann", **{"Accept-Language": "ru"})
    assert russian.status_code == 429 and "Retry-After" in russian.headers
    assert "слишком много попыток входа" in russian.text
    as_json = _attempt(client, token, "ann", Accept="application/json")
    assert as_json.status_code == 429 and as_json.headers["Retry-After"]
    assert as_json.json()["detail"].startswith("too many sign-in attempts; try again in ")


def test_one_account_is_limited_from_any_address(client: TestClient) -> None:
    token = csrf_of(client.get("/signin").text)
    codes = [_attempt(client, token, "Ann" if i % 2 else "ann ").status_code for i in range(12)]
    assert codes == [303] * 10 + [429] * 2


async def _through_the_server(options: dict[str, Any], app: Any, names: int) -> list[int]:
    """Sign-in attempts from 127.0.0.1 with a new X-Forwarded-For each time, through the
    server settings (uvicorn's own proxy-header middleware) that ``serve`` passes."""
    import httpx
    import uvicorn

    config = uvicorn.Config(app, lifespan="off", **options)
    config.load()
    transport = httpx.ASGITransport(app=config.loaded_app, client=("127.0.0.1", 40123))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        token = csrf_of((await http.get("/signin")).text)
        codes = []
        for index in range(names):
            answer = await http.post(
                "/signin",
                data={"username": f"name{index}", "password": "nope", "csrf_token": token},
                headers={"X-Forwarded-For": f"203.0.113.{index + 1}"},
            )
            codes.append(answer.status_code)
        return codes


def test_a_rotating_forwarded_for_does_not_get_past_the_limit(tmp_path: Path) -> None:
    app = make_app(open_store(migrated(f"sqlite:///{tmp_path / 'proxy.db'}")))
    codes = asyncio.run(_through_the_server(server_options(()), app, 22))
    assert codes == [303] * 20 + [429] * 2


def test_a_configured_proxy_is_believed(tmp_path: Path) -> None:
    """The counterpart: with 127.0.0.1 named as the proxy, each forwarded address is
    its own (so the test above would see no refusal if localhost were trusted)."""
    app = make_app(open_store(migrated(f"sqlite:///{tmp_path / 'proxy.db'}")))
    codes = asyncio.run(_through_the_server(server_options(("127.0.0.1",)), app, 22))
    assert codes == [303] * 22


def test_two_apps_on_one_database_share_the_counts(db_url: str) -> None:
    """Two processes serving one database (two apps, two stores) see the same counters."""
    stores = [open_store(db_url), open_store(db_url)]
    try:
        apps = [make_app(store) for store in stores]
        clients = [TestClient(app) for app in apps]
        tokens = [csrf_of(client.get("/signin").text) for client in clients]
        codes = [_attempt(clients[i % 2], tokens[i % 2], "ann").status_code for i in range(10)]
        assert codes == [303] * 10
        assert [
            _attempt(c, t, "ann").status_code for c, t in zip(clients, tokens, strict=True)
        ] == [
            429,
            429,
        ]
    finally:
        for store in stores:
            store.close()


def test_sign_ups_are_limited_per_address(client: TestClient) -> None:
    token = csrf_of(client.get("/signup").text)
    codes = []
    for index in range(12):
        answer = client.post(
            "/signup",
            data={"username": f"user{index}", "password": "short", "csrf_token": token},
            headers={"Accept": "application/json"},
            follow_redirects=False,
        )
        codes.append(answer.status_code)
    assert codes == [422] * 10 + [429] * 2


def test_serve_passes_the_proxy_settings_to_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``crosstable serve`` itself: proxy headers off by default, on for the named proxies
    (the option and the environment variable), a bad address one line and status 2."""
    import uvicorn

    from crosstable.cli import main

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda _app, **options: seen.append(options))
    monkeypatch.delenv("CROSSTABLE_TRUSTED_PROXIES", raising=False)
    db = str(tmp_path / "serve.db")
    assert main(["serve", "--db", db]) == 0
    assert seen[-1]["proxy_headers"] is False and "forwarded_allow_ips" not in seen[-1]
    argv = ["serve", "--db", db, "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"]
    assert main(argv) == 0
    assert seen[-1]["proxy_headers"] is True
    assert seen[-1]["forwarded_allow_ips"] == "127.0.0.1,10.0.0.0/8"
    monkeypatch.setenv("CROSSTABLE_TRUSTED_PROXIES", "192.0.2.10, 192.0.2.11")
    assert main(["serve", "--db", db]) == 0
    assert seen[-1]["forwarded_allow_ips"] == "192.0.2.10,192.0.2.11"
    assert main(["serve", "--db", db, "--trusted-proxy", "localhost"]) == 2
    assert len(seen) == 3
    error = capsys.readouterr().err.strip().splitlines()
    assert error[-1] == (
        "crosstable: trusted proxy 'localhost': not an IP address or network "
        "(e.g. 10.0.0.1, 10.0.0.0/8)"
    )
