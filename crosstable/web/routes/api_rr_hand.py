"""The JSON API's round robin round paired by hand: the organiser gives the boards of a
round whose games have not begun, checked against the table; the cycle's other unplayed
rounds are re-planned so that every pair meets once (service/round_robin_hand.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import Field

from crosstable.core.errors import RuleError
from crosstable.core.schedule.hand_round import parse_boards
from crosstable.web.confirmations import confirming
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import (
    MANAGERS,
    Body,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_role,
    text,
)
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])
pages = APIRouter(include_in_schema=False)

Start = Annotated[int, Field(ge=1, le=100_000)]


class HandRoundIn(Body):
    boards: list[tuple[Start, Start]] = Field(
        max_length=5_000,
        description="the round's boards in order: [white, black] by starting number",
    )
    bye: Start | None = Field(
        None, description="an odd field's free round (default: the player left out)"
    )
    confirm: str | None = Field(
        None, max_length=100, description="the token of the warning (HTTP 409) answered"
    )


@pages.post("/t/{tid}/manage/hand-round")
def pair_by_hand_page(tid: int, request: Request, form: CheckedForm) -> Response:
    """The manage page's form: the round and its boards (``1-4, 2-3``); in FIDE mode the
    confirmation page first."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    number = integer(form, "round", low=1, high=10_000)
    if number is None:
        raise RuleError("give the round to pair by hand")
    boards = parse_boards(text(form, "boards"))

    def act(token: str | None) -> Response:
        change = site.service.pair_round_robin_round(
            tid, number, boards, actor=caller.actor, confirm=token
        )
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
        return RedirectResponse(f"/t/{tid}/rounds/{number}", status_code=303)

    context = page_context(site, caller, tid) | {"tab": "manage"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/manage", **context)


@router.post("/tournaments/{tid}/rounds/{rnd}/hand")
def pair_by_hand(
    tid: Num, rnd: Num, body: HandRoundIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Pair round ``rnd`` of a round robin by hand (organisers): checked against the table,
    the cycle's other unplayed rounds re-planned; FIDE mode: a level-3 warning (HTTP 409,
    answered with its ``confirm`` token)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_round_robin_round(
        tid,
        rnd,
        [(white, black) for white, black in body.boards],
        body.bye,
        actor=caller.actor,
        confirm=body.confirm,
    )
    return change_out(change)
