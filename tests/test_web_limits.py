"""Request body limits (issue 13.9): refused with 413 before the body is read.

With a ``Content-Length`` over the route's limit nothing of the body is taken from
the server; a chunked body (no length) is counted and refused at the limit, so the
client's generator is never drained. Checked on the ASGI app (counting what the
app pulls) and on a real uvicorn server (httpx streaming a generator, a raw
socket announcing 200 MB and sending none of it).
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx
from test_service_support import migrated

from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.limits import FIELD, SMALL, UPLOAD, body_limit
from tests.asgi_client import TestClient

RESULT = "/api/v1/tournaments/1/rounds/1/boards/1/result"
CHUNK = 16 * 1024


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app(service=Service(open_store(migrated(f"sqlite:///{tmp_path / 'limits.db'}"))))


def test_each_route_has_its_limit() -> None:
    assert body_limit("POST", RESULT) == SMALL
    assert body_limit("POST", "/t/4/rounds/1/boards/2") == SMALL
    assert body_limit("POST", "/t/4/manage/lots") == SMALL
    assert body_limit("POST", "/signin") == SMALL
    assert body_limit("POST", "/t/4/manage/players") == UPLOAD
    assert body_limit("POST", "/new") == UPLOAD
    assert body_limit("POST", "/new/preview") == UPLOAD
    assert body_limit("POST", "/api/v1/tournaments") == FIELD
    assert body_limit("GET", "/api/v1/tournaments") == SMALL


class Pulled:
    """An ASGI ``receive`` that streams ``chunks`` chunks and counts what was taken."""

    def __init__(self, chunks: int) -> None:
        self.chunks = chunks
        self.taken = 0

    async def __call__(self) -> dict[str, Any]:
        if self.taken >= self.chunks:
            await asyncio.sleep(3600)  # a client that never sends more (the app must not wait)
        self.taken += 1
        return {
            "type": "http.request",
            "body": b"x" * CHUNK,
            "more_body": self.taken < self.chunks,
        }


def call(
    app: Any, path: str, headers: list[tuple[bytes, bytes]], receive: Pulled
) -> tuple[int, dict[bytes, bytes], bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        await asyncio.wait_for(app(scope, receive, send), 60)

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def test_a_chunked_body_is_refused_at_the_limit_without_draining_it(app: Any) -> None:
    receive = Pulled(chunks=2000)  # 32 MB, if anyone read it all
    status, headers, body = call(app, RESULT, [(b"content-type", b"application/json")], receive)
    assert status == 413
    assert json.loads(body) == {"detail": "the request is too large: at most 64 KiB here"}
    assert headers[b"connection"] == b"close"
    assert receive.taken <= SMALL // CHUNK + 1  # 64 KiB and one chunk, not 32 MB


def test_a_declared_length_over_the_limit_is_refused_before_any_byte(app: Any) -> None:
    receive = Pulled(chunks=2000)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"209715200")]
    status, _headers, body = call(app, RESULT, headers, receive)
    assert status == 413 and b"64 KiB" in body
    assert receive.taken == 0


def test_a_form_upload_over_its_limit_is_refused_before_the_sign_in_check(app: Any) -> None:
    # 200 MB announced to the organiser's player upload, anonymously: 413, nothing read
    receive = Pulled(chunks=2000)
    headers = [
        (b"content-type", b"multipart/form-data; boundary=x"),
        (b"content-length", b"209715200"),
        (b"accept", b"text/html"),
    ]
    status, _headers, body = call(app, "/t/1/manage/players", headers, receive)
    assert status == 413 and receive.taken == 0
    assert "at most 8 MiB here" in body.decode()


def test_a_bad_content_length_is_a_400(app: Any) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"12x")]
    status, _headers, body = call(app, RESULT, headers, Pulled(chunks=1))
    assert status == 400 and b"Content-Length" in body


def test_bodies_within_the_limit_reach_the_route(app: Any) -> None:
    with TestClient(app) as client:
        # under 64 KiB: the route answers (no such tournament)
        small = client.post(RESULT, json={"result": "1-0", "idempotency_key": "k" * 100})
        assert small.status_code in (401, 404), small.text
        # a form just over 64 KiB to a small route: 413, as an HTML page in Russian
        form = urllib.parse.urlencode({"method": "x" * (SMALL + 10)})
        refused = client.post(
            "/t/1/manage/lots",
            content=form,
            headers={
                "content-type": "application/x-www-form-urlencoded",
                "accept": "text/html",
                "accept-language": "ru",
            },
        )
        assert refused.status_code == 413
        assert "запрос слишком велик" in refused.text and "<html" in refused.text
        # 1 MiB of players' JSON is within the creation's 2 MiB: read, then refused for
        # another reason (not signed in)
        players = [{"name": f"P{i:06d}"} for i in range(60_000)]
        body = json.dumps({"name": "Open", "format": "swiss", "players": players})
        assert SMALL < len(body) < FIELD
        created = client.post(
            "/api/v1/tournaments", content=body, headers={"content-type": "application/json"}
        )
        assert created.status_code == 401


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    from tests.browser import web_server

    with web_server(tmp_path / "served.db") as url:
        yield url


def test_a_real_server_refuses_a_streamed_body_without_reading_it_all(server: str) -> None:
    sent = 0
    total = 3200  # 200 MiB in 64 KiB chunks

    def generator() -> Iterator[bytes]:
        nonlocal sent
        for _ in range(total):
            sent += 1
            yield b"x" * 65536

    answer = httpx.post(
        server + RESULT,
        content=generator(),
        headers={"content-type": "application/json"},
        timeout=60,
    )
    assert answer.status_code == 413
    assert answer.json()["detail"] == "the request is too large: at most 64 KiB here"
    assert sent < total // 10  # stopped near the limit (socket buffers hold a little more)


def test_a_real_server_answers_a_huge_content_length_at_once(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=60) as connection:
        connection.sendall(
            b"POST /api/v1/tournaments HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nContent-Length: 209715200\r\n\r\n"
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = connection.recv(4096)  # the server answers though no body byte was sent
            if not data:
                break
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
