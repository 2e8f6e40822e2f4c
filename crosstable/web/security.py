r"""Who is asking, and may they: signed session cookies, CSRF tokens, API tokens, rate limits.

* Sessions: Starlette's ``SessionMiddleware`` (an itsdangerous-signed cookie,
  HttpOnly, SameSite=Lax, Secure when the site runs behind HTTPS). The cookie
  holds the session id (``sid``) and the CSRF token; who the session belongs to,
  and whether it still counts, is the server's row
  (:class:`crosstable.service.sessions.Sessions`, issue 13 item 7): a revoked,
  idle or unknown session is a signed-out visitor.
* CSRF: every form carries ``csrf_token``; htmx requests send it as the
  ``X-CSRF-Token`` header. A state-changing request authenticated by the
  session cookie without the right token is refused (403). Requests that
  authenticate with ``Authorization: Bearer <API token>`` carry no cookie and
  need no CSRF token. The token lives in the signed cookie next to the session
  id; signing in and out starts a fresh cookie, so a fresh token.
* Rate limits: failed sign-ins per address and per account in the database
  (:class:`crosstable.service.sessions.SignInLimits`, shared by every process);
  result reports per user in each process (:class:`RateLimiter`, a sliding window).
* Redirects: every ``next`` (and the way back after an error) goes through
  :func:`safe_next`: only a path of this site (issue 13 item 8).

>>> limiter = RateLimiter(2, 60)
>>> [limiter.hit("k", now=t) for t in (0, 1, 2, 61.5)]
[True, True, False, True]
>>> [safe_next(t) for t in ("/t/3/rounds/2?x=1", "//evil.example", "/\\evil", "https://e.x")]
['/t/3/rounds/2?x=1', '/', '/', '/']
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi import HTTPException, Request

from crosstable.core.text import Message
from crosstable.service.accounts import UserInfo

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the longest ``next`` that is followed (a longer one sends the visitor home)
NEXT_MAX = 2000


def safe_next(target: str | None, fallback: str = "/") -> str:
    """``target`` if it is a path of this site, else ``fallback`` (no open redirects).

    A path of this site starts with one ``/`` followed by anything but ``/`` or
    ``\\`` (``//host`` and ``/\\host`` are other sites to a browser), and has only
    printable ASCII without a backslash: browsers drop tabs and newlines from
    addresses (``/\t/host`` is ``//host``) and read ``\\`` as ``/``. A scheme
    (``https:``, ``javascript:``) never starts with ``/``. ``%2F%2Fhost`` in a
    query arrives decoded, as ``//host``.
    """
    if not target or len(target) > NEXT_MAX or not target.startswith("/"):
        return fallback
    if target[1:2] in ("/", "\\"):
        return fallback
    if any(not ("!" <= char <= "~") or char == "\\" for char in target):
        return fallback
    return target


def safe_referer(request: Request, fallback: str = "/") -> str:
    """The page a form was sent from, if it is this site's (its path and query)."""
    referer = request.headers.get("referer") or ""
    parsed = urlsplit(referer)
    if parsed.scheme not in ("http", "https") or parsed.netloc != request.url.netloc:
        return fallback
    path = parsed.path or "/"
    return safe_next(path + (f"?{parsed.query}" if parsed.query else ""), fallback)


def client_address(request: Request) -> str:
    """The address the request came from: the peer's, or what a configured proxy says
    (``crosstable serve --trusted-proxy``; by default no forwarded header is trusted)."""
    return request.client.host if request.client else "?"


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds for each key."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, *, now: float | None = None) -> bool:
        """Count one event; False when the key is over its limit (the event is refused)."""
        moment = time.monotonic() if now is None else now
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= moment - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(moment)
            if len(self._hits) > 100_000:  # forget idle keys
                for stale in [k for k, v in self._hits.items() if not v][:50_000]:
                    del self._hits[stale]
            return True

    def check(self, key: str, what: str) -> None:
        if not self.hit(key):
            raise HTTPException(
                status_code=429,
                detail=Message("too many {what}; wait a minute and try again", what=what),
                headers={"Retry-After": str(int(self.window))},
            )


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return str(token)


def check_csrf(request: Request, submitted: str | None) -> None:
    expected = request.session.get("csrf")
    given = submitted or request.headers.get("x-csrf-token")
    if not expected or not given or not hmac.compare_digest(str(expected), str(given)):
        raise HTTPException(status_code=403, detail="the form expired or was not sent by this site")


@dataclass(frozen=True, slots=True)
class Caller:
    """The person behind a request: a user (or None), and how they proved it."""

    user: UserInfo | None
    by_token: bool = False

    @property
    def signed_in(self) -> bool:
        return self.user is not None

    @property
    def actor(self) -> str:
        return "" if self.user is None else self.user.username


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None
