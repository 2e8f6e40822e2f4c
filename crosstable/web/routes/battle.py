"""Battle chess on the web and in the JSON API (docs/battle.md).

* ``POST /t/{tid}/rounds/{rnd}/colours`` — the organiser's "draw colours" button on
  the round page (the computer also draws by itself: round 1 at the start, the next
  round when one is complete);
* ``POST /api/v1/tournaments/{tid}/rounds/{rnd}/colours`` — the same for an app;
* ``POST /api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/setup-timeout`` with
  ``{"finished": "none" | "white" | "black"}`` — a game server (or the organiser)
  posts a set-up timeout. The result endpoint takes it too:
  ``{"result": "setup-white"}``, and the round page's "Set-up timeout" buttons post
  those words;
* ``GET /api/v1/tournaments/{tid}/battle`` — the rules: set-up time, which rounds'
  colours are drawn, and the seed once the tournament is finished.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import Field

from crosstable.core.errors import CrosstableError
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import (
    MANAGERS,
    RESULT_ENTRY,
    Body,
    CheckedForm,
    caller_of,
    require_role,
)
from crosstable.web.site import site_of

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/v1", tags=["api"])


@router.post("/t/{tid}/rounds/{rnd}/colours")
def draw_colours_page(tid: int, rnd: int, request: Request, form: CheckedForm) -> Response:
    """The round page's "Draw colours" button (organisers)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    try:
        change = site.service.draw_colours(tid, rnd, actor=caller.actor)
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    except CrosstableError as problem:
        request.session["flash"] = {"kind": "error", "text": error_text(problem)}
    return RedirectResponse(f"/t/{tid}/rounds/{rnd}", status_code=303)


@api_router.post("/tournaments/{tid}/rounds/{rnd}/colours")
def draw_colours(tid: Num, rnd: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    """Draw the colours of a battle-chess round now (organisers; recorded, undoable)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(site.service.draw_colours(tid, rnd, actor=caller.actor))


class SetupTimeoutIn(Body):
    finished: Literal["none", "white", "black"] = Field(
        description="who finished setting up the pieces in time (none: a draw)"
    )
    idempotency_key: str | None = Field(None, max_length=200)
    expected_version: int | None = Field(None, ge=0, le=2_000_000_000)


@api_router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/setup-timeout")
def setup_timeout(
    tid: Num, rnd: Num, board: Num, body: SetupTimeoutIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """A battle-chess set-up timeout: neither set up → a draw; only one → that
    player wins. Organiser, helper, or a game server with their token."""
    site = site_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    site.report_limit.check_caller(caller, "results")  # a game server: its own limit
    change = site.service.record_setup_timeout(
        tid,
        rnd,
        board,
        body.finished,
        actor=caller.actor,
        idempotency_key=body.idempotency_key,
        expected_version=body.expected_version,
    )
    return change_out(change)


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class BattleShown(Shown):
    """``GET …/battle`` of a battle-chess tournament: the setup time, the rounds whose
    colours are drawn, the seed once the tournament is finished (None before)."""

    battle: bool
    setup_minutes: int | None
    colours_drawn: tuple[int, ...]
    seed: int | None


@api_router.get("/tournaments/{tid}/battle")
def battle_rules(tid: Num, request: Request) -> JsonObject:
    """The battle-chess rules of a tournament (``battle: false`` for classical chess)."""
    site = site_of(request)
    site.service.revision(tid)  # 404 for an unknown tournament
    found = site.service.battle_rules(tid)
    if found is None:
        return {"battle": False}
    drawn = site.service.colours_drawn(tid) or {}
    finished = site.service.overview(tid).status == "finished"
    return BattleShown(
        battle=True,
        setup_minutes=found.setup_minutes,
        colours_drawn=tuple(sorted(number for number, yes in drawn.items() if yes)),
        seed=found.seed if finished else None,
    ).as_json()
