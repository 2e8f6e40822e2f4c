"""Request body limits per route, enforced before a body is read.

A plain ASGI middleware (:class:`BodyLimit`) gives every request the limit of its
route (:func:`body_limit`): small for results, forms and the JSON API, larger
only where a player list or a file comes in. A request whose ``Content-Length``
is over the limit is refused with 413 on its first read, before a byte of the
body is taken from the server; a body without a length (chunked) is counted as
it streams and refused at the first chunk that passes the limit, so at most the
limit plus one chunk is ever held. The 413 goes through the app's error handler
(a page, a flash message or ``{"detail": …}``, in the reader's language) and
closes the connection, so the client stops sending. A route that never reads
its body never takes it at all.

>>> body_limit("POST", "/api/v1/tournaments/3/rounds/1/boards/2/result") == SMALL
True
>>> body_limit("POST", "/t/3/manage/players") == UPLOAD
True
>>> body_limit("POST", "/api/v1/tournaments") == FIELD
True
"""

from __future__ import annotations

import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from crosstable.core.text import Message

#: results, reports, forms, the JSON API: 64 KiB
SMALL = 64 * 1024
#: a new tournament with its players as JSON (1 000 players take ~0.2 MiB): 2 MiB
FIELD = 2 * 1024 * 1024
#: a pasted player list or a CSV file (the wizard, the organiser's players): 8 MiB
UPLOAD = 8 * 1024 * 1024
#: a rating list (FIDE's zipped TXT list is ~40 MiB, its zipped XML ~100 MiB; an
#: unzipped TXT list ~300 MiB): 512 MiB, streamed to a temporary file
RATING_LIST = 512 * 1024 * 1024
#: a game server's batch of results (500 take ~100 KiB) and an administrator's grants: 1 MiB
BATCH = 1024 * 1024

#: (method, path pattern, limit): the first match wins; anything else gets SMALL
ROUTES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("POST", re.compile(r"/api/v1/tournaments"), FIELD),
    ("POST", re.compile(r"/api/v1/results"), BATCH),
    ("POST", re.compile(r"/api/v1/game-servers(/[0-9]+/grants)?"), BATCH),
    ("POST", re.compile(r"/admin/game-servers(/[0-9]+/grants)?"), BATCH),
    ("POST", re.compile(r"/new(/preview)?"), UPLOAD),
    ("POST", re.compile(r"/t/[^/]+/manage/players"), UPLOAD),
    ("POST", re.compile(r"/admin/rating-lists"), RATING_LIST),
    # a TRF file to import (the reader takes 4 MiB; JSON escapes, a form re-sends it)
    ("POST", re.compile(r"/api/v1/tournaments/import|/import"), UPLOAD),
    # the offline app's export (a tournament JSON) to store
    ("POST", re.compile(r"/api/v1/offline/import"), UPLOAD),
    # a PGN: a game's, a round's, a tournament's (the service reads 4 MiB)
    ("POST", re.compile(r"(/api/v1/tournaments/[^/]+|/t/[^/]+)(/rounds/[^/]+)?/pgn"), UPLOAD),
    ("POST", re.compile(r"(/api/v1/tournaments|/t)/[^/]+/rounds/[^/]+/boards/[^/]+/pgn"), UPLOAD),
)


def body_limit(method: str, path: str) -> int:
    """The largest body (bytes) the route of ``method`` ``path`` accepts."""
    for route_method, pattern, limit in ROUTES:
        if method == route_method and pattern.fullmatch(path):
            return limit
    return SMALL


def size_text(limit: int) -> str:
    """``65536`` → ``"64 KiB"``, ``8388608`` → ``"8 MiB"``."""
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    return f"{limit // 1024} KiB"


class BodyTooLarge(HTTPException):
    """413: the body is over the route's limit (raised by the limited ``receive``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            status_code=413,
            detail=Message("the request is too large: at most {size} here", size=size_text(limit)),
            headers={"Connection": "close"},
        )
        self.limit = limit


class BadLength(HTTPException):
    """400: a ``Content-Length`` that is not a number."""

    def __init__(self) -> None:
        super().__init__(
            status_code=400,
            detail="the request's Content-Length is not a number",
            headers={"Connection": "close"},
        )


class BodyLimit:
    """ASGI middleware: the route's body limit on every HTTP request."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope.get("method", "GET"), scope.get("path", ""))
        declared: int | None = None
        malformed = False
        for name, value in scope.get("headers") or ():
            if name.lower() == b"content-length":
                text = value.decode("latin-1").strip()
                if text.isascii() and text.isdigit() and len(text) <= 18:
                    declared = int(text)
                else:
                    malformed = True
        seen = 0

        async def limited_receive() -> Any:
            nonlocal seen
            if malformed:
                raise BadLength()
            if declared is not None and declared > limit:
                raise BodyTooLarge(limit)  # refused before the server hands over a byte
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        started = False

        async def watched_send(message: Any) -> None:
            nonlocal started
            if message.get("type") == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except (BodyTooLarge, BadLength) as error:
            # only if the app let it through (its handler answers it otherwise)
            if started:
                raise
            response = JSONResponse(
                {"detail": error.detail}, status_code=error.status_code, headers=error.headers
            )
            await response(scope, receive, send)


__all__ = ["BATCH", "FIELD", "SMALL", "UPLOAD", "BodyLimit", "BodyTooLarge", "body_limit"]
