"""What web tests share: a page's CSRF token, signing in through the form."""

from __future__ import annotations

import re
from typing import Any

_TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')


def csrf_of(html: str) -> str:
    """The CSRF token a page carries in its ``<meta name="csrf-token">``."""
    match = _TOKEN.search(html)
    assert match, "every page carries a CSRF token"
    return match.group(1)


def signed_in(client: Any, username: str, password: str | None = None) -> str:
    """Sign ``username`` in through the form (password ``password-<username>`` unless
    given); the CSRF token of the signed-in session."""
    token = csrf_of(client.get("/signin").text)
    answer = client.post(
        "/signin",
        data={
            "username": username,
            "password": password or f"password-{username}",
            "csrf_token": token,
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text[:300]
    return csrf_of(client.get("/").text)
