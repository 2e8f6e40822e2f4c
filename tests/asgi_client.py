"""The tests' client of the app: Starlette's TestClient, with each request run in one
trip to the app's event loop.

Starlette's client goes to the thread of the event loop and back nine times or more for
every request (two events, a memory stream and a cancel scope are made there, the app is
started, the response awaited, each body chunk and the end read, the app closed): about
1.7 ms a request on the test machine, more than the app itself takes for most pages
(1–2 ms). Here the same ASGI scope is built, the app runs to its end in one call, and
httpx gets the whole body. Everything else — cookies, redirects, the lifespan under
``with``, server exceptions raised in the test — stays Starlette's TestClient.

A response that never ends (a live event stream) would never return here, nor would it
from Starlette's client once its body is read: the tests read those with their own ASGI
driver (tests/test_web_live.py) or from a real server.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import anyio
import httpx
from starlette import testclient

PORTS = {"http": 80, "https": 443}  # (web sockets go to Starlette's own transport)


class _Exchange:
    """One request's run of the app: what it sent back, and how it ended."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.asked = False
        self.status: int | None = None
        self.headers: list[tuple[str, str]] = []
        self.chunks: list[bytes] = []
        self.complete = anyio.Event()
        self.error: BaseException | None = None

    async def receive(self) -> dict[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": self.body, "more_body": False}
        await self.complete.wait()  # (as a client that stays until the response ends)
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            assert self.status is None, "a second response start"
            self.status = message["status"]
            self.headers = [(k.decode(), v.decode()) for k, v in message.get("headers", [])]
        elif kind == "http.response.body":
            assert self.status is not None, "a body before the response start"
            assert not self.complete.is_set(), "a body after the response ended"
            self.chunks.append(bytes(message.get("body", b"")))
            if not message.get("more_body", False):
                self.complete.set()


class OneTripTransport(httpx.BaseTransport):
    """Runs the app once per request on the client's event loop (its blocking portal);
    Starlette's transport ``starlette`` gives the settings, and takes the web sockets."""

    def __init__(self, starlette: Any) -> None:
        self.starlette = starlette

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url, settings = request.url, self.starlette
        if url.scheme not in ("http", "https"):
            return settings.handle_request(request)  # type: ignore[no-any-return]
        raw_path, _, query = url.raw_path.partition(b"?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "path": unquote(raw_path.decode("ascii")),
            "raw_path": raw_path,
            "root_path": settings.root_path,
            "scheme": url.scheme,
            "query_string": query,
            "headers": [(k.lower().encode(), v.encode()) for k, v in request.headers.multi_items()],
            "client": settings.client,
            "server": [url.host, url.port or PORTS[url.scheme]],
            "extensions": {},
            "state": settings.app_state.copy(),
        }
        exchange = _Exchange(request.read())
        with settings.portal_factory() as portal:
            portal.call(self._run, scope, exchange)
        if exchange.error is not None and settings.raise_server_exceptions:
            raise exchange.error
        if exchange.status is None:
            if settings.raise_server_exceptions:
                raise AssertionError("the app sent no response")
            return httpx.Response(500, stream=httpx.ByteStream(b""), request=request)
        body = b"" if request.method == "HEAD" else b"".join(exchange.chunks)
        return httpx.Response(
            exchange.status,
            headers=exchange.headers,
            stream=httpx.ByteStream(body),
            request=request,
        )

    async def _run(self, scope: dict[str, Any], exchange: _Exchange) -> None:
        try:
            await self.starlette.app(scope, exchange.receive, exchange.send)
        except Exception as error:  # (raised in the test, as Starlette's client does)
            exchange.error = error
        finally:
            exchange.complete.set()


class TestClient(testclient.TestClient):
    """Starlette's TestClient, each request one trip to the app (:class:`OneTripTransport`)."""

    __test__ = False

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)
        # (httpx keeps the transport a client was made with there; Starlette makes its own)
        self._transport = OneTripTransport(self._transport)
