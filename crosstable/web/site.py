"""The site: everything a request handler needs (service, accounts, templates, live hub).

A tournament's tables are read through the service (``site.service.crosstable(tid)``,
``site.service.revision(tid)``): the web layer keeps no copy of the read model.

One :class:`Site` per app; :func:`crosstable.web.app.create_app` builds it and the
route modules reach it through :func:`site_of`. It lives apart from the app factory so
that the route modules (which the factory includes) import it without an import circle.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.series.inbox import unread_count
from crosstable.service.sessions import Sessions, SignInLimits
from crosstable.service.shared import kept_setting
from crosstable.web import i18n
from crosstable.web.hub import Hub
from crosstable.web.pairing_views import live_fragment
from crosstable.web.security import (
    Caller,
    ResultLimits,
    bearer_token,
    csrf_token,
    token_caller,
)

#: whitespace between tags (the live fragment goes to every viewer: keep it small)
_BETWEEN_TAGS = re.compile(r">\s+<")


@dataclass
class Site:
    """Everything a request handler needs."""

    service: Service
    accounts: Accounts
    templates: Jinja2Templates
    hub: Hub
    sessions: Sessions
    sign_in_limits: SignInLimits
    report_limit: ResultLimits  # per user, per game server (shared on PostgreSQL)
    secure_cookies: bool = False

    def caller(self, request: Request) -> Caller:
        token = bearer_token(request)
        if token is not None:  # its scope, and the limit on wrong tokens
            return token_caller(request, token, self.accounts, self.sign_in_limits)
        known = getattr(request.state, "caller", None)
        if isinstance(known, Caller):
            return known
        request.session.pop("user", None)  # a cookie from before server-side sessions
        session_id = request.session.get("sid")
        user = self.sessions.user(str(session_id)) if session_id else None
        if user is None and session_id:
            # revoked, idle or unknown: signed out, with a fresh CSRF token
            request.session.clear()
        caller = Caller(user)
        request.state.caller = caller
        return caller

    def sign_in(self, request: Request, user_id: int, session_id: str | None = None) -> None:
        """Start a fresh cookie (and CSRF token) on a new server-side session."""
        request.session.clear()
        request.session["sid"] = session_id or self.sessions.open(user_id)
        request.state.caller = None

    def page(self, request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
        caller = context.pop("caller", None) or self.caller(request)
        flash = request.session.pop("flash", None)
        base = {
            "request": request,
            "user": caller.user,
            "csrf": csrf_token(request),
            "locale": i18n.current.get(),
            "locales": i18n.LOCALES,
            "flash": flash,
            "path": request.url.path,
            "unread": _unread(self.service, caller.user),  # the header's badge
        }
        return self.templates.TemplateResponse(
            request, name, base | context, status_code=status_code
        )

    def render_live(self, tournament_id: int, locale: str) -> tuple[int, str]:
        """The live crosstable fragment (what SSE pushes) in one language."""
        ((revision, html),) = self.render_live_in(tournament_id, (locale,))
        return revision, html

    def render_live_in(self, tournament_id: int, locales: tuple[str, ...]) -> list[tuple[int, str]]:
        """The live fragment in each of ``locales``, from one reading of the table (the
        push publisher's: every language at the same revision, the table read once)."""
        view, table = self.service.crosstable(tournament_id)
        name, extra = live_fragment(self, view, table)  # a Swiss's table, a bracket
        template = self.templates.env.get_template(name)
        rendered = []
        for locale in locales:
            token = i18n.current.set(locale)
            try:
                html = template.render(t=view, table=table, locale=locale, **extra)
            finally:
                i18n.current.reset(token)
            rendered.append((view.revision, _BETWEEN_TAGS.sub("><", html).strip()))
        return rendered


def _unread(service: Service, user: Any) -> int:
    """The signed-in user's unread notifications (0 for a guest)."""
    if user is None:
        return 0
    return unread_count(service.store, int(user.id))


def site_of(request: Request) -> Site:
    """The site of the app that serves ``request``."""
    site: Site = request.app.state.site
    return site


def site_secret(service: Service) -> str:
    """The key that signs cookies and links: ``CROSSTABLE_SECRET``, else one kept in the
    database (made on first use, so every process on one database shares it)."""
    secret = os.environ.get("CROSSTABLE_SECRET")
    if secret:
        return secret
    stored = service.preference("web.secret")
    if stored:
        return stored
    # (made once for all: two processes starting together keep the same)
    return kept_setting(service.store, "web.secret", secrets.token_urlsafe(48))
