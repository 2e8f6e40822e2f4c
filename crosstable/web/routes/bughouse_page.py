"""A Bughouse event on the web (docs/bughouse.md): ``/t/{tid}/bughouse`` shows the
pairs' table and every match with its two games, the game that finished first and the
match points; the organiser marks the game that finished first (the rule ``first``)
and pairs a Swiss of pairs' next round there. A tournament that is not a Bughouse
event is a 422 with the reason; one that does not exist, 404.
"""

from __future__ import annotations

from fractions import Fraction

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.scoring import format_points
from crosstable.web.messages import translate
from crosstable.web.routes.bughouse_api import bughouse_data
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_role,
)

router = APIRouter(include_in_schema=False)


def _shown(value: object) -> str:
    return "" if value is None else format_points(Fraction(str(value)))


@router.get("/t/{tid}/bughouse", response_class=HTMLResponse)
def bughouse_page(tid: int, request: Request) -> Response:
    """The pairs' table and the matches (with the organiser's buttons)."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    data = bughouse_data(site.service, tid)
    teams = site.service.team_list(tid)
    names = {t.start: t.name for t in teams}
    players = {m.start: m.name for t in teams for m in t.members}
    return site.page(
        request,
        "bughouse.html",
        caller=caller,
        bughouse=data,
        names=names,
        players=players,
        shown=_shown,
        **context,
    )


def _done(request: Request, tid: int, message: str) -> Response:
    request.session["flash"] = {"kind": "ok", "text": translate(message)}
    return RedirectResponse(f"/t/{tid}/bughouse", status_code=303)


@router.post("/t/{tid}/bughouse/first")
def mark_first(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    rnd = integer(form, "round", low=1) or 0
    board = integer(form, "board", low=1) or 0
    change = site.service.mark_first_finished(tid, rnd, board, actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/bughouse/pair")
def pair(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_bughouse_round(tid, actor=caller.actor)
    return _done(request, tid, change.summary)


__all__ = ["router"]
