"""Signing in with Telegram and linking it, through :mod:`crosstable.service.series.telegram`:

* ``GET /telegram`` — the page with Telegram's login widget (when the site has a bot:
  ``CROSSTABLE_TELEGRAM_BOT_TOKEN`` and ``CROSSTABLE_TELEGRAM_BOT_NAME``), the linked
  Telegram account and a button to unlink. Only this page lets Telegram's script and
  frame in (its own Content-Security-Policy); every other page keeps ``'self'``. The
  widget's return address carries a one-time **state** kept in this browser's signed
  session for this account (or for "signed out"): ``/telegram/login/<state>``. The page
  is not cached (``no-store``).
* ``GET /telegram/login/<state>?id=…&auth_date=…&hash=…`` — where the widget returns:
  the fields are checked (each once, well-formed: else **400** naming the field), then
  the signature, the freshness (``CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE``, 5 minutes) and
  the state (else **403**); the payload is then used up (a second use is 403). A
  signed-in user's account is linked; a guest signs in to the linked account, else to a
  new one made for this Telegram user — never to an existing account that is not linked.
* ``GET /telegram/login?…`` (no state: a login link sent by someone, or opened from
  another site) changes nothing: 403 "not started here", after the same checks.
* ``POST /telegram/unlink`` — the signed-in user's link removed (CSRF-checked form).

The state is forgotten at the first callback whatever its outcome, so a login link
cannot be replayed into the same browser either. A refusal (a malformed, forged, stale,
used or foreign login, a Telegram account linked elsewhere) is a 4xx page or, for
``Accept: application/json``, ``{"detail": …}``, in the reader's language.
"""

from __future__ import annotations

import os

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.service.series import telegram
from crosstable.web import i18n
from crosstable.web.routes import telegram_app
from crosstable.web.routes.common import CheckedForm, caller_of, require_user

router = APIRouter(include_in_schema=False)
router.include_router(telegram_app.router)  # the Mini App's sign-in and the bot's webhook

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
    user_id = None if caller.user is None else int(caller.user.id)
    linked = None if user_id is None else telegram.link_of(site.service.store, user_id)
    ready = bool(telegram.bot_token() and bot_name())
    auth_url = ""
    if ready and linked is None and not caller.by_token:
        state = telegram.start(request.session, user_id, site.service.clock.now())
        auth_url = str(request.url_for("telegram_login_started", state=state))
    page = site.page(
        request,
        "telegram.html",
        caller=caller,
        linked=linked,
        ready=ready,
        bot=bot_name(),
        auth_url=auth_url,
    )
    page.headers["content-security-policy"] = WIDGET_POLICY
    page.headers["cache-control"] = "no-store"  # the state is this browser's alone
    return page


@router.get("/telegram/login/{state}", name="telegram_login_started")
def telegram_login_started(request: Request, state: str) -> Response:
    return _login(request, state)


@router.get("/telegram/login", name="telegram_login")
def telegram_login(request: Request) -> Response:
    return _login(request, None)


def _login(request: Request, state: str | None) -> Response:
    site, caller = caller_of(request)
    user_id = None if caller.user is None else int(caller.user.id)
    now = site.service.clock.now()
    started = telegram.take_state(request.session, state, user_id, now)  # once, always
    try:
        data = telegram.login_data(request.query_params.multi_items())
        telegram.check_fields(data)
    except RuleError as error:
        raise HTTPException(status_code=400, detail=error.text) from None
    try:
        who = telegram.verify_login(data, telegram.bot_token(), now)
    except RuleError as error:
        raise HTTPException(status_code=403, detail=error.text) from None
    if caller.by_token or not started:
        raise HTTPException(
            status_code=403,
            detail="this Telegram sign-in was not started on this site's Telegram page in "
            "this browser; nothing was changed. Start again from the Telegram page",
        )
    store = site.service.store
    try:
        telegram.use_once(store, data, now)
    except RuleError as error:
        raise HTTPException(status_code=403, detail=error.text) from None
    if user_id is not None:
        telegram.link(store, user_id, who, now)  # the owner started it: the state says so
        text = i18n.gettext("Telegram account linked: %(name)s", name=who.label)
        request.session["flash"] = {"kind": "ok", "text": text}
        return RedirectResponse("/notifications/settings", status_code=303)
    signed = telegram.sign_in(site.accounts, store, who, now)
    site.sign_in(request, signed)
    return RedirectResponse("/", status_code=303)


@router.post("/telegram/unlink")
def telegram_unlink(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    telegram.unlink(site.service.store, int(caller.user.id))
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("Telegram is unlinked.")}
    return RedirectResponse("/telegram", status_code=303)
