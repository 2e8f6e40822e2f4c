"""R-SE-7 petitions in the JSON API (issue 11 item 3), through
:mod:`crosstable.service.series.petitions`:

* ``GET /api/v1/series/{id}/petitions[?state=pending|accepted|refused]`` — anyone;
* ``POST /api/v1/series/{id}/petitions`` ``{"level", "players": [names]}`` — a
  signed-in user who is one of the players (his display name in the list; his
  account is tied to that line); 201 with the petition;
* ``POST /api/v1/petitions/{id}/accept`` — administrators: the tournament is made;
* ``POST /api/v1/petitions/{id}/refuse`` ``{"reason"}`` — administrators.

A rule the service refuses (fewer than 11 players, a name twice, decided already) is
422 with its reason, like every other rule of the API.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from crosstable.core.errors import RuleError
from crosstable.service.series.petitions import MAX_LEVEL, MAX_NAME, MAX_PLAYERS, MAX_REASON
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import require_user
from crosstable.web.security import Caller
from crosstable.web.site import site_of

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
) -> dict[str, Any]:
    """The series' petitions, oldest first."""
    return {"petitions": site_of(request).service.petitions(series_id, state=state)}


@router.post("/series/{series_id}/petitions", status_code=201)
def api_petition(
    series_id: Num, body: PetitionIn, request: Request, caller: ApiCaller
) -> dict[str, Any]:
    """Players of one level ask for their own tournament (R-SE-7)."""
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
    return service.petition_info(pid)


@router.post("/petitions/{petition_id}/accept")
def api_accept(petition_id: Num, request: Request, caller: ApiCaller) -> dict[str, Any]:
    """An administrator accepts: the round robin of the petition's players is made."""
    require_admin(caller)
    service = site_of(request).service
    service.accept_petition(petition_id, actor=caller.actor)
    return service.petition_info(petition_id)


@router.post("/petitions/{petition_id}/refuse")
def api_refuse(
    petition_id: Num, body: RefusalIn, request: Request, caller: ApiCaller
) -> dict[str, Any]:
    """An administrator refuses, saying why."""
    require_admin(caller)
    service = site_of(request).service
    service.refuse_petition(petition_id, body.reason, actor=caller.actor)
    return service.petition_info(petition_id)
