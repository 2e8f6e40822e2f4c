"""JSON API: correct a registered player's details.

``PATCH /api/v1/tournaments/{tid}/players/{number}`` — the player named by the
registration number, as ``DELETE`` on the same path. Only the fields sent change;
``"rating": null`` makes the player unrated. The app includes this router right after
:mod:`api`'s (this module keeps ``api.py`` small).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

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


@router.patch("/tournaments/{tid}/players/{number}")
def edit_player(
    tid: Num, number: Num, body: PlayerEditIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Correct a player's details, kept in the history (undo takes it back). After the
    start a knockout's ratings stay when its tie rule reads them (422 names the field)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    values: dict[str, Any] = {}
    for name in body.model_fields_set:
        value = getattr(body, name)
        if value is None and name != "rating":
            value = ""  # null clears a text detail
        values[name] = value
    return change_out(site.service.edit_player(tid, number, actor=caller.actor, **values))
