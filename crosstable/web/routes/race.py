"""Who can still win (docs/race.md): ``GET /api/v1/tournaments/{tid}/race?top=K`` gives
the rows of ``crosstable race --format json``; :func:`race_of` gives the standings page
its marks (clinched, possible, eliminated) for the same revision.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request

from crosstable.core.errors import RuleError
from crosstable.core.race import RaceReport
from crosstable.service.race import race_report
from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import Num
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/tournaments/{tid}/race")
def race(
    tid: Num,
    request: Request,
    top: Annotated[int, Query(ge=1, le=9_999, description="K: the places that count")] = 1,
) -> JsonObject:
    """Each player: first place and the top K clinched, possible or eliminated, and the
    points needed, on points alone."""
    service = site_of(request).service
    revision = service.revision(tid)  # 404 for a tournament that does not exist
    try:
        report = race_report(service, tid, top)
    except RuleError as error:
        raise HTTPException(status_code=400, detail=error.message) from None
    return report.to_json() | {"revision": revision}


def race_of(request: Request, tid: int) -> RaceReport | None:
    """The standings page's marks (None where the question has no answer)."""
    try:
        return race_report(site_of(request).service, tid)
    except RuleError:
        return None
