"""Shared request helpers: the site, the caller, roles, checked forms, redirects."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import RedirectResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationInfo, field_validator

from crosstable.core import battle
from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service import StageView
from crosstable.service.accounts.base import AccessInfo
from crosstable.service.crosstable import Crosstable
from crosstable.service.fide_mode import FideStatus
from crosstable.service.shared import RateCounters
from crosstable.service.stage_view import EVENT
from crosstable.service.views import TournamentView
from crosstable.web import pairing_views
from crosstable.web.contexts import FormValue, FormValues
from crosstable.web.limits import UPLOAD, body_limit
from crosstable.web.security import Caller, check_csrf, client_address
from crosstable.web.site import Site, site_of

#: who may do what in a tournament
MANAGERS = ("admin", "organiser")
RESULT_ENTRY = ("admin", "organiser", "helper")


def role_of(site: Site, caller: Caller, tid: int) -> str | None:
    role = site.accounts.role(caller.user, tid)
    if role in (None, "player") and caller.token is not None and caller.token.game_server:
        # a game server's token is a helper of the tournaments granted to it
        return "helper" if site.accounts.granted(caller.token, tid) else role
    return role


def require_user(caller: Caller) -> None:
    if caller.user is None:
        raise HTTPException(status_code=401, detail="sign in first")


def helper_everywhere(caller: Caller) -> bool:
    """A game server's token for every tournament: a helper of each, so no
    role needs reading for what a helper may do."""
    token = caller.token
    return token is not None and token.game_server and token.every_tournament


def require_role(site: Site, caller: Caller, tid: int, allowed: tuple[str, ...]) -> str:
    """The caller's role in the tournament, if it is one of ``allowed`` (else 401/403)."""
    site.service.revision(tid)  # 404 for an unknown tournament, before anything else
    require_user(caller)
    if "helper" in allowed and helper_everywhere(caller):
        return "helper"
    role = role_of(site, caller, tid)
    if role not in allowed:
        raise HTTPException(
            status_code=403,
            detail="only the organiser of this tournament may do that"
            if allowed == MANAGERS
            else "only the organiser or a helper of this tournament may enter results",
        )
    return str(role)


def require_result_entry(site: Site, caller: Caller, tid: int, rnd: int, board: int) -> str:
    """:func:`require_role` for entering, confirming, correcting or rejecting the result
    of one game: a helper who plays in that game may not (the organiser decides it)."""
    role = require_role(site, caller, tid, RESULT_ENTRY)
    if role == "helper" and site.accounts.plays_in_game(caller.user, tid, rnd, board):
        raise HTTPException(
            status_code=403,
            detail=Message(
                "round {round} board {board}: you play in this game, so as a helper you may "
                "not enter or confirm its result; the organiser does",
                round=rnd,
                board=board,
            ),
        )
    return role


# -- heavy uploads -------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeavyLimit:
    """What one kind of heavy upload may take a minute, per account and per client: in
    units of ``unit`` bytes of the declared body (None: one per upload). A body smaller
    than one unit is no heavy upload (a game's PGN, at most 64 KiB, costs no more than a
    result) and is not counted."""

    unit: int | None
    per_account: int
    per_client: int


KIB = 1024
#: the heavy uploads: PGN (a round's or a tournament's: about 10 s of CPU at the limits,
#: 4 MiB and 50 000 moves; 8 MiB of PGN a minute per account is two of them), rating
#: lists (parsed for minutes: a few a minute per administrator), tournament imports
HEAVY: dict[str, HeavyLimit] = {
    "pgn": HeavyLimit(64 * KIB, per_account=128, per_client=256),
    "rating list": HeavyLimit(None, per_account=3, per_client=6),
    "import": HeavyLimit(64 * KIB, per_account=128, per_client=256),
}


