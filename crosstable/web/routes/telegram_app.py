"""The app inside Telegram: the Mini App's sign-in and the bot's webhook.

* ``GET /telegram/app`` — the page BotFather's Mini App URL names. Inside Telegram it
  loads Telegram's own script (only this page's Content-Security-Policy lets
  ``telegram.org`` in) and the site's adapter (``/static/telegram.js``), which sends
  Telegram's signed ``initData`` here and goes on to the site in Telegram's colours.
  Opened elsewhere it says to open it from the bot.
* ``POST /telegram/app/login`` — ``init_data`` (a form field or JSON), CSRF-checked like
  every form: checked by :mod:`crosstable.service.accounts.telegram_app` (malformed:
  **400** naming the field; forged, stale or used before: **403**; nothing changes),
  then the linked account, or a new one, is signed in. The answer is
  ``{"next": path}``: the home page, or a tournament's page when the Mini App was opened
  with ``startapp=t<id>``.
* ``POST /telegram/webhook`` — the bot's updates from Telegram (``setWebhook`` with
  ``secret_token``): the header ``X-Telegram-Bot-Api-Secret-Token`` must equal
  ``CROSSTABLE_TELEGRAM_WEBHOOK_SECRET`` (else **403**; no secret or no bot token set:
  **404**). Each update is answered through the Bot API (``sendMessage``,
  ``answerCallbackQuery``, ``editMessageText``) in the player's language, and Telegram
  gets 200 whatever the bot said, so it does not send the update again. A result button
  reports through the site's own report (:func:`crosstable.web.routes.actions.report`).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.core.text import Message
from crosstable.service import telegram_bot
from crosstable.service.accounts import telegram_app
from crosstable.service.series import telegram
from crosstable.service.series.telegram_sender import BotApiError, TelegramSettings, bot_call
from crosstable.web import i18n
from crosstable.web.messages import error_text, translate
from crosstable.web.routes import actions
from crosstable.web.routes.common import caller_of
from crosstable.web.security import Caller, check_csrf
from crosstable.web.site import Site, site_of

router = APIRouter(include_in_schema=False)
log = logging.getLogger(__name__)

#: the Mini App page's policy: Telegram's own script besides the site's, nothing else
APP_POLICY = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'"
)
SECRET_HEADER = "x-telegram-bot-api-secret-token"
#: the longest texts Telegram takes: a message, a press's answer
LONGEST = {"sendMessage": 4096, "editMessageText": 4096, "answerCallbackQuery": 200}


def webhook_secret() -> str:
    return os.environ.get("CROSSTABLE_TELEGRAM_WEBHOOK_SECRET", "").strip()


@router.get("/telegram/app", response_class=HTMLResponse, name="telegram_app")
def telegram_app_page(request: Request) -> Response:
    site, caller = caller_of(request)
    page = site.page(
        request,
        "telegram_app.html",
        caller=caller,
        ready=bool(telegram.bot_token()),
        signed_in=caller.user is not None,
    )
    page.headers["content-security-policy"] = APP_POLICY
    page.headers["cache-control"] = "no-store"
    return page


@router.post("/telegram/app/login", name="telegram_app_login")
async def telegram_app_login(request: Request) -> Response:
    site = site_of(request)
    if "json" in request.headers.get("content-type", ""):
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):
            body = None
        given = body if isinstance(body, dict) else {}
        check_csrf(request, None)
    else:
        given = dict(await request.form())
        check_csrf(request, str(given.get("csrf_token") or "") or None)
    raw = given.get("init_data", "")
    if not isinstance(raw, str):
        raise HTTPException(status_code=400, detail="Telegram Mini App: init_data is not a text")
    now = site.service.clock.now()
    try:
        data = telegram_app.parse_init_data(raw)
        telegram_app.check_fields(data)
    except RuleError as error:
        raise HTTPException(status_code=400, detail=error.text) from None
    try:
        user_id, path = await run_in_threadpool(
            telegram_app.sign_in, site.accounts, site.service.store, raw, telegram.bot_token(), now
        )
    except RuleError as error:
        raise HTTPException(status_code=403, detail=error.text) from None
    site.sign_in(request, user_id)
    return JSONResponse({"next": path})


@router.post("/telegram/webhook")
async def telegram_webhook(request: Request) -> Response:
    secret, token = webhook_secret(), telegram.bot_token()
    if not secret or not token:
        raise HTTPException(status_code=404, detail="the Telegram bot is not set up on this site")
    given = request.headers.get(SECRET_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode("utf-8")):
        raise HTTPException(status_code=403, detail="the Telegram webhook's secret token is wrong")
    try:
        update = json.loads(await request.body())
    except (ValueError, RecursionError):
        update = None
    site = site_of(request)
    app_url = app_address(request)
    await run_in_threadpool(answer_update, site, update, app_url)
    return JSONResponse({"ok": True})


def app_address(request: Request) -> str:
    """The Mini App's address: ``CROSSTABLE_BASE_URL``'s ``/telegram/app``, else this
    site's as the request names it."""
    base = os.environ.get("CROSSTABLE_BASE_URL", "").strip().rstrip("/")
    return f"{base}/telegram/app" if base else str(request.url_for("telegram_app"))


