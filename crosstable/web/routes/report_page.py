"""The organiser's page of the corrections meant for the rating report only.

``GET /t/{tid}/report-corrections`` lists the games the FIDE rating report gives
otherwise than they stand, with why, and a form to correct one more;
``POST`` the same path corrects a game (or, with ``action=withdraw``, takes a
correction back). The pairings and the standings keep every game as it stands: the
corrections go into the TRF export only (service/report_corrections.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.web.messages import translate
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_role,
    text,
)

router = APIRouter(include_in_schema=False)

#: the results the form suggests (any spelling the result entry reads is taken)
SUGGESTED = ("1-0", "½-½", "0-1", "+-", "-+", "--")


@router.get("/t/{tid}/report-corrections", response_class=HTMLResponse)
def report_corrections_page(tid: int, request: Request) -> Response:
    """The corrections for the rating report, and the form to add one."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = page_context(site, caller, tid)
    games = [g for g in context["t"].games if g.white is not None and g.black is not None]
    return site.page(
        request,
        "report_corrections.html",
        caller=caller,
        corrections=site.service.report_corrections(tid),
        games=games,
        suggested=SUGGESTED,
        **context,
    )


@router.post("/t/{tid}/report-corrections")
def report_correction_action(tid: int, request: Request, form: CheckedForm) -> Response:
    """Correct a game for the rating report, or take a correction back."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    rnd = integer(form, "round", low=1, high=1000)
    board = integer(form, "board", low=1, high=100_000)
    withdraw = text(form, "action") == "withdraw"
    change = site.service.correct_for_report(
        tid,
        rnd or 0,
        board or 0,
        None if withdraw else text(form, "result"),
        reason=text(form, "reason"),
        actor=caller.actor,
    )
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}/report-corrections", status_code=303)
