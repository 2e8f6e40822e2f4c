"""What the live hub relies on inside uvicorn and asyncio (crosstable.web.uvicorn_direct),
pinned against the real server: a uvicorn upgrade that changes any of it fails here.

A real uvicorn serves a tiny ASGI app in a thread; the app uses the tricks on its own
response and notes what it saw, and the client reads the raw HTTP/1.1 stream.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from crosstable.web.uvicorn_direct import (
    HTTPTOOLS_MODULE,
    direct_connection,
    http_chunk,
    start_eagerly,
    write_chunk,
)


class _Recording:
    """A transport that notes what is written to it (and passes it on)."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    seen = SEEN
    await send({"type": "http.response.start", "status": 200, "headers": []})
    connection = direct_connection(send, scope)
    seen["direct"] = connection is not None
    if connection is None:
        await send({"type": "http.response.body", "body": b"plain ", "more_body": True})
    else:
        # the server frames a body message as http_chunk does
        real = connection.transport
        connection.transport = recording = _Recording(real)
        await send({"type": "http.response.body", "body": b"framed ", "more_body": True})
        connection.transport = real
        seen["framing"] = recording.written == [http_chunk(b"framed ")]
        # written straight to the connection: the same stream
        seen["direct write"] = write_chunk(connection, http_chunk(b"direct "))
        # over the high-water mark: no direct write, and the server's send waits on an
        # asyncio future that a task takes over
        connection.flow.pause_writing()
        seen["paused write"] = write_chunk(connection, http_chunk(b"lost "))
        rest = start_eagerly(
            send({"type": "http.response.body", "body": b"waited ", "more_body": True})
        )
        seen["send waited"] = rest is not None
        connection.flow.resume_writing()
        if rest is not None:
            await rest
    await send({"type": "http.response.body", "body": b"end", "more_body": False})


SEEN: dict[str, Any] = {}


@pytest.fixture
def serve() -> Iterator[Any]:
    """A function that starts uvicorn (``http``, ``loop``) on a free port: the port."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(http: str, loop: str) -> int:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)  # (connections queue here until the server takes them)
        config = uvicorn.Config(_app, http=http, loop=loop, log_level="warning", lifespan="off")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread))
        return int(sock.getsockname()[1])

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(20)


def _get(port: int) -> bytes:
    """The raw body of GET / (chunked), read to its last chunk."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        raw = b""
        while not raw.endswith(b"0\r\n\r\n"):
            data = sock.recv(65536)
            assert data, f"the server closed the stream early: {raw!r}"
            raw += data
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    return body


def _chunks(raw: bytes) -> list[bytes]:
    chunks, at = [], 0
    while True:
        end = raw.index(b"\r\n", at)
        size = int(raw[at:end], 16)
        chunks.append(raw[end + 2 : end + 2 + size])
        assert raw[end + 2 + size : end + 4 + size] == b"\r\n"
        at = end + 4 + size
        if size == 0:
            return chunks


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_uvicorns_httptools_connection_is_what_the_hub_writes_to(serve: Any, loop: str) -> None:
    SEEN.clear()
    body = _get(serve("httptools", loop))
    assert SEEN == {
        "direct": True,
        "framing": True,
        "direct write": True,
        "paused write": False,
        "send waited": True,
    }
    assert _chunks(body) == [b"framed ", b"direct ", b"waited ", b"end", b""]


def test_any_other_server_keeps_its_own_send(serve: Any) -> None:
    SEEN.clear()
    body = _get(serve("h11", "asyncio"))
    assert SEEN == {"direct": False}
    assert b"".join(_chunks(body)) == b"plain end"


def test_the_connection_class_is_where_the_hub_looks_for_it() -> None:
    from uvicorn.protocols.http import httptools_impl

    assert httptools_impl.RequestResponseCycle.__module__ == HTTPTOOLS_MODULE


def test_a_coroutine_waiting_on_a_future_yields_it_for_a_task_to_take_over() -> None:
    """The asyncio protocol start_eagerly follows: what ``send(None)`` gives back is the
    future, flagged as blocking, and the rest finishes once it is done."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        done: list[str] = []

        async def waits(future: asyncio.Future[None]) -> None:
            await future
            done.append("after")

        first: asyncio.Future[None] = loop.create_future()
        coroutine = waits(first)
        waiting = coroutine.send(None)
        assert waiting is first and first._asyncio_future_blocking is True
        coroutine.close()
        second: asyncio.Future[None] = loop.create_future()
        rest = start_eagerly(waits(second))
        assert rest is not None
        task = loop.create_task(rest)
        await asyncio.sleep(0)
        assert not task.done()
        second.set_result(None)
        await task
        assert done == ["after"]

    asyncio.run(scenario())
