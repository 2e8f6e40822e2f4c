"""A Swiss round's manual-pairing phase on the web: "Edit pairings" and "Validate pairings".

The pages: ``POST /t/{id}/pairing/edit`` opens the phase of the next round (or, with
``round``, reopens the last published round while none of its games is played) and
leads to the pairing page's edit form; while the phase is open the pairing page's
button is "Validate pairings" (web/routes/pairing.py publishes by validating).

The JSON API: ``GET /api/v1/tournaments/{id}/pairing/phase`` (the round's state),
``POST …/pairing/edit`` (``{"round": n}`` to reopen) and ``POST …/pairing/validate``
(the body of ``POST …/pairing``; a hand pairing that differs from the Dutch system's
answers 409 with the structured level-3 warning and its ``confirm`` token).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import Field

from crosstable.service.read_views import JsonObject
from crosstable.service.views import TournamentView
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, Num, PairingOut, change_out
from crosstable.web.routes.api_models import PairingIn
from crosstable.web.routes.common import (
    MANAGERS,
    Body,
    CheckedForm,
    caller_of,
    integer,
    require_role,
)
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])
pages = APIRouter(include_in_schema=False)


class PhaseIn(Body):
    round: int | None = Field(
        None, ge=1, le=1000, description="the published round to reopen (null: the next round)"
    )


@router.get("/tournaments/{tid}/pairing/phase")
def phase(tid: Num, request: Request, caller: ApiCaller) -> dict[str, int | str | None]:
    """Where the manual-pairing phase stands: ``{"round", "state", "opened"}``."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return site.service.pairing_phase(tid)


@router.post("/tournaments/{tid}/pairing/edit")
def edit_pairings(tid: Num, body: PhaseIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Edit pairings: open the round's manual-pairing phase (or reopen a published round)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.edit_pairings(tid, body.round, actor=caller.actor)
    return change_out(change).model_dump() | {"phase": site.service.pairing_phase(tid)}


@router.post("/tournaments/{tid}/pairing/validate")
def validate_pairings(tid: Num, body: PairingIn, request: Request, caller: ApiCaller) -> PairingOut:
    """Validate pairings: close the phase by publishing the round (your boards, or the
    Dutch system's pairing without them)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    boards = None if body.boards is None else [(b[0], b[1]) for b in body.boards]
    change = site.service.validate_pairings(
        tid,
        boards,
        body.bye,
        allow_rematch=body.allow_rematch,
        actor=caller.actor,
        confirm=body.confirm,
    )
    return PairingOut.of(change)


@pages.post("/t/{tid}/pairing/edit")
def open_phase(tid: int, request: Request, form: CheckedForm) -> Response:
    """The pairing page's "Edit pairings": the phase opens, the edit form follows."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.edit_pairings(tid, integer(form, "round"), actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}/pairing?edit=1", status_code=303)


def reopenable(view: TournamentView) -> int | None:
    """The last published round when none of its games has a result (its pairings may be
    reopened), else None."""
    last = max((g.round for g in view.games), default=0)
    games = [g for g in view.games if g.round == last]
    return last if games and all(g.result is None for g in games) else None
