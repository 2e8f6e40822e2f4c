"""Expelling a player on the web: the manage page's form and the JSON API.

Page: ``POST /t/{tid}/manage/expel`` (the manage page's *Expel* form beside the
withdrawal: the player, the first round missed and the reason). API:
``POST /api/v1/tournaments/{tid}/players/{start}/expel`` with ``{"from_round": 3,
"reason": "…"}`` and ``GET /api/v1/tournaments/{tid}/expulsions``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.core.expulsion import REASON_LENGTH
from crosstable.service.read_views import JsonObject
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    require_role,
    text,
)
from crosstable.web.site import site_of

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])


@pages.post("/t/{tid}/manage/expel")
def expel_page(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.expel(
        tid,
        integer(form, "start") or 0,
        from_round=integer(form, "from_round"),
        reason=text(form, "reason"),
        actor=caller.actor,
    )
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}/manage", status_code=303)


class ExpelIn(BaseModel):
    #: the first round the player misses (default: their first round without a result)
    from_round: int | None = Field(default=None, ge=1, le=10_000)
    reason: str = Field(max_length=REASON_LENGTH * 2)


@api.post("/tournaments/{tid}/players/{start}/expel")
def expel(tid: Num, start: Num, body: ExpelIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Expel a player from a round on, with the reason (undone by the history's undo)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.expel(
        tid, start, from_round=body.from_round, reason=body.reason, actor=caller.actor
    )
    return change_out(change)


@api.get("/tournaments/{tid}/expulsions")
def expulsions(tid: Num, request: Request) -> JsonObject:
    """The players expelled: starting number, first round missed, reason."""
    found = site_of(request).service.expulsions(tid)
    return {"expelled": [item.as_json() for item in found]}
