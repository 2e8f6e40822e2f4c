"""The portal's classes and levels on the web: the administrators' page ``/admin/levels``
(the register of rating bands, a player's level set by hand) and the JSON API:

* ``GET /api/v1/levels`` — anyone: the register, ``{"levels": [{"name", "low", "high"}]}``;
* ``PUT /api/v1/levels`` ``{"levels": [...]}`` — administrators: replace it;
* ``GET /api/v1/users/{id}/level`` — the account itself or an administrator:
  ``{"level", "how"}`` (``assigned`` or ``rating``);
* ``PUT /api/v1/users/{id}/level`` ``{"level": name | null, "reason"}`` — administrators.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from crosstable.core.errors import RuleError
from crosstable.core.levels import MAX_LEVELS, MAX_NAME
from crosstable.service.fair_play import MAX_REASON
from crosstable.service.read_views import JsonObject
from crosstable.web.i18n import gettext as _
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import Body, CheckedForm, caller_of, text
from crosstable.web.routes.portal_rules import require_admin
from crosstable.web.site import site_of

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/v1", tags=["api"])


class BandIn(Body):
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
    low: Annotated[int, Field(ge=0, le=4000)] = 0
    high: Annotated[int | None, Field(ge=0, le=4000)] = None


class LevelsIn(Body):
    levels: Annotated[list[BandIn], Field(max_length=MAX_LEVELS)]


class UserLevelIn(Body):
    level: Annotated[str | None, Field(max_length=MAX_NAME)] = None
    reason: Annotated[str, Field(max_length=MAX_REASON)] = ""


@api_router.get("/levels")
def api_levels(request: Request) -> JsonObject:
    """The portal's classes and levels (rating bands)."""
    return {"levels": site_of(request).accounts.levels().as_json()}


@api_router.put("/levels")
def api_set_levels(body: LevelsIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Replace the register (administrators)."""
    require_admin(caller)
    bands = [band.model_dump() for band in body.levels]
    return {"levels": site_of(request).accounts.set_levels(bands).as_json()}


@api_router.get("/users/{user_id}/level")
def api_user_level(user_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """An account's level: the account itself or an administrator."""
    if caller.user is None or (caller.user.id != user_id and not caller.user.is_admin):
        raise HTTPException(status_code=403, detail="only the account itself or an administrator")
    return site_of(request).accounts.level(user_id).as_dict()


@api_router.put("/users/{user_id}/level")
def api_set_user_level(
    user_id: Num, body: UserLevelIn, request: Request, caller: ApiCaller
) -> JsonObject:
    """Set an account's level by hand (``null``: by rating again); administrators."""
    require_admin(caller)
    accounts = site_of(request).accounts
    found = accounts.set_level(user_id, body.level, reason=body.reason, actor=caller.actor)
    return found.as_dict()


@router.get("/admin/levels", response_class=HTMLResponse)
def page(request: Request) -> Response:
    site, caller = caller_of(request)
    require_admin(caller)
    return site.page(request, "levels.html", caller=caller, levels=site.accounts.levels())


@router.post("/admin/levels")
def set_levels(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_admin(caller)
    site.accounts.set_levels(text(form, "levels"))
    request.session["flash"] = {"kind": "ok", "text": _("levels saved")}
    return RedirectResponse("/admin/levels", status_code=303)


@router.post("/admin/levels/user")
def set_user_level(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_admin(caller)
    username = text(form, "username").lstrip("@")
    user = site.accounts.find_user(username)
    if user is None:
        raise RuleError("there is no account {name}", name=repr(username))
    level = text(form, "level") or None
    found = site.accounts.set_level(user.id, level, reason=text(form, "reason"), actor=caller.actor)
    request.session["flash"] = {
        "kind": "ok",
        "text": _("@%(name)s: %(level)s", name=user.username, level=found.level or _("no level")),
    }
    return RedirectResponse("/admin/levels", status_code=303)
