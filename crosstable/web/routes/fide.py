"""FIDE mode and the tie-break list on the web: the organiser's forms and the JSON API.

Pages: ``POST /t/{tid}/manage/fide-mode/leave`` (two confirmation pages, then FIDE mode
is left for good); the tie-break list is the regulations form's (web/routes/manage.py).
API: ``GET /api/v1/tournaments/{tid}/fide-mode``, ``POST …/fide-mode/leave`` and
``GET``/``PUT …/tiebreaks`` (the picker's offer, the list); a warning to confirm answers
HTTP 409 with
``{"warning": {"level", "code", "message", "consequences", "confirm", …}}`` (web/app.py),
and the request sent again with ``"confirm": TOKEN`` goes on.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.service.players import check_tiebreaks
from crosstable.service.read_views import JsonObject
from crosstable.web.confirmations import confirming
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    page_context,
    require_role,
)
from crosstable.web.site import site_of
from crosstable.web.tiebreak_picker import picker_of

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])


def _flash(request: Request, tid: int, message: str) -> Response:
    request.session["flash"] = {"kind": "ok", "text": translate(message)}
    return RedirectResponse(f"/t/{tid}/manage", status_code=303)


@pages.post("/t/{tid}/manage/fide-mode/leave")
def leave_page(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)

    def act(token: str | None) -> Response:
        change = site.service.leave_fide_mode(tid, confirm=token, actor=caller.actor)
        return _flash(request, tid, change.summary)

    context = page_context(site, caller, tid) | {"tab": "manage"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/manage", **context)


class ConfirmedIn(BaseModel):
    #: the token of the warning answered (HTTP 409) to the same request before
    confirm: str | None = Field(default=None, max_length=100)


class TiebreaksIn(ConfirmedIn):
    tiebreaks: list[str] = Field(max_length=20)


@api.get("/tournaments/{tid}/fide-mode")
def fide_mode(tid: Num, request: Request) -> JsonObject:
    """Whether the tournament is in FIDE mode, and the round in which it left it."""
    return site_of(request).service.fide_mode(tid).as_json()


@api.post("/tournaments/{tid}/fide-mode/leave")
def leave(tid: Num, body: ConfirmedIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Leave FIDE mode for good (level 4: answered twice with a warning to confirm)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(site.service.leave_fide_mode(tid, confirm=body.confirm, actor=caller.actor))


@api.get("/tournaments/{tid}/tiebreaks")
def offered_tiebreaks(tid: Num, request: Request) -> JsonObject:
    """The tie-breaks the tournament's picker offers (a round robin in FIDE mode: no
    Buchholz, Fore Buchholz or AOB), its presets and its list."""
    return picker_of(site_of(request).service, tid).as_json()


@api.put("/tournaments/{tid}/tiebreaks")
def tiebreaks(tid: Num, body: TiebreaksIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Set the tie-break list (after the start: level 4, two confirmations)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    codes = check_tiebreaks(tuple(body.tiebreaks))
    change = site.service.edit_regulations(
        tid, actor=caller.actor, confirm=body.confirm, tiebreaks=codes
    )
    return change_out(change)
