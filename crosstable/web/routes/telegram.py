"""Signing in with Telegram and linking it (issue 11 item 5), through
:mod:`crosstable.service.series.telegram`:

* ``GET /telegram`` — the page with Telegram's login widget (when the site has a bot:
  ``CROSSTABLE_TELEGRAM_BOT_TOKEN`` and ``CROSSTABLE_TELEGRAM_BOT_NAME``), the linked
  Telegram account and a button to unlink. Only this page lets Telegram's script and
  frame in (its own Content-Security-Policy); every other page keeps ``'self'``.
* ``GET /telegram/login?id=…&auth_date=…&hash=…`` — the widget's ``data-auth-url``:
  the data are checked (signature, freshness); a signed-in user's account is linked,
  else the linked account signs in, else a new account is made and linked.
* ``POST /telegram/unlink`` — the signed-in user's link removed (CSRF-checked form).

A refusal (a forged or stale login, a Telegram account linked elsewhere) is a 4xx page
saying why; guests without Telegram are not concerned.
"""

from __future__ import annotations

import os

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.service.series import telegram
from crosstable.web import i18n
from crosstable.web.routes.common import CheckedForm, caller_of, require_user

router = APIRouter(include_in_schema=False)

#: this page's policy: Telegram's widget script and its frame, nothing else added
WIDGET_POLICY = (
    "default-src 'self'; script-src 'self' https://telegram.org; "
    "frame-src https://oauth.telegram.org; style-src 'self'; img-src 'self' data: "
    "https://t.me https://telegram.org; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'"
)


def bot_name() -> str:
    return os.environ.get("CROSSTABLE_TELEGRAM_BOT_NAME", "").strip().lstrip("@")


@router.get("/telegram", response_class=HTMLResponse)
def telegram_page(request: Request) -> Response:
    site, caller = caller_of(request)
    linked = None
    if caller.user is not None:
        linked = telegram.link_of(site.service.store, int(caller.user.id))
    ready = bool(telegram.bot_token() and bot_name())
    page = site.page(
        request,
        "telegram.html",
        caller=caller,
        linked=linked,
        ready=ready,
        bot=bot_name(),
        auth_url=str(request.url_for("telegram_login")),
    )
    page.headers["content-security-policy"] = WIDGET_POLICY
    return page


@router.get("/telegram/login")
def telegram_login(request: Request) -> Response:
    site, caller = caller_of(request)
    data = {key: value for key, value in request.query_params.items()}
    now = site.service.clock.now()
    try:
        who = telegram.verify_login(data, telegram.bot_token(), now)
    except RuleError as error:
        raise HTTPException(status_code=403, detail=error.text) from None
    store = site.service.store
    if caller.user is not None:
        telegram.link(store, int(caller.user.id), who, now)
        text = i18n.gettext("Telegram account linked: %(name)s", name=who.label)
        request.session["flash"] = {"kind": "ok", "text": text}
        return RedirectResponse("/notifications/settings", status_code=303)
    user_id = telegram.sign_in(site.accounts, store, who, now)
    site.sign_in(request, user_id)
    return RedirectResponse("/", status_code=303)


@router.post("/telegram/unlink")
def telegram_unlink(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    telegram.unlink(site.service.store, int(caller.user.id))
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("Telegram is unlinked.")}
    return RedirectResponse("/telegram", status_code=303)
