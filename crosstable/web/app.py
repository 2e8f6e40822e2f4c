"""The application factory: one :class:`~crosstable.web.site.Site` (web/site.py) per app.

>>> app = create_app("sqlite:///:memory:")
>>> paths = app.openapi()["paths"]
>>> [p for p in ("/api/v1/tournaments", "/api/v1/tournaments/{tid}") if p in paths]
['/api/v1/tournaments', '/api/v1/tournaments/{tid}']
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import escape
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from crosstable.core.errors import CrosstableError
from crosstable.service import PostgresListener, Service
from crosstable.service.accounts import Accounts
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.poller import ChangePoller
from crosstable.service.read_views import JsonObject
from crosstable.service.sessions import Sessions, SignInLimits
from crosstable.service.shared import RateCounters
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.store import Store, open_store
from crosstable.web import i18n, live_cells, push_install, sheets
from crosstable.web.api_errors import validation_detail
from crosstable.web.confirmations import warning_body
from crosstable.web.headers import SecurityHeaders
from crosstable.web.hub import Hub
from crosstable.web.limits import BodyLimit
from crosstable.web.messages import error_text, translate
from crosstable.web.regulation_text import bracket_note, published_details, regulation_items
from crosstable.web.routes import (
    account,
    api,
    api_byes,
    api_players,
    api_report,
    api_rr_hand,
    autostart,
    blanks,
    bughouse_api,
    bughouse_page,
    entry_links,
    expulsion,
    fide,
    game_servers,
    hall,
    levels,
    live,
    manage,
    notifications,
    offline,
    pages,
    pairing,
    pairing_phase,
    pgn,
    printing,
    race,
    rating_list,
    rating_list_upload,
    ratings_api,
    report_page,
    series,
    series_news,
    series_stages,
    stages,
    team_api,
    team_entry,
    team_swiss_api,
    teams,
    telegram,
    trf_import,
    wizard,
)
from crosstable.web.security import (
    ResultLimits,
    bearer_token,
    safe_next,
    safe_referer,
)
from crosstable.web.site import Site, site_of, site_secret

HERE = Path(__file__).parent


def _templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    env = templates.env
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["points"] = lambda v: i18n.points_text(v, i18n.current.get())
    env.globals["number"] = lambda v: i18n.number_text(v, i18n.current.get())
    env.globals["number_symbols"] = live_cells.number_symbols  # the live cells' numbers
    env.globals["tiebreak_value"] = lambda c, v: i18n.tiebreak_value(c, v, i18n.current.get())
    env.globals["message"] = translate  # a tie-break's explanation (crosstable/web/explain_views)
    env.globals["date"] = lambda v: i18n.date_text(v, i18n.current.get())
    env.globals["language_name"] = i18n.language_name
    env.globals["tiebreak_name"] = i18n.tiebreak_name
    env.globals["tiebreak_head"] = i18n.tiebreak_head
    env.globals["knockout_round"] = i18n.knockout_round
    env.globals["regulation_items"] = regulation_items
    env.globals["bracket_note"] = bracket_note  # a knockout's settings in words
    env.globals["published_details"] = published_details  # defaults said too
    env.globals["frac"] = lambda v: Fraction(str(v))
    env.globals["by_name"] = sheets.by_name  # the alphabetical pairing list
    env.globals["colour_name"] = sheets.colour_name
    env.globals["bye_label"] = sheets.bye_label
    env.globals["new_key"] = lambda: secrets.token_hex(8)
    return templates


def create_app(
    db: str | Store | None = None,
    *,
    service: Service | None = None,
    listen: bool | None = None,
    secure_cookies: bool | None = None,
    push_url: str | None = None,
) -> FastAPI:
    """The web app over the database ``db`` (a path or URL; a :class:`Store`) or a ``service``.

    ``listen`` starts a PostgreSQL LISTEN thread so that several app processes on one
    database push each other's changes (default: on for PostgreSQL); on SQLite, unless
    ``listen`` is False, a poll of the event log brings changes made by other processes
    (the command line, another ``serve``) to the open pages. ``push_url``
    (or ``CROSSTABLE_PUSH_URL``): live updates go out through nchan (web/push.py).
    """
    if service is None:
        store = db if isinstance(db, Store) else open_store(db)
        service = Service(store)
    accounts = Accounts(service.store, clock=service.clock)
    templates = _templates()
    secure = (
        secure_cookies
        if secure_cookies is not None
        else os.environ.get("CROSSTABLE_SECURE_COOKIES", "") in ("1", "true")
    )
    site = Site(
        service=service,
        accounts=accounts,
        templates=templates,
        hub=Hub(
            service.bus,
            lambda tid, loc: site.render_live(tid, loc),
            lambda tid: site.service.revision(tid),
            lambda tid: live_cells.live_data(site, tid),
        ),
        sessions=Sessions(service.store, clock=service.clock),
        sign_in_limits=SignInLimits(service.store, clock=service.clock),
        report_limit=ResultLimits(  # shared by the processes of a PostgreSQL database
            RateCounters(service.store, clock=service.clock)
            if service.store.dialect == "postgresql"
            else None
        ),
        secure_cookies=secure,
    )
    use_listener = service.store.dialect == "postgresql" if listen is None else listen
    # SQLite has no NOTIFY: changes of other processes (the command line, a second
    # `serve`) are read from the event log
    use_poller = service.store.dialect == "sqlite" and listen is not False

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        site.hub.start(asyncio.get_running_loop())
        listener: PostgresListener | ChangePoller | None = None
        if use_listener:
            listener = PostgresListener(service.store.url, service.bus).start()
        elif use_poller:
            listener = ChangePoller(service.store, service.bus).start()
        try:
            yield
        finally:
            site.hub.stop()
            if listener is not None:
                listener.stop()

    app = _App(
        title="crosstable",
        version="1",
        description=(
            "Chess tournaments exact to the FIDE regulations: round robins, live crosstables, "
            "results from organisers, players and game servers. Authenticate with "
            "`Authorization: Bearer <API token>` (create one on your account page)."
        ),
        lifespan=lifespan,
        docs_url=None if _DOCS_ASSETS else "/api/docs",  # (offline below; else from a CDN)
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.site = site
    app.add_middleware(
        SessionMiddleware,
        secret_key=site_secret(service),
        session_cookie="crosstable_session",
        same_site="lax",
        https_only=secure,
        max_age=14 * 24 * 3600,
    )

    app.add_middleware(LocaleMiddleware)
    app.add_middleware(BodyLimit)  # before a body is read (web/limits.py)
    app.add_middleware(SecurityHeaders)  # CSP, HSTS over HTTPS (web/headers.py)
    _error_handlers(app, site)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    if _DOCS_ASSETS:
        _offline_api_docs(app, _DOCS_ASSETS)

    for module in (
        api,
        api_byes,
        api_players,
        live,
        pages,
        manage,
        wizard,
        pairing,
        account,
        printing,
        stages,
        series,
    ):
        app.include_router(module.router)
    app.include_router(pairing_phase.router)  # /api/v1/…/pairing/phase, edit, validate
    app.include_router(api_rr_hand.router)  # /api/v1/…/rounds/{n}/hand (round robin)
    app.include_router(api_rr_hand.pages)  # the manage page's round robin round by hand
    app.include_router(pairing_phase.pages)  # the pairing page's "Edit pairings"
    app.include_router(notifications.router)  # /api/v1/notifications
    app.include_router(api_report.router)  # /api/v1/…/report-corrections
    app.include_router(report_page.router)  # /t/{id}/report-corrections
    app.include_router(expulsion.pages)  # the manage page's Expel form
    app.include_router(expulsion.api)  # /api/v1/…/players/{start}/expel, …/expulsions
    app.include_router(series_news.router)  # a series' news, awards, season
    app.include_router(series_stages.router)  # a later stage's place
    app.include_router(notifications.pages)  # /notifications/unsubscribe/{token}
    app.include_router(telegram.router)  # /telegram: sign in with Telegram
    app.include_router(account.api_router)  # POST /api/v1/users/{id}/signout
    app.include_router(rating_list.router)  # GET /api/v1/rating-list
    app.include_router(rating_list_upload.router)  # /admin/rating-lists
    app.include_router(ratings_api.router)  # GET /api/v1/tournaments/{id}/ratings (16.2)
    app.include_router(pgn.router)  # the game page, PGN uploads and download
    app.include_router(pgn.api_router)  # /api/v1/…/pgn
    app.include_router(trf_import.router)  # /import: a TRF file as a new tournament
    app.include_router(trf_import.api_router)  # POST /api/v1/tournaments/import
    push_install.install(app, site, push_url)  # live updates through nginx/nchan
    app.include_router(hall.router)  # the sheets and screens of a hall
    app.include_router(game_servers.api_router)  # POST /api/v1/results
    app.include_router(game_servers.router)  # /admin/game-servers
    app.include_router(levels.router)  # /admin/levels: classes and levels
    app.include_router(levels.api_router)  # /api/v1/levels, /api/v1/users/{id}/level
    app.include_router(entry_links.router)  # entries linked to accounts, confirmed by players
    app.include_router(entry_links.api)
    app.include_router(blanks.router)  # blank Berger tables and crosstables
    app.include_router(offline.router)  # the app that runs in the browser alone
    app.include_router(blanks.api_router)  # GET /api/v1/blank/berger/{players}
    app.include_router(fide.pages)  # FIDE mode, the tie-break list: warnings to confirm
    app.include_router(fide.api)
    app.include_router(autostart.router)  # a start by the clock: /api/v1/…/autostart
    app.include_router(autostart.pages)  # its form on the manage page
    app.include_router(race.router)  # who can still win: GET /api/v1/tournaments/{id}/race
    app.include_router(teams.router)  # the team crosstable: /t/{id}/teams
    app.include_router(teams.api_router)  # GET /api/v1/tournaments/{id}/teams
    app.include_router(team_entry.router)  # a team league's forms: teams, players, line-ups
    app.include_router(team_api.router)  # the same as JSON: POST/PUT under /api/v1
    app.include_router(bughouse_api.router)  # a Bughouse event's JSON API
    app.include_router(bughouse_page.router)  # a Bughouse event's page: /t/{id}/bughouse
    app.include_router(team_swiss_api.router)  # a team Swiss: created, its rounds paired
    site.templates.env.globals["race_of"] = race.race_of  # the standings' marks
    return app


def _docs_assets() -> str | None:
    """The folder of Swagger UI's files as the ``fastapi-offline`` package ships them."""
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    return str(folder) if (folder / "swagger-ui-bundle.js").is_file() else None


