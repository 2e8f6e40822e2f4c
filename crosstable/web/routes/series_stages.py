"""A qualifier's place in stage 2 or later of a series edition, through the JSON API
(registration for a later stage is open for two weeks from that stage's start;
the rule itself is the service's, ``service/series/later_stages.py``).

``GET …/stage-registration`` answers the current stage's window; ``POST`` confirms the
caller's own place and ``DELETE`` withdraws the caller from the stage (their group's
withdrawal rule applies). The caller is the account the stage-1 registration was made
with; an account registered under no name is refused with the edition named."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.service.series.shown import JsonObject
from crosstable.service.series.views import edition_by_number, registered_names
from crosstable.web import i18n
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import CheckedForm, caller_of, require_user
from crosstable.web.security import Caller, safe_referer
from crosstable.web.site import Site, site_of

router = APIRouter(prefix="/api/v1", tags=["series"])

_PATH = "/series/{series_id}/editions/{number}/stage-registration"


def _edition(site: Site, series_id: int, number: int) -> int:
    return edition_by_number(site.service, series_id, number).id


def _own_name(site: Site, caller: Caller, edition: int, number: int) -> str:
    require_user(caller)
    user = caller.user
    assert user is not None
    names = registered_names(site.service, edition, user.id)
    if not names:
        raise RuleError(
            "{player} is not registered for edition {edition}",
            player=user.display_name,
            edition=number,
        )
    return names[0]


@router.get(_PATH)
def stage_window(series_id: Num, number: Num, request: Request) -> JsonObject:
    """The edition's current stage and the two weeks its registration is open."""
    site = site_of(request)
    return site.service.stage_window(_edition(site, series_id, number)).as_json()


@router.post(_PATH, status_code=201)
def confirm_place(series_id: Num, number: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """The caller confirms their place in the current stage (stage 2 or later)."""
    site = site_of(request)
    edition = _edition(site, series_id, number)
    name = _own_name(site, caller, edition, number)
    registration = site.service.register_for_stage(edition, name, actor=caller.actor)
    return {"registration": registration} | site.service.stage_window(edition).as_json()


@router.delete(_PATH)
def leave_stage(series_id: Num, number: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """The caller leaves the current stage (their group's withdrawal rule applies)."""
    site = site_of(request)
    edition = _edition(site, series_id, number)
    name = _own_name(site, caller, edition, number)
    site.service.withdraw_from_stage(edition, name, actor=caller.actor)
    return site.service.stage_window(edition).as_json()


# -- the same two requests as forms (progressive: no script needed) -----------------------

pages = APIRouter(include_in_schema=False)


def _back(request: Request, series_id: int, number: int) -> str:
    """Back to the page the form was on (the edition's or the notifications), else the
    edition's page."""
    edition = f"/series/{series_id}/editions/{number}"
    referer = safe_referer(request, edition)
    return referer if referer.startswith((edition, "/notifications")) else edition


@pages.post(_PATH + "/confirm")
def confirm_page(series_id: Num, number: Num, request: Request, form: CheckedForm) -> Response:
    """The form's confirmation of the caller's place in the current stage."""
    site, caller = caller_of(request)
    edition = _edition(site, series_id, number)
    name = _own_name(site, caller, edition, number)
    site.service.register_for_stage(edition, name, actor=caller.actor)
    text = i18n.gettext("Your place in this stage is confirmed.")
    request.session["flash"] = {"kind": "ok", "text": text}
    return RedirectResponse(_back(request, series_id, number), status_code=303)


@pages.post(_PATH + "/leave")
def leave_page(series_id: Num, number: Num, request: Request, form: CheckedForm) -> Response:
    """The form's withdrawal of the caller from the current stage."""
    site, caller = caller_of(request)
    edition = _edition(site, series_id, number)
    name = _own_name(site, caller, edition, number)
    site.service.withdraw_from_stage(edition, name, actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("You have left this stage.")}
    return RedirectResponse(_back(request, series_id, number), status_code=303)
