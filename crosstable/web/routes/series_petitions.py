"""Petitions for a class or level tournament in the JSON API, through
:mod:`crosstable.service.series.petitions`:

* ``GET /api/v1/series/{id}/petitions[?state=pending|accepted|refused]`` — anyone;
* ``POST /api/v1/series/{id}/petitions`` ``{"level", "players": [names]}`` — a
  signed-in user who is one of the players (his display name in the list; his
  account is tied to that line); 201 with the petition;
* ``POST /api/v1/petitions/{id}/accept`` — administrators: the tournament is made;
* ``POST /api/v1/petitions/{id}/refuse`` ``{"reason"}`` — administrators.

A rule the service refuses (fewer than 11 players, a name twice, decided already) is
422 with its reason, like every other rule of the API.

The page ``/series/{id}/petitions`` lists them and has the same as forms (they work
without script, CSRF-checked): a signed-in player's petition (the level and one name a
line; a mistake is shown next to its field, 422) and, for administrators, accept and
refuse (with the reason) on each waiting one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.core.errors import RuleError
from crosstable.core.levels import MIN_PLAYERS
from crosstable.service.series.petitions import (
    MAX_LEVEL,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_REASON,
    Petition,
    PetitionPlayer,
    checked_players,
)
from crosstable.service.series.shown import JsonObject
from crosstable.web import i18n
from crosstable.web.messages import error_text
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import CheckedForm, caller_of, require_user, text
from crosstable.web.security import Caller
from crosstable.web.series_pages import LocalMoment, local_moment
from crosstable.web.site import Site, site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class PetitionIn(BaseModel):
    level: str = Field(max_length=MAX_LEVEL, description="the class or level, e.g. class 3")
    players: list[Annotated[str, Field(max_length=MAX_NAME)]] = Field(
        max_length=MAX_PLAYERS, description="the players' names (at least 11), the caller's too"
    )


class RefusalIn(BaseModel):
    reason: str = Field(max_length=MAX_REASON)


def require_admin(caller: Caller) -> None:
    require_user(caller)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators decide petitions")


@router.get("/series/{series_id}/petitions")
def api_petitions(
    series_id: Num,
    request: Request,
    state: Annotated[str | None, Query(max_length=20)] = None,
) -> JsonObject:
    """The series' petitions, oldest first."""
    found = site_of(request).service.petitions(series_id, state=state)
    return {"petitions": [petition.as_json() for petition in found]}


@router.post("/series/{series_id}/petitions", status_code=201)
def api_petition(
    series_id: Num, body: PetitionIn, request: Request, caller: ApiCaller
) -> JsonObject:
    """Players of one level ask for their own tournament."""
    require_user(caller)
    user = caller.user
    assert user is not None
    mine = " ".join(user.display_name.split()).casefold()
    players = [
        (name, user.id if " ".join(name.split()).casefold() == mine else None)
        for name in body.players
    ]
    if all(account is None for _name, account in players):
        raise RuleError("{user} is not among the petition's players", user=user.display_name)
    service = site_of(request).service
    pid = service.petition(series_id, body.level, players, actor=caller.actor)
    return service.petition_info(pid).as_json()


