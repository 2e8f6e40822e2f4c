"""The JSON API's byes of a Swiss: every bye by round, a bye asked for a round not paired
yet (players for themselves, organisers for anyone), and its cancellation."""

from __future__ import annotations

from fastapi import APIRouter, Request

from crosstable.service.read_views import JsonObject
from crosstable.web.pairing_views import byes as all_byes
from crosstable.web.routes import actions
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.api_models import ByeIn
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/tournaments/{tid}/byes")
def byes(tid: Num, request: Request) -> list[JsonObject]:
    """Every bye: pairing-allocated (U) and those asked for (H, Z, F), by round."""
    site = site_of(request)
    site.service.revision(tid)
    return [
        {"round": b.round, "start": b.start, "name": b.name, "kind": b.kind}
        for b in all_byes(site.service, tid)
    ]


@router.post("/tournaments/{tid}/byes", status_code=201)
def request_bye(tid: Num, body: ByeIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Ask for a bye in a Swiss round not paired yet (players for themselves: H or Z;
    organisers for anyone, F too)."""
    site = site_of(request)
    return change_out(
        actions.bye(site, caller, tid, body.start, body.round, body.kind, confirm=body.confirm)
    )


@router.delete("/tournaments/{tid}/byes/{rnd}/{start}")
def cancel_bye(tid: Num, rnd: Num, start: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    """Take back a bye asked for a round not paired yet: the player is paired again."""
    site = site_of(request)
    return change_out(actions.bye(site, caller, tid, start, rnd, cancel=True))