def declared_size(request: Request) -> int:
    """The body's declared length; a body without one (chunked) or with a bad one counts
    as the largest its route accepts (web/limits.py)."""
    raw = request.headers.get("content-length", "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 12:
        return int(raw)
    return body_limit(request.method, request.url.path)


def heavy_counters(request: Request, site: Site) -> RateCounters:
    """The app's counters of heavy uploads: in the store (every process on one database
    counts together, SQLite and PostgreSQL alike), made once per app."""
    counters = getattr(request.app.state, "heavy_counters", None)
    if not isinstance(counters, RateCounters):
        counters = RateCounters(site.service.store, clock=site.service.clock)
        request.app.state.heavy_counters = counters
    return counters


def check_heavy_upload(site: Site, request: Request, caller: Caller, what: str) -> None:
    """Before a heavy upload's body is read: the caller must be signed in (401), and the
    account and the client within their limits a minute (:data:`HEAVY`), else 429 with
    Retry-After. Both are counted in the store, the refused ones too (a client that
    resends at once waits as long)."""
    limit = HEAVY[what]
    size = declared_size(request)
    units = 1 if limit.unit is None else size // limit.unit
    require_user(caller)
    if units <= 0:
        return
    counters = heavy_counters(request, site)
    waits = [
        counters.hit(f"heavy:{what}:user:{caller.actor}", limit.per_account, units),
        counters.hit(f"heavy:{what}:client:{client_address(request)}", limit.per_client, units),
    ]
    wait = max((w for w in waits if w is not None), default=None)
    if wait is not None:
        raise HTTPException(
            status_code=429,
            detail=Message("too many large uploads; try again in {seconds} s", seconds=wait),
            headers={"Retry-After": str(wait), "Connection": "close"},
        )


def heavy_upload(what: str, roles: tuple[str, ...] | None = None) -> type[APIRoute]:
    """A route class for a router whose POST routes take heavy uploads: the caller, their
    role in the tournament ``{tid}`` (``roles``) and :func:`check_heavy_upload` are checked
    before FastAPI reads the body (it reads a body parameter before any dependency)."""

    class HeavyUploadRoute(APIRoute):
        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            handler = super().get_route_handler()
            if "POST" not in (self.methods or ()):
                return handler

            async def checked(request: Request) -> Response:
                await run_in_threadpool(_check_upload, request, what, roles)
                return await handler(request)

            return checked

    return HeavyUploadRoute


def _check_upload(request: Request, what: str, roles: tuple[str, ...] | None) -> None:
    site, caller = caller_of(request)
    tid = str(request.path_params.get("tid", ""))
    if roles is not None and tid.isascii() and tid.isdigit() and int(tid) <= LARGEST:
        require_role(site, caller, int(tid), roles)  # 404/401/403 before the body is read
    check_heavy_upload(site, request, caller, what)


def require_approved(site: Site, tid: int) -> None:
    access = site.accounts.access(tid)
    if access.approval != "approved":
        raise RuleError(
            "the regulations are waiting for an administrator's approval"
            if access.approval == "pending"
            else "the regulations were not approved by an administrator"
        )


#: the longest text a form field may carry (characters); the store's column widths
#: where a field goes to one, 200 for any other field
FIELD_LENGTHS = {
    "title": 10,
    "federation": 10,
    "fide_id": 20,
    "sex": 1,
    "birth_date": 10,
    "start_date": 10,
    "end_date": 10,
    "bye_points": 20,
    "point_system": 20,
    "team": 100,
    "time_control": 100,
    "label": 100,
    "opens_at": 40,
    "closes_at": 40,
    "username": 80,
    "tiebreaks": 400,
    "tiebreak_list": 400,
    "list": UPLOAD,  # a pasted player list (each line is checked as a player)
    "pgn": UPLOAD,  # a pasted PGN (the service bounds it: docs/pgn.md)
    "trf": 4 * 1024 * 1024,  # a TRF file's text (formats/limits.py: MAX_FILE_BYTES)
    "order": 20_000,  # starting order by hand: up to 1 000 numbers
    "override": 2000,
    "password": 1000,
}
DEFAULT_LENGTH = 200
DETAIL_LENGTH = 2000
#: C0 controls but tab and newlines, DEL: never part of a name or a setting (PostgreSQL
#: refuses NUL in text outright)
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _field(name: str) -> str:
    return name.replace("_", " ")


def check_value(name: str, value: str) -> str:
    """``value`` of form field ``name`` if it is plain text of a sensible length, else a
    RuleError naming the field (a 4xx, never a 500 from the database)."""
    if _CONTROLS.search(value):
        raise RuleError("{field}: control characters are not allowed", field=_field(name))
    limit = FIELD_LENGTHS.get(name, DETAIL_LENGTH if name.startswith("detail_") else DEFAULT_LENGTH)
    if len(value) > limit:
        raise RuleError("{field}: at most {limit} characters", field=_field(name), limit=limit)
    return value


class Body(BaseModel):
    """A JSON request body: every text in it is plain text (no NUL or other control
    characters), else a 422 naming the field."""

    @field_validator("*", mode="after")
    @classmethod
    def _plain_text(cls, value: Any, info: ValidationInfo) -> Any:
        texts = value if isinstance(value, list) else [value]
        for item in texts:
            if isinstance(item, str) and _CONTROLS.search(item):
                raise ValueError(
                    Message("{field}: control characters are not allowed", field=info.field_name)
                )
        return value


def _csrf_given(request: Request, submitted: str | None) -> str | None:
    """The CSRF token sent (form field, else header); a 403 for one that cannot be a
    token (not ASCII: hmac.compare_digest would raise)."""
    given = submitted or request.headers.get("x-csrf-token")
    if given is not None and not given.isascii():
        raise HTTPException(status_code=403, detail="the form expired or was not sent by this site")
    return given


def csrf(request: Request, submitted: str | None = None) -> None:
    """The CSRF check (R-OR: CSRF protection on every form and unsafe API call)."""
    check_csrf(request, _csrf_given(request, submitted))


async def checked_form(request: Request) -> FormValues:
    """The submitted form, after the CSRF check (R-OR: CSRF protection on every form);
    every text value checked by :func:`check_value` (the CSRF check comes first)."""
    form = await request.form()
    values: FormValues = {}
    for key, raw in form.multi_items():
        # an uploaded file: its bytes (handlers run in threads)
        value = raw if isinstance(raw, str) else await raw.read()
        if key in values:
            current = values[key]
            values[key] = (current if isinstance(current, list) else [current]) + [value]
        else:
            values[key] = value
    token = values.get("csrf_token")
    csrf(request, str(token[-1] if isinstance(token, list) else token or "") or None)
    for key, sent in values.items():
        if key == "csrf_token":
            continue
        if _CONTROLS.search(key) or len(key) > 100:  # detail_* names become settings
            raise RuleError("the form has a field that no page sends")
        for item in sent if isinstance(sent, list) else [sent]:
            if isinstance(item, str):
                check_value(key, item)
    return values


def back(request: Request, fallback: str, flash: str | None = None) -> RedirectResponse:
    if flash:
        request.session["flash"] = {"kind": "ok", "text": flash}
    target = fallback
    return RedirectResponse(target, status_code=303)


def caller_of(request: Request) -> tuple[Site, Caller]:
    site = site_of(request)
    return site, site.caller(request)


def text(values: Mapping[str, FormValue | None], name: str, default: str = "") -> str:
    """Form field ``name`` as text, stripped (sent more than once: the last one)."""
    value = values.get(name, default)
    if isinstance(value, list):
        value = value[-1]
    return str(value if value is not None else default).strip()


#: the numbers a form may carry: what the store's integer columns hold
LARGEST = 2_000_000_000
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")


def integer(
    values: Mapping[str, FormValue | None], name: str, *, low: int = -LARGEST, high: int = LARGEST
) -> int | None:
    """Form field ``name`` as a whole number in ``low``…``high`` (ASCII digits only:
    ``int()`` would read ``١٢`` as 12), None when empty; else a RuleError naming it."""
    raw = text(values, name)
    if not raw:
        return None
    if not _WHOLE.fullmatch(raw):
        raise RuleError(
            "{name}: {raw} is not a whole number", name=name.replace("_", " "), raw=repr(raw[:40])
        )
    number = int(raw)
    if not low <= number <= high:
        raise RuleError(
            "{name}: {number} is out of range ({low}–{high})",
            name=name.replace("_", " "),
            number=number,
            low=low,
            high=high,
        )
    return number


def pdf_download(data: bytes, name: str) -> Response:
    """A PDF the browser saves as the file ``name`` (a print page's download)."""
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


#: a form parameter that has passed the CSRF check
CheckedForm = Annotated[FormValues, Depends(checked_form)]


def require_export_allowed(site: Site, caller: Caller, tid: int) -> None:
    """A battle-chess tournament's export carries the seed of its colours: until it is
    finished only its organisers (and administrators) may download it."""
    view = site.service.overview(tid)
    secret = battle.is_battle(view.settings.get("regulations")) and view.status != "finished"
    if secret and role_of(site, caller, tid) not in MANAGERS:
        raise HTTPException(
            status_code=403,
            detail="a battle-chess tournament can be exported by everyone once it is "
            "finished (the file carries the seed of the colours)",
        )


# -- the data every page of one tournament shows ---------------------------------


class PageContext(TypedDict):
    """What every page of one tournament shows, by the names its templates read: a
    TypedDict because Jinja takes the names as a mapping (``**context``); a page adds its
    own names in a :data:`~crosstable.web.contexts.TemplateContext`."""

    t: TournamentView
    system: str
    is_swiss: bool
    is_knockout: bool
    paired: int
    table: Crosstable
    role: str | None
    access: AccessInfo
    my_start: int | None
    my_number: int | None
    current_round: int
    can_manage: bool
    fide: FideStatus | None
    can_enter: bool
    stage: StageView | None


def page_context(site: Site, caller: Caller, tid: int) -> PageContext:
    """What every page of one tournament shows: the tournament, its table, the caller's
    role and entry, the current round and the system's switches for the templates."""
    view, table = site.service.crosstable(tid)
    role = role_of(site, caller, tid)
    access = site.accounts.access(tid)
    mine = number = None
    if caller.user is not None:
        number = site.accounts.entry_of(tid, caller.user.id)
        mine = next((p.start for p in view.players if p.number == number), None)
    current_round = _current_round(view)
    system = pairing_views.system_of(view)
    paired = view.rounds
    if system == pairing_views.SWISS:  # a round holding only byes asked for is not paired yet
        paired = pairing_views.paired_rounds(view)
        current_round = min(current_round, paired) if paired else 1
    return {
        "t": view,
        "system": system,
        "is_swiss": system == pairing_views.SWISS,
        "is_knockout": system == pairing_views.KNOCKOUT,
        "paired": paired,
        "table": table,
        "role": role,
        "access": access,
        "my_start": mine,
        "my_number": number,
        "current_round": current_round,
        "can_manage": role in ("admin", "organiser"),
        # FIDE mode, for the organiser's pages (a marker once it is left)
        "fide": site.service.fide_mode(tid) if role in ("admin", "organiser") else None,
        "can_enter": role in RESULT_ENTRY,
        "stage": stage_for_page(site, view),  # a group stage + knockout event
    }


def _current_round(view: Any) -> int:
    """The first round with a game still without a result (else the last round)."""
    for game in view.games:
        if game.result is None:
            return int(game.round)
    return int(view.rounds or 0)


def stage_for_page(site: Site, view: Any) -> StageView | None:
    """The event of a group or knockout page (None for any other tournament: no query)."""
    details = view.settings.get("regulations") or {}
    if not details.get(EVENT):
        return None
    return site.service.stage_of(view.id)
