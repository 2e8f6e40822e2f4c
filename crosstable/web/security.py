r"""Who is asking, and may they: signed session cookies, CSRF tokens, API tokens, rate limits.

* Sessions: Starlette's ``SessionMiddleware`` (an itsdangerous-signed cookie,
  HttpOnly, SameSite=Lax, Secure when the site runs behind HTTPS). The cookie
  holds the session id (``sid``) and the CSRF token; who the session belongs to,
  and whether it still counts, is the server's row
  (:class:`crosstable.service.sessions.Sessions`): a revoked,
  idle or unknown session is a signed-out visitor.
* CSRF: every form carries ``csrf_token``; htmx requests send it as the
  ``X-CSRF-Token`` header. A state-changing request authenticated by the
  session cookie without the right token is refused (403). Requests that
  authenticate with ``Authorization: Bearer <API token>`` carry no cookie and
  need no CSRF token. The token lives in the signed cookie next to the session
  id; signing in and out starts a fresh cookie, so a fresh token.
* Rate limits: failed sign-ins per address and per account in the database
  (:class:`crosstable.service.sessions.SignInLimits`, shared by every process);
  results and result reports per user, and per game server's token at its own
  limit (:class:`ResultLimits`): in each process on SQLite (one process serves a
  file; :class:`RateLimiter`, a sliding window), shared by every process on
  PostgreSQL (:class:`crosstable.service.shared.RateCounters`, fixed windows in
  the database).
* Token scopes: a request with a bearer token is resolved by
  :func:`token_caller`, the one place every route's caller comes from. A token whose
  scope is ``results`` (every game server's) may use only :data:`RESULT_ROUTES`; any
  other route that asks who is calling is refused (403) before it does anything.
* Wrong tokens: a bearer token that matches nothing is counted per
  client in the database (:meth:`crosstable.service.sessions.SignInLimits.bad_token`,
  shared by every process); past the limit the client gets 429 with Retry-After.
  A valid token is looked up first and never counted, so nobody's failures slow it.
* Redirects: every ``next`` (and the way back after an error) goes through
  :func:`safe_next`: only a path of this site.

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
from crosstable.service.accounts import Accounts, UserInfo
from crosstable.service.accounts.tokens import PERSONAL_LIMIT, RESULTS, TokenInfo
from crosstable.service.sessions import SignInLimits
from crosstable.service.shared import WINDOW, RateCounters

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

    def hit(self, key: str, *, now: float | None = None, count: int = 1) -> bool:
        """Count ``count`` events; False when they would pass the key's limit (they are
        refused, and not counted)."""
        moment = time.monotonic() if now is None else now
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= moment - self.window:
                hits.popleft()
            if len(hits) + count > self.limit:
                return False
            hits.extend([moment] * count)
            if len(self._hits) > 100_000:  # forget idle keys
                for stale in [k for k, v in self._hits.items() if not v][:50_000]:
                    del self._hits[stale]
            return True

    def check(self, key: str, what: str, count: int = 1) -> None:
        if not self.hit(key, count=count):
            raise too_many(what, int(self.window))


def too_many(what: str, wait: int) -> HTTPException:
    """429 with the seconds to wait."""
    return HTTPException(
        status_code=429,
        detail=Message("too many {what}; wait a minute and try again", what=what),
        headers={"Retry-After": str(wait)},
    )


class ResultLimits:
    """Results a minute: :data:`PERSONAL_LIMIT` per user, a game server's token its own.

    With ``counters`` (PostgreSQL: every process on the database) the counts are the
    database's; without, each process counts in memory (SQLite: one process).
    """

    def __init__(self, counters: RateCounters | None = None) -> None:
        self.counters = counters
        self._local: dict[int, RateLimiter] = {}
        self._lock = threading.Lock()

    def check(self, key: str, what: str, limit: int = PERSONAL_LIMIT, count: int = 1) -> None:
        """Count ``count`` requests of ``key``; 429 when they pass ``limit`` a minute."""
        if self.counters is not None:
            wait = self.counters.hit(f"results:{key}", limit, count)
            if wait is not None:
                raise too_many(what, wait)
            return
        with self._lock:
            limiter = self._local.get(limit)
            if limiter is None:
                limiter = self._local[limit] = RateLimiter(limit, WINDOW)
        limiter.check(key, what, count)

    def check_caller(self, caller: Caller, what: str, count: int = 1) -> None:
        """The caller's own limit: a game server's token's, else the user's."""
        token = caller.token
        if token is not None and token.game_server:
            self.check(f"token:{token.id}", what, token.results_a_minute, count)
        else:
            self.check(f"user:{caller.actor}", what, PERSONAL_LIMIT, count)


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
    #: the API token the request came with (its kind and limit)
    token: TokenInfo | None = None

    @property
    def signed_in(self) -> bool:
        return self.user is not None

    @property
    def actor(self) -> str:
        return "" if self.user is None else self.user.username


_BOARD = "/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}"
#: the routes (method, path as the app declares it) a ``results`` token may use: a
#: result, a batch of them, a player's report, confirming and correcting, battle chess's
#: set-up timeout, a game's moves; every other route refuses it (403)
RESULT_ROUTES = frozenset(
    {
        ("POST", f"{_BOARD}/result"),
        ("POST", f"{_BOARD}/report"),
        ("POST", f"{_BOARD}/confirm"),
        ("POST", f"{_BOARD}/correct"),
        ("POST", f"{_BOARD}/setup-timeout"),
        ("POST", f"{_BOARD}/pgn"),
        ("POST", "/api/v1/results"),
    }
)


def token_allows(token: TokenInfo, method: str, path: str) -> bool:
    """May a token of ``token``'s scope use the route ``method`` ``path`` (the route's
    declared path, ``{tid}`` and all)?

    >>> results = TokenInfo(1, scope="results")
    >>> token_allows(results, "POST", "/api/v1/results")
    True
    >>> token_allows(results, "POST", "/t/{tid}/undo")
    False
    >>> token_allows(TokenInfo(2), "POST", "/t/{tid}/undo")
    True
    """
    if token.whole_account:
        return True
    return token.scope == RESULTS and (method, path) in RESULT_ROUTES


def token_caller(request: Request, token: str, accounts: Accounts, limits: SignInLimits) -> Caller:
    """The caller of a request with ``Authorization: Bearer <token>``: its user and token,
    if the token exists and its scope allows this route (else 403); a token that matches
    nothing counts against the client (429 with Retry-After past the limit; else an
    anonymous caller, which the API answers with 401). Known once per request: an error
    page drawn afterwards gets the same caller, never a second refusal."""
    known = getattr(request.state, "token_caller", None)
    if isinstance(known, Caller):
        return known
    refused = Caller(None, by_token=True)
    request.state.token_caller = refused
    user, info = accounts.token_for(token) if len(token) <= 200 else (None, None)
    if user is None or info is None:
        wait = limits.bad_token(client_address(request))
        if wait is not None:
            minutes = max(1, -(-wait // 60))
            raise HTTPException(
                status_code=429,
                detail=Message(
                    "too many requests with a wrong API token; try again in {minutes} min",
                    minutes=minutes,
                ),
                headers={"Retry-After": str(wait)},
            )
        return refused
    route = request.scope.get("route")
    path = getattr(route, "path", None)
    if path is None:  # no route (an error page): the token counts for nothing here
        return refused
    if not token_allows(info, request.method, path):
        raise HTTPException(
            status_code=403,
            detail="this API token may only post results (its scope is results); "
            "use a token of the whole account for anything else",
        )
    caller = Caller(user, by_token=True, token=info)
    request.state.token_caller = caller
    return caller


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None
