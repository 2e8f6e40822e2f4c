"""A Bughouse event on the web (docs/bughouse.md): ``/t/{tid}/bughouse`` shows the
pairs' table, a knockout's bracket of pairs and every match with its two games, the
game that finished first and the match points; the organiser marks the game that
finished first (the rule ``first``), pairs a Swiss of pairs' next round and continues a
knockout of pairs there. Its live part, ``/t/{tid}/bughouse/body``, is fetched again
after every change (static/app.js, as the team page's). The prints: the match sheets
(``/t/{tid}/bughouse/print/sheets``, ``?round=N``: one round's) and the pairs' table
(``/t/{tid}/bughouse/print/table``). A tournament that is not a Bughouse event is a
422 with the reason; one that does not exist, 404.
"""

from __future__ import annotations

from fractions import Fraction

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.core.scoring import format_points
from crosstable.service.teams.bughouse import KnockoutOptions
from crosstable.web.contexts import TemplateContext
from crosstable.web.messages import translate
from crosstable.web.routes.bughouse_api import bughouse_data
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_role,
    text,
)
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.security import Caller, csrf_token
from crosstable.web.site import Site

router = APIRouter(include_in_schema=False)

#: the Bughouse prints: the match sheets, the pairs' table
PRINTS = ("sheets", "table")


def _shown(value: object) -> str:
    return "" if value is None else format_points(Fraction(str(value)))


def body_context(site: Site, caller: Caller, tid: int) -> TemplateContext:
    """What the page and its live part show: the data, names of pairs and players."""
    context = page_context(site, caller, tid)
    data = bughouse_data(site.service, tid)
    teams = site.service.team_list(tid)
    return {
        **context,
        "bughouse": data,
        "bracket": None if data.bracket is None else data.bracket.as_json(),
        "names": {t.start: t.name for t in teams},
        "players": {m.start: m.name for t in teams for m in t.members},
        "pair_members": {t.start: [m.start for m in t.members] for t in teams},
        "shown": _shown,
    }


@router.get("/t/{tid}/bughouse", response_class=HTMLResponse)
def bughouse_page(tid: int, request: Request) -> Response:
    """The pairs' table, the bracket and the matches (with the organiser's buttons)."""
    site, caller = caller_of(request)
    return site.page(request, "bughouse.html", caller=caller, **body_context(site, caller, tid))


@router.get("/t/{tid}/bughouse/body", response_class=HTMLResponse)
def bughouse_body(tid: int, request: Request) -> Response:
    """The page's live part: static/app.js fetches it again after each change."""
    site, caller = caller_of(request)
    values = body_context(site, caller, tid) | {"request": request, "csrf": csrf_token(request)}
    return site.templates.TemplateResponse(request, "bughouse_body.html", values)


@router.get("/t/{tid}/bughouse/print/{what}", response_class=HTMLResponse)
def bughouse_print(tid: int, what: str, request: Request, round: int = 0) -> Response:
    """A Bughouse print: the match sheets (one a match, both boards, the box for the game
    that finished first, the signatures) or the pairs' table."""
    site, caller = caller_of(request)
    if what not in PRINTS:
        raise HTTPException(status_code=404, detail="unknown print")
    context = body_context(site, caller, tid)
    matches = [m for m in context["bughouse"]["matches"] if round <= 0 or m["round"] == round]
    if what == "sheets" and not matches:
        raise HTTPException(status_code=404, detail="there are no matches to print")
    name = "print_bughouse_sheets.html" if what == "sheets" else "print_bughouse_table.html"
    return site.page(request, name, caller=caller, sheets=matches, **context)


#: the forms of a Bughouse event: a round robin (single, double), a Swiss, a knockout
FORMATS = ("round-robin", "double", "swiss", "knockout")


@router.get("/bughouse/new", response_class=HTMLResponse)
def new_page(request: Request) -> Response:
    """The form that creates a Bughouse event (administrators and masters)."""
    site, caller = caller_of(request)
    require_organiser(caller)
    return site.page(request, "bughouse_new.html", caller=caller)


@router.post("/bughouse/new")
def new(request: Request, form: CheckedForm) -> Response:
    """Create the event, then add its pairs on the team page."""
    site, caller = caller_of(request)
    require_organiser(caller)
    user = caller.user
    assert user is not None
    kind = text(form, "format") or "round-robin"
    if kind not in FORMATS:
        raise RuleError("format {given}: round-robin, double, swiss or knockout", given=repr(kind))
    name = " ".join(text(form, "name").split())
    if not name:
        raise RuleError("a tournament needs a name")
    options = None
    if kind == "knockout":
        options = KnockoutOptions(
            text(form, "match_format") or "1",
            text(form, "tie_rule") or "lower-rated",
            third_place=bool(text(form, "third_place")),
        )
    change = site.service.create_bughouse_tournament(
        name,
        text(form, "rule") or "sum",
        cycles=2 if kind == "double" else 1,
        swiss=kind == "swiss",
        rounds=integer(form, "rounds", low=1, high=99) if kind == "swiss" else None,
        knockout=options,
        actor=caller.actor,
    )
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return RedirectResponse(f"/t/{change.tournament_id}/teams", status_code=303)


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
    """Pair a Swiss of pairs' next round, or continue a knockout of pairs."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_bughouse_round(tid, actor=caller.actor)
    return _done(request, tid, change.summary)


__all__ = ["FORMATS", "PRINTS", "body_context", "router"]
