"""JSON API: correct a registered player's details.

``PATCH /api/v1/tournaments/{tid}/players/{number}`` — the player named by the
registration number, as ``DELETE`` on the same path. Only the fields sent change;
``"rating": null`` makes the player unrated. The app includes this router right after
:mod:`api`'s (this module keeps ``api.py`` small).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import MANAGERS, require_role
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class PlayerEditIn(BaseModel):
    """The details to change; fields left out stay as they are."""

    name: str | None = Field(None, min_length=1, max_length=200)
    rating: int | None = Field(None, ge=0, le=4000, description="null: unrated")
    title: str | None = Field(None, max_length=10)
    federation: str | None = Field(None, max_length=10)
    fide_id: str | None = Field(None, max_length=20)
    birth_date: str | None = Field(None, max_length=10, description="YYYY/MM/DD or the year")
    sex: str | None = Field(None, max_length=1, description="m, w or empty")
    club: str | None = Field(None, max_length=100, description="the player's club")
    national_rating: int | None = Field(None, ge=0, le=4000, description="null: none")
    manual_rating: int | None = Field(None, ge=0, le=4000, description="null: none")
    half_byes: bool | None = Field(None, description="false: not entitled to half-point byes")


@router.patch("/tournaments/{tid}/players/{number}")
def edit_player(
    tid: Num, number: Num, body: PlayerEditIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Correct a player's details, kept in the history (undo takes it back). After the
    start a knockout's ratings stay when its tie rule reads them (422 names the field)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    values: dict[str, str | int | bool | None] = {}  # the details sent, as edit_player takes them
    for name in body.model_fields_set:
        value = getattr(body, name)
        if name == "half_byes" and value is None:
            continue  # (null: left as it is)
        if value is None and name not in ("rating", "national_rating", "manual_rating"):
            value = ""  # null clears a text detail
        values[name] = value
    return change_out(site.service.edit_player(tid, number, actor=caller.actor, **values))


class RoundRatingIn(BaseModel):
    """A later rating of an event longer than 30 days."""

    from_round: int = Field(..., ge=2, le=999, description="the first round it covers")
    rating: int | None = Field(None, ge=0, le=4000, description="null: remove it")


@router.post("/tournaments/{tid}/players/{number}/round-ratings")
def set_round_rating(
    tid: Num, number: Num, body: RoundRatingIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """An event longer than 30 days: the player's rating from a round on (null removes
    it), kept in the history. A tournament not flagged so answers 422."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.set_round_rating(
        tid, number, body.from_round, body.rating, actor=caller.actor
    )
    return change_out(change)


@router.get("/tournaments/{tid}/round-ratings")
def round_ratings(tid: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """Every player's later ratings: ``{"players": {"2": [[3, 1905]]}}`` (registration
    number → [first round, rating], rounds ascending)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    later = site.service.round_ratings(tid)
    return {"players": {str(n): [list(r) for r in v] for n, v in later.items()}}
