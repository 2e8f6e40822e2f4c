"""JSON API: a tournament's FIDE rating figures (docs/ratings.md).

``GET /api/v1/tournaments/{tid}/ratings[?start=N]`` — every player's figures (or one
player's) on the list of the event's type, as ``crosstable ratings --format json``
writes them: rating, rated games, score, expected score, K and why, the change (exact
and rounded), the new rating, ARO and TPR, an unrated player's first-rating figures,
and each game's expected score and change (a game not rated says why). Public like
the standings (a battle-chess tournament's figures are the standings' too).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request

from crosstable.core.text import Message
from crosstable.service.rating_figures import rating_figures
from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import Num
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/tournaments/{tid}/ratings")
def ratings(
    tid: Num,
    request: Request,
    start: Annotated[int | None, Query(ge=1, le=9_999, description="one player's")] = None,
) -> JsonObject:
    """FIDE rating figures per player: what the tournament does to each rating."""
    figures = rating_figures(site_of(request).service, tid, only=start)
    if start is not None and not figures.players:
        raise HTTPException(
            status_code=404, detail=Message("there is no player {start} in the table", start=start)
        )
    body = figures.as_json()
    body["revision"] = site_of(request).service.revision(tid)
    return body
