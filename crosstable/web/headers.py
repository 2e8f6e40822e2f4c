"""Security headers on every response: a strict Content-Security-Policy, HSTS over HTTPS.

The pages carry no inline script and no inline event handler (``static/app.js``
wires the buttons by their data attributes), so scripts come only from this
site: ``script-src 'self'``. Styles come from ``/static`` plus the ``<style>``
blocks written in the templates themselves (the print pages), each allowed by
its SHA-256 hash, computed here from the template files at start-up — so a
changed block stays allowed and nothing else inline is. Swagger UI at
``/api/docs`` starts itself with an inline script and no user data: it alone
gets ``'unsafe-inline'``.

HSTS is sent only when the request came over HTTPS: the scheme the server saw,
which is ``https`` for TLS served directly or for ``X-Forwarded-Proto: https``
from a proxy the server trusts (uvicorn's ``--forwarded-allow-ips``); a client
cannot turn it on over plain HTTP.

>>> "script-src 'self';" in content_security_policy("/t/1")
True
>>> "'unsafe-inline'" in content_security_policy("/t/1")
False
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from pathlib import Path
from typing import Any

TEMPLATES = Path(__file__).parent / "templates"
_STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.S)
#: one year; no includeSubDomains (a club's other sites may not all have TLS)
HSTS = b"max-age=31536000"


@cache
def style_hashes() -> tuple[str, ...]:
    """``'sha256-…'`` of every ``<style>`` block of the templates (their text as sent)."""
    found: set[str] = set()
    for path in sorted(TEMPLATES.glob("*.html")):
        for block in _STYLE_BLOCK.findall(path.read_text(encoding="utf-8")):
            digest = hashlib.sha256(block.encode("utf-8")).digest()
            found.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return tuple(sorted(found))


def content_security_policy(path: str) -> str:
    """The policy of the response to ``path``."""
    if path == "/api/docs" or path.startswith("/api/docs/"):
        cdn = "https://cdn.jsdelivr.net"
        return (
            f"default-src 'self'; script-src 'self' 'unsafe-inline' {cdn}; "
            f"style-src 'self' 'unsafe-inline' {cdn}; img-src 'self' data: "
            "https://fastapi.tiangolo.com; object-src 'none'; frame-ancestors 'none'; "
            "base-uri 'self'; form-action 'self'"
        )
    styles = " ".join(("'self'", *style_hashes()))
    return (
        "default-src 'self'; script-src 'self'; "
        f"style-src {styles}; img-src 'self' data:; font-src 'self'; connect-src 'self'; "
        "object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    )


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response (a plain ASGI
    middleware, so the live event streams pass through untouched)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [
            (b"content-security-policy", content_security_policy(scope["path"]).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"same-origin"),
        ]
        if scope.get("scheme") == "https":
            extra.append((b"strict-transport-security", HSTS))

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _v in message.get("headers", ())}
                added = [(k, v) for k, v in extra if k not in present]
                message = dict(message, headers=[*message.get("headers", ()), *added])
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = ["SecurityHeaders", "content_security_policy", "style_hashes"]