def answer_update(site: Site, update: Any, app_url: str) -> None:
    """Answer one update through the Bot API (failures logged: Telegram is not asked
    to send the update again)."""
    asked = telegram_bot.incoming(update)
    settings = TelegramSettings.from_env()
    if asked is None or settings is None:
        return
    store = site.service.store
    user_id = telegram.account_of(store, asked.from_id)
    language = telegram_bot.language_for(store, user_id, asked.language, settings.language)
    token = i18n.current.set(language)
    try:
        if isinstance(asked, telegram_bot.Command):
            wanted = user_id is not None and asked.name == "games"
            games = telegram_bot.current_games(store, user_id) if wanted and user_id else []
            calls = telegram_bot.answer_command(asked, user_id, games, app_url)
        else:
            said, known = press_result(site, asked, user_id)
            calls = telegram_bot.answer_press(asked, said, known)
        for call in calls:
            try:
                bot_call(settings, call.method, written(call.body, language, call.method))
            except BotApiError as error:
                log.warning("Telegram %s failed: %s", call.method, error)
    finally:
        i18n.current.reset(token)


def press_result(
    site: Site, press: telegram_bot.Press, user_id: int | None
) -> tuple[object, list[telegram_bot.CurrentGame] | None]:
    """What a result button did (the site's report, its checks and limits), and the
    player's games now."""
    asked = telegram_bot.parse_report(press.data)
    if asked is None:
        return Message("This button is no longer valid; send /games for your games."), None
    if user_id is None:
        return (
            Message(
                "Your Telegram account is not linked with an account of the site: open the app "
                "to sign in first."
            ),
            None,
        )
    try:
        change = actions.report(
            site,
            Caller(site.accounts.user(user_id)),
            asked.tournament_id,
            asked.round,
            asked.board,
            asked.result,
            idempotency_key=f"telegram:{press.query_id}",
        )
        said: object = change.summary
    except CrosstableError as error:
        said = error_text(error)
    except HTTPException as error:
        said = error.detail
    return said, telegram_bot.current_games(site.service.store, user_id)


def written(body: Any, language: str, method: str) -> Any:
    """``body`` with every ``text`` written in ``language`` (within Telegram's lengths)."""
    if isinstance(body, dict):
        out = {}
        for key, value in body.items():
            if key == "text":
                text = value if isinstance(value, str) else str(value)  # a Message as it is
                out[key] = translate(text, language)[: LONGEST.get(method, 4096)]
            else:
                out[key] = written(value, language, method)
        return out
    if isinstance(body, list):
        return [written(value, language, method) for value in body]
    return body