_DOCS_ASSETS = _docs_assets()


def _offline_api_docs(app: FastAPI, assets: str) -> None:
    """``/api/docs``: Swagger UI served from this server, so it works without the internet."""
    app.mount("/api/docs/assets", StaticFiles(directory=assets), name="api-docs-assets")

    @app.get("/api/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/api/openapi.json",
            title="crosstable — API",
            swagger_js_url="/api/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/api/docs/assets/swagger-ui.css",
            swagger_favicon_url="/api/docs/assets/favicon.png",
        )


class _App(FastAPI):
    """The application; it hands the live event streams the server's own ``send``.

    An event is written to a thousand connections at once; the middleware's
    ``send`` wrappers only look at a response's start, so the streams send the
    start through them and every event straight to the server (routes/live.py).
    """

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        scope["crosstable.send"] = send
        await super().__call__(scope, receive, send)


class LocaleMiddleware:
    """Chooses the language of each request (the security headers: web/headers.py).

    A plain ASGI middleware (not ``BaseHTTPMiddleware``): the live event streams
    pass through it untouched, without a copy per chunk.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        cookie = headers.get(b"cookie", b"").decode("latin-1")
        chosen = None
        for part in cookie.split(";"):
            name, _, value = part.strip().partition("=")
            if name == "lang":
                chosen = value
        locale = i18n.choose_locale(chosen, headers.get(b"accept-language", b"").decode("latin-1"))
        extra = ((b"content-language", locale.encode()),)

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _v in message.get("headers", ())}
                added = [(k, v) for k, v in extra if k not in present]
                message = dict(message, headers=[*message.get("headers", ()), *added])
            await send(message)

        token = i18n.current.set(locale)
        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            i18n.current.reset(token)


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", ""
    )


def _error_handlers(app: FastAPI, site: Site) -> None:
    def status_of(error: CrosstableError) -> int:
        if isinstance(error, NotFoundError):
            return 404
        if isinstance(error, ConflictError):
            return 409
        return 422

    @app.exception_handler(CrosstableError)
    async def crosstable_error(request: Request, error: CrosstableError) -> Response:
        status = status_of(error)
        message = error_text(error)  # in the reader's language (web/messages.py)
        if _wants_json(request):
            body: JsonObject = {"detail": message}
            current = getattr(error, "current", None)
            if current is not None:
                body["current"] = current
            if isinstance(error, ConfirmationNeeded):  # FIDE's warning levels: structured
                body["warning"] = warning_body(error)
            return JSONResponse(body, status_code=status)
        if request.method in ("POST", "PUT", "DELETE") and not request.headers.get("hx-request"):
            request.session["flash"] = {"kind": "error", "text": message}
            back = safe_referer(request)
            return RedirectResponse(back, status_code=303)
        if request.headers.get("hx-request"):
            return HTMLResponse(
                f'<div class="flash error" role="alert">{_escape(message)}</div>',
                status_code=200,
                headers={"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"},
            )
        return site.page(request, "error.html", status_code=status, message=message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> Response:
        # each error as the pages' message, field named and translated (web/api_errors.py);
        # ASCII JSON: a lone surrogate ("\udc80") sent in a JSON string is escaped instead
        # of failing to encode (a 500)
        body = json.dumps({"detail": validation_detail(error.errors())}, ensure_ascii=True)
        return Response(body, status_code=422, media_type="application/json")

    @app.exception_handler(OverflowError)
    async def too_large(request: Request, _error: OverflowError) -> Response:
        message = translate("there is no such thing here (a number in the address is too large)")
        if _wants_json(request):
            return JSONResponse({"detail": message}, status_code=404)
        return site.page(request, "error.html", status_code=404, message=message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        detail = translate(error.detail) if isinstance(error.detail, str) else error.detail
        if _wants_json(request) or (error.status_code in (401,) and bearer_token(request)):
            return JSONResponse(
                {"detail": detail}, status_code=error.status_code, headers=error.headers
            )
        if error.status_code == 401:
            target = quote(safe_next(request.url.path), safe="/")
            return RedirectResponse(f"/signin?next={target}", status_code=303)
        if request.headers.get("hx-request"):
            return HTMLResponse(
                f'<div class="flash error" role="alert">{_escape(str(detail))}</div>',
                status_code=200,
                headers={"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"},
            )
        page = site.page(request, "error.html", status_code=error.status_code, message=str(detail))
        page.headers.update(error.headers or {})  # Retry-After of a 429
        return page


def _escape(text: str) -> str:
    return str(escape(text))


__all__ = ["Site", "create_app", "site_of"]
