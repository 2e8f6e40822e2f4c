"""The JSON API's round robin round paired by hand: the organiser gives the boards of a
round whose games have not begun, checked against the table; the cycle's other unplayed
rounds are re-planned so that every pair meets once (service/round_robin_hand.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import Field

from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import MANAGERS, Body, require_role
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])

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
