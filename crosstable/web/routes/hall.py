"""The sheets and screens of a tournament hall (docs/hall.md).

* ``/t/{id}/hall/pairings.pdf`` — each round's pairing list by board, then by player name
  (the by-name list is on the print page of the pairings too, ``print_pairings.html``);
* ``/t/{id}/hall/wallchart`` and ``…/wallchart.pdf`` — the crosstable (round robin), the
  progress chart (Swiss), the bracket or the team grid on A3 landscape;
* ``/t/{id}/hall/checkin-sheet`` and ``…/checkin-sheet.pdf`` — names with a box to sign;
* ``/t/{id}/checkin`` — the check-in page for a tablet (:mod:`crosstable.service.checkin`);
* ``/t/{id}/venue`` — the big screen: the current round and the standings, live.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.web import i18n
from crosstable.web import pdf as pdfs
from crosstable.web import sheets as paper
from crosstable.web.contexts import TemplateContext
from crosstable.web.messages import translate
from crosstable.web.routes.common import (
    RESULT_ENTRY,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    pdf_download,
    require_role,
    text,
)
from crosstable.web.routes.printing import printed_rounds, sheets, wall_chart

router = APIRouter(include_in_schema=False)

#: the wall chart's paper
WALL = "A3"


def _rounds(view: Any, number: int) -> list[int]:
    rounds = printed_rounds(view)
    if not rounds:
        raise HTTPException(status_code=404, detail="there are no rounds yet")
    if not number:
        return rounds
    if number not in rounds:
        raise HTTPException(
            status_code=404,
            detail=Message(
                "there is no round {round} (rounds 1–{rounds})", round=number, rounds=rounds[-1]
            ),
        )
    return [number]


@router.get("/t/{tid}/hall/pairings.pdf")
def pairings_by_name_pdf(tid: int, request: Request, round: int = 0) -> Response:
    """Each round's pairing list by board and then by name."""
    site, _caller = caller_of(request)
    view, _table = site.service.crosstable(tid)
    chosen = sheets(site, view, _rounds(view, round))
    name = f"pairings-by-name-{round}.pdf" if round else "pairings-by-name.pdf"
    return pdf_download(pdfs.pairings_pdf(view.name, chosen, names=True), name)


@router.get("/t/{tid}/hall/wallchart", response_class=HTMLResponse)
def wallchart(tid: int, request: Request) -> Response:
    """The wall chart's print page on A3 landscape."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    view, table = context["t"], context["table"]
    extra = wall_chart(site, view, table)
    extra["details"] = paper.tournament_details(view.settings, tuple(table.tiebreaks))
    extra["cell_text"] = paper.swiss_cell_text
    extra["legend"] = paper.swiss_legend() if "swiss" in extra else []
    return site.page(request, "hall_wallchart.html", caller=caller, **extra, **context)


@router.get("/t/{tid}/hall/wallchart.pdf")
def wallchart_pdf(tid: int, request: Request) -> Response:
    """The wall chart as an A3 landscape PDF."""
    site, _caller = caller_of(request)
    view, table = site.service.crosstable(tid)
    locale = i18n.current.get()
    chart = wall_chart(site, view, table)
    details = paper.tournament_details(view.settings, tuple(table.tiebreaks))
    name = "wallchart-a3.pdf"
    if chart.get("swiss") is not None:
        return pdf_download(pdfs.swiss_pdf(chart["swiss"], view.name, locale, details, WALL), name)
    if chart.get("bracket") is not None:
        return pdf_download(pdfs.bracket_pdf(chart["bracket"], view.name, details, WALL), name)
    if chart.get("team_grid") is not None:
        grid = chart["team_grid"]
        return pdf_download(pdfs.teams_pdf(grid, table, view.name, locale, details, WALL), name)
    return pdf_download(pdfs.crosstable_pdf(table, view.name, locale, details, WALL), name)


# -- the check-in ----------------------------------------------------------------------------


@router.get("/t/{tid}/hall/checkin-sheet", response_class=HTMLResponse)
def checkin_sheet(tid: int, request: Request, round: int = 0) -> Response:
    """The check-in sheet to print: the players by name, a box to sign."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    sheet = _sheet_players(site, tid, round)
    return site.page(
        request,
        "hall_checkin_sheet.html",
        caller=caller,
        players=sheet.players,
        round=sheet.round,
        **context,
    )


