"""JSON API: corrections meant for the rating report only.

``GET /api/v1/tournaments/{tid}/report-corrections`` lists them;
``POST`` the same path with ``{"round", "board", "result", "reason"}`` corrects a game
for the TRF export only (``"result": null`` takes the correction back). The pairings
and the standings keep the game as it stands (service/report_corrections.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import MANAGERS, require_role
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class ReportCorrectionIn(BaseModel):
    """A game's result as the rating report is to give it."""

    round: int = Field(..., ge=1, le=1000)
    board: int = Field(..., ge=1, le=100_000)
    result: str | None = Field(..., max_length=20, description="e.g. 1-0; null: take it back")
    reason: str = Field("", max_length=200, description="why the report differs")


@router.get("/tournaments/{tid}/report-corrections")
def report_corrections(tid: Num, request: Request, caller: ApiCaller) -> JsonObject:
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    kept = site.service.report_corrections(tid)
    return {"corrections": [c.as_json() | {"label": c.label} for c in kept]}


@router.post("/tournaments/{tid}/report-corrections")
def correct_for_report(
    tid: Num, body: ReportCorrectionIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Correct a game for the rating report only (kept in the history; undo takes it back)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.correct_for_report(
        tid, body.round, body.board, body.result, reason=body.reason, actor=caller.actor
    )
    return change_out(change)
