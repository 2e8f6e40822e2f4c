"""The tests' one-trip client (tests/asgi_client.py) answers as Starlette's TestClient, the
client it stands in for: the same status, headers and body for any request, and the same
cookies kept from one request to the next. Only each session's CSRF token differs (it is
random); it is compared after being named as such."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette import testclient
from test_service_support import migrated

from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.demo import PASSWORD, USERNAME, build_demo
from tests.asgi_client import TestClient

CSRF = re.compile(r'(csrf-token" content="|X-CSRF-Token": "|name="csrf_token" value=")([^"]+)"')
#: paths of the app's kinds of answer: pages, the API, static files, errors
PATHS = [
    "/",
    "/t/{n}",
    "/t/{n}/history",
    "/t/{n}/rounds/{m}",
    "/api/v1/tournaments/{n}",
    "/api/v1/tournaments/{n}/standings",
    "/static/app.js",
    "/signin",
    "/series",
    "/{text}",
    "/t/{text}",
]


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    folder: Path = tmp_path_factory.mktemp("clients")
    service = Service(open_store(migrated(f"sqlite:///{folder / 'demo.db'}")))
    build_demo(service)
    app = create_app(service=service)
    with testclient.TestClient(app) as starlette, TestClient(app) as one_trip:
        yield starlette, one_trip
    service.store.close()


def _answer(response: Any) -> tuple[int, dict[str, str], list[str], str]:
    headers = {k: v for k, v in response.headers.items() if k not in ("date", "set-cookie")}
    cookies = sorted(c.split("=", 1)[0] for c in response.headers.get_list("set-cookie"))
    return response.status_code, headers, cookies, CSRF.sub(r'\1CSRF"', response.text)


def _both(clients: tuple[Any, Any], method: str, path: str, **options: Any) -> None:
    starlette, one_trip = clients
    expected = starlette.request(method, path, follow_redirects=False, **options)
    got = one_trip.request(method, path, follow_redirects=False, **options)
    # (compared as a flag: pytest's diff of two whole pages, redone at every shrinking
    # step, would cost minutes; the message names the part that differs)
    parts = ("status", "headers", "cookies", "body")
    differ = [
        name for name, a, b in zip(parts, _answer(got), _answer(expected), strict=True) if a != b
    ]
    assert not differ, (method, path, differ)


@settings(max_examples=60, deadline=None)
@given(
    method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE"]),
    template=st.sampled_from(PATHS),
    n=st.integers(-1, 4),
    m=st.integers(0, 3),
    text=st.text(min_size=1, max_size=12),
    query=st.dictionaries(st.sampled_from(["next", "rev", "q", "é"]), st.text(max_size=8)),
    body=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), st.text(max_size=5))),
)
def test_any_request_gets_the_answer_starlettes_client_gets(
    clients: tuple[Any, Any],
    method: str,
    template: str,
    n: int,
    m: int,
    text: str,
    query: dict[str, str],
    body: dict[str, str] | None,
) -> None:
    path = template.format(n=n, m=m, text=text.replace("/", "_").replace("?", "_"))
    options: dict[str, Any] = {"params": query}
    if body is not None and method in ("POST", "PUT"):
        options["data"] = body
    _both(clients, method, path, **options)


#: requests whose answers depend on each part of the request: the query (the page to go
#: back to), an encoded path, the method, a form, a JSON body, a redirect
FIXED: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/signin?next=/t/1", {}),
    ("GET", "/signin", {"params": {"next": "/t/2/history"}}),
    ("GET", "/t/%D0%B0%20b", {}),
    ("GET", "/api/v1/tournaments/1/standings?round=1", {}),
    ("HEAD", "/static/app.js", {}),
    ("POST", "/signin", {"data": {"username": "x", "password": "y"}}),
    ("POST", "/api/v1/tournaments", {"json": {"name": "Club"}}),
    ("GET", "/lang/ru?next=/series", {}),
]


@pytest.mark.parametrize(("method", "path", "options"), FIXED)
def test_each_part_of_a_request_reaches_the_app_alike(
    clients: tuple[Any, Any], method: str, path: str, options: dict[str, Any]
) -> None:
    _both(clients, method, path, **options)


def test_a_signed_in_session_is_kept_alike(clients: tuple[Any, Any]) -> None:
    """Signing in (the form's token read from the page, the session cookie kept), then
    pages only the signed-in see, and signing out: each step answered alike."""
    for client in clients:
        token = CSRF.search(client.get("/signin").text)
        assert token is not None
        form = {"username": USERNAME, "password": PASSWORD, "csrf_token": token.group(2)}
        signed = client.post("/signin", data=form, follow_redirects=False)
        assert signed.status_code == 303, signed.text[:300]
    for path in ("/", "/account", "/t/1/manage", "/new"):
        _both(clients, "GET", path)