@router.post("/petitions/{petition_id}/accept")
def api_accept(petition_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """An administrator accepts: the round robin of the petition's players is made."""
    require_admin(caller)
    service = site_of(request).service
    service.accept_petition(petition_id, actor=caller.actor)
    return service.petition_info(petition_id).as_json()


@router.post("/petitions/{petition_id}/refuse")
def api_refuse(
    petition_id: Num, body: RefusalIn, request: Request, caller: ApiCaller
) -> JsonObject:
    """An administrator refuses, saying why."""
    require_admin(caller)
    service = site_of(request).service
    service.refuse_petition(petition_id, body.reason, actor=caller.actor)
    return service.petition_info(petition_id).as_json()


# -- the same as pages and forms (progressive: they work without script) ------------------

pages = APIRouter(include_in_schema=False)


def _players_of(caller: Caller, names: list[str]) -> list[tuple[str, int | None]]:
    """The listed names, the caller's own line tied to his account."""
    user = caller.user
    assert user is not None
    mine = " ".join(user.display_name.split()).casefold()
    return [
        (name, user.id if " ".join(name.split()).casefold() == mine else None) for name in names
    ]


@dataclass(frozen=True, slots=True)
class PetitionShown:
    """A petition on the petitions page, its moments in the series' zone."""

    id: int
    level: str
    players: tuple[PetitionPlayer, ...]
    state: str
    reason: str
    tournament: int | None
    asked: LocalMoment | None
    decided: LocalMoment | None


def petition_shown(petition: Petition, zone: str) -> PetitionShown:
    return PetitionShown(
        id=petition.id,
        level=petition.level,
        players=petition.players,
        state=petition.state,
        reason=petition.reason,
        tournament=petition.tournament,
        asked=local_moment(petition.requested_at, zone),
        decided=local_moment(petition.decided_at, zone) if petition.decided_at else None,
    )


def _page(
    request: Request,
    series_id: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    listed = [petition_shown(item, info.zone) for item in site.service.petitions(series_id)]
    return site.page(
        request,
        "series_petitions.html",
        status_code=status_code,
        caller=caller,
        s=info,
        petitions=list(reversed(listed)),
        admin=bool(caller.user is not None and caller.user.is_admin),
        values=values or {},
        errors=errors or {},
        least=MIN_PLAYERS,
        most=MAX_PLAYERS,
    )


@pages.get("/series/{series_id}/petitions", response_class=HTMLResponse)
def petitions_page(series_id: Num, request: Request) -> Response:
    return _page(request, series_id)


@pages.post("/series/{series_id}/petitions")
def petition_form(series_id: Num, request: Request, form: CheckedForm) -> Response:
    """A signed-in player asks for a tournament of his level with at least 10 others;
    a mistake is shown next to its field (the level or the players), 422."""
    site, caller = caller_of(request)
    require_user(caller)
    level = text(form, "level")[: MAX_LEVEL + 1]
    listed = text(form, "players")[: (MAX_NAME + 2) * (MAX_PLAYERS + 1)]
    values = {"level": level, "players": listed}
    names = [line.strip() for line in listed.splitlines() if line.strip()]
    players = _players_of(caller, names)
    assert caller.user is not None
    try:
        checked_players(players)
        if all(account is None for _name, account in players):
            raise RuleError(
                "{user} is not among the petition's players", user=caller.user.display_name
            )
    except RuleError as error:
        errors = {"players": error_text(error)}
        return _page(request, series_id, values=values, errors=errors, status_code=422)
    try:
        pid = site.service.petition(series_id, level, players, actor=caller.actor)
    except RuleError as error:  # the level: empty, too long, or waiting already
        errors = {"level": error_text(error)}
        return _page(request, series_id, values=values, errors=errors, status_code=422)
    message = i18n.gettext("Your petition is sent to the administrators (petition %(num)s).")
    request.session["flash"] = {"kind": "ok", "text": message % {"num": pid}}
    return RedirectResponse(f"/series/{series_id}/petitions#petition-{pid}", status_code=303)


def _decided_here(site: Site, series_id: int, petition_id: int) -> None:
    if site.service.petition_info(petition_id).series != series_id:
        raise HTTPException(status_code=404, detail="no such petition in this series")


@pages.post("/series/{series_id}/petitions/{petition_id}/accept")
def accept_form(series_id: Num, petition_id: Num, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_admin(caller)
    _decided_here(site, series_id, petition_id)
    tid = site.service.accept_petition(petition_id, actor=caller.actor)
    message = i18n.gettext("Petition %(num)s accepted: the tournament is made and started.")
    request.session["flash"] = {"kind": "ok", "text": message % {"num": petition_id}}
    _ = tid
    return RedirectResponse(f"/series/{series_id}/petitions#petition-{petition_id}", 303)


@pages.post("/series/{series_id}/petitions/{petition_id}/refuse")
def refuse_form(series_id: Num, petition_id: Num, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_admin(caller)
    _decided_here(site, series_id, petition_id)
    reason = text(form, "reason")[: MAX_REASON + 1]
    try:
        site.service.refuse_petition(petition_id, reason, actor=caller.actor)
    except RuleError as error:
        errors = {f"reason-{petition_id}": error_text(error)}
        values = {f"reason-{petition_id}": reason}
        return _page(request, series_id, values=values, errors=errors, status_code=422)
    message = i18n.gettext("Petition %(num)s refused.")
    request.session["flash"] = {"kind": "ok", "text": message % {"num": petition_id}}
    return RedirectResponse(f"/series/{series_id}/petitions#petition-{petition_id}", 303)
