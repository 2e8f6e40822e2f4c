"""A tournament's start by the clock on the web: ``GET``/``PUT
/api/v1/tournaments/{tid}/autostart`` (the JSON of ``crosstable autostart --format json``)
and the organiser's form on the manage page (``POST /t/{tid}/manage/autostart``). The
settings are the regulations' (crosstable.service.start_plan); ``crosstable tick`` and
``serve``'s ticker act on them."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import Field

from crosstable.service.read_views import JsonObject
from crosstable.service.start_plan import LONGEST, set_start_settings, start_plan
from crosstable.service.timed_start import KEYS
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import (
    MANAGERS,
    Body,
    CheckedForm,
    caller_of,
    require_role,
    text,
)
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])
pages = APIRouter(include_in_schema=False)


class AutostartIn(Body):
    """The settings to change (null: leave it; an empty text clears it)."""

    starts_at: str | None = Field(
        None, max_length=LONGEST, description="ISO 8601 date and time (UTC offset or time_zone)"
    )
    time_zone: str | None = Field(None, max_length=LONGEST, description="IANA zone (UTC)")
    capacity: str | None = Field(None, max_length=4, description="a knockout: 2, 4, 8 … 512")
    if_short: str | None = Field(None, max_length=20, description="postpone or wait")
    round_time: str | None = Field(None, max_length=8, description="a knockout: HH:MM daily")


@router.get("/tournaments/{tid}/autostart")
def autostart(tid: Num, request: Request) -> JsonObject:
    """The start by the clock: settings, the field (players, seats left, full), the draw."""
    return start_plan(site_of(request).service, tid).as_json()


@router.put("/tournaments/{tid}/autostart")
def set_autostart(tid: Num, body: AutostartIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Set the start by the clock (an organiser): a bad value is a 400 naming it."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    given = body.model_dump(exclude_none=True)
    change = set_start_settings(site.service, tid, actor=caller.actor, **given)
    return start_plan(site.service, tid).as_json() | {"summary": translate(change.summary)}


@pages.post("/t/{tid}/manage/autostart")
def manage_autostart(tid: int, request: Request, form: CheckedForm) -> Response:
    """The manage page's form: every field sent (an empty one clears its setting)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    published = site.service.overview(tid).settings["regulations"]
    given = {
        key: value
        for key in KEYS
        if f"autostart_{key}" in form
        and (value := text(form, f"autostart_{key}")) != str(published.get(key) or "")
    }
    if not given:
        request.session["flash"] = {"kind": "ok", "text": translate("nothing to change")}
    else:
        change = set_start_settings(site.service, tid, actor=caller.actor, **given)
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}/manage#autostart", status_code=303)