@router.get("/t/{tid}/hall/checkin-sheet.pdf")
def checkin_sheet_pdf(tid: int, request: Request, round: int = 0) -> Response:
    site, _caller = caller_of(request)
    view, _table = site.service.crosstable(tid)
    sheet = _sheet_players(site, tid, round)
    people = [(p.start, p.name) for p in sheet.players]
    data = pdfs.checkin_pdf(view.name, sheet.round, people)
    return pdf_download(data, f"checkin-{sheet.round}.pdf")


@dataclass(frozen=True, slots=True)
class CheckinSheet:
    """A round's check-in sheet: its players by name (each with ``start`` and ``name``:
    a check-in line while the tournament runs, else a registered player) and the round."""

    players: tuple[Any, ...]
    round: int


def _sheet_players(site: Any, tid: int, round_number: int) -> CheckinSheet:
    """The players a round's check-in sheet lists, by name: everyone asked to check in
    (not withdrawn, no bye entered, game not over); before the start, everyone."""
    view, _table = site.service.crosstable(tid)
    if view.status == "running":
        checkin = site.service.checkin_view(tid, round_number or None)
        lines = [line for line in checkin.lines if line.status in ("", "played")]
        number = checkin.round
    else:
        lines = [p for p in view.players if p.start is not None]
        number = round_number or 1
    ordered = sorted(lines, key=lambda p: (paper.name_key(p.name), p.name, p.start))
    return CheckinSheet(tuple(ordered), number)


@router.get("/t/{tid}/checkin", response_class=HTMLResponse)
def checkin_page(tid: int, request: Request, round: int = 0, player: int = 0) -> Response:
    """The tablet's page: tap a name, then confirm (``player``: the name tapped)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    context = page_context(site, caller, tid)
    view = context["t"]
    if view.status != "running":
        return site.page(
            request, "checkin.html", caller=caller, checkin=None, confirm=None, **context
        )
    checkin = site.service.checkin_view(tid, round or None)
    confirm = next((line for line in checkin.lines if line.start == player), None)
    return site.page(
        request, "checkin.html", caller=caller, checkin=checkin, confirm=confirm, **context
    )


@router.post("/t/{tid}/checkin")
def checkin_post(tid: int, request: Request, form: CheckedForm) -> Response:
    """``action``: ``in`` (the player confirmed), ``out`` (take a check-in back) or
    ``absent`` (every player not checked in gets what the system allows)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    action = text(form, "action", "in")
    number = integer(form, "round", low=1, high=10_000)
    if action == "absent":
        change = site.service.absent_byes(tid, number, actor=caller.actor)
    elif action in ("in", "out"):
        start = integer(form, "start", low=1, high=100_000)
        if start is None:
            raise RuleError("choose the player who checks in")
        if action == "in":
            change = site.service.check_in(tid, start, number, actor=caller.actor)
        else:
            change = site.service.cancel_check_in(tid, start, number, actor=caller.actor)
    else:
        raise RuleError("action: {action} is not in, out or absent", action=repr(action[:20]))
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    where = f"/t/{tid}/checkin" + (f"?round={number}" if number else "")
    return RedirectResponse(where, status_code=303)


# -- the venue screen ------------------------------------------------------------------------


def _venue(site: Any, caller: Any, tid: int) -> TemplateContext:
    context = page_context(site, caller, tid)
    view = context["t"]
    number = int(context["current_round"] or 0)
    found = sheets(site, view, [number]) if number and number in printed_rounds(view) else []
    return {
        **context,
        "venue_round": number,
        "venue_boards": found[0].boards if found else (),
        "venue_byes": found[0].byes if found else (),
    }


@router.get("/t/{tid}/venue", response_class=HTMLResponse)
def venue(tid: int, request: Request, speed: float = 1.0) -> Response:
    """The big screen: the current round's pairings with results and the standings,
    scrolling by itself (``speed``: pixels a tick), live, without the site's chrome."""
    site, caller = caller_of(request)
    context = _venue(site, caller, tid)
    pace = min(max(speed, 0.2), 10.0) if math.isfinite(speed) else 1.0
    return site.page(request, "venue.html", caller=caller, speed=pace, **context)


@router.get("/t/{tid}/venue/body", response_class=HTMLResponse)
def venue_body(tid: int, request: Request) -> Response:
    """The venue screen's body, fetched again after every change."""
    site, caller = caller_of(request)
    context = _venue(site, caller, tid)
    return site.page(request, "venue_body.html", caller=caller, **context)
