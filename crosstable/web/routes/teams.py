"""A team tournament on the web (docs/teams.md): the team crosstable page
``/t/{tid}/teams`` (the team table with its tie-breaks, the matches' scores team
against team, the match cards board by board, the board prizes; before the start, the
teams and their players) with its live part ``/t/{tid}/teams/body``, and
``GET /api/v1/tournaments/{tid}/teams``, the same as data. A tournament of players is a
422 with the reason; one that does not exist, 404. The forms that change a team
tournament are in :mod:`crosstable.web.routes.team_entry`; its read view
(:class:`~crosstable.web.team_views.TeamsShown`) in :mod:`crosstable.web.team_views`, which
the PDF papers read too.
"""

from __future__ import annotations

from fractions import Fraction

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from crosstable.core.scoring import format_points
from crosstable.service.read_views import JsonObject
from crosstable.web import i18n
from crosstable.web.contexts import TemplateContext
from crosstable.web.pdf.team_papers import board_prizes_pdf, match_sheets_pdf, team_table_pdf
from crosstable.web.routes.api import Num
from crosstable.web.routes.common import MANAGERS, caller_of, page_context, pdf_download
from crosstable.web.security import Caller, csrf_token
from crosstable.web.site import Site, site_of
from crosstable.web.team_views import TeamsShown, team_data

router = APIRouter()
api_router = APIRouter(prefix="/api/v1", tags=["api"])


@api_router.get("/tournaments/{tid}/teams")
def teams_api(tid: Num, request: Request) -> JsonObject:
    """A team tournament's table (match and game points, the team tie-breaks), the
    scores team against team, the matches board by board and the board prizes."""
    service = site_of(request).service
    revision = service.revision(tid)  # 404 for a tournament that does not exist
    return team_data(service, tid).as_json() | {"revision": revision}


def _shown(value: object) -> str:
    if value is None:
        return ""
    return format_points(Fraction(str(value)))


def editable_teams(site: Site, caller: Caller, tid: int, data: TeamsShown) -> set[int]:
    """The teams (drawn numbers) whose line-ups the caller may enter: every team for the
    organiser, their own team for a captain with a linked account."""
    if caller.user is None or not data.started:
        return set()
    if site.accounts.role(caller.user, tid) in MANAGERS:
        return {t.team for t in data.teams if t.team is not None}
    entry = site.accounts.entry_of(tid, caller.user.id)
    if entry is None:
        return set()
    return {
        t.team
        for t in data.teams
        if t.team is not None and any(m.entry == entry and m.start == t.captain for m in t.members)
    }


def body_context(site: Site, caller: Caller, tid: int, status: str) -> TemplateContext:
    """What the live part of the team page shows (the template's values)."""
    data = team_data(site.service, tid)
    return {
        "teams": data,
        "names": {str(t.team): t.name for t in data.teams},
        "players": {m.start: m.name for t in data.teams for m in t.members},
        "members": {t.team: t.members for t in data.teams},
        "editable": editable_teams(site, caller, tid, data),
        "status": status,
        "shown": _shown,
    }


@router.get("/t/{tid}/teams", response_class=HTMLResponse)
def teams_page(tid: int, request: Request) -> Response:
    """The team crosstable (before the start: the teams, and the organiser's forms)."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    body = body_context(site, caller, tid, context["t"].status)
    return site.page(request, "teams.html", caller=caller, **body, **context)


@router.get("/t/{tid}/teams/body", response_class=HTMLResponse)
def teams_body(tid: int, request: Request) -> Response:
    """The team page's live part: static/app.js reloads it after each change."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    body = body_context(site, caller, tid, context["t"].status)
    values = context | body | {"request": request, "csrf": csrf_token(request)}
    return site.templates.TemplateResponse(request, "_teams_body.html", values)


#: the team papers: the team crosstable (with the board prizes), the board prizes
#: alone, the match sheets (``?round=N``: one round's)
PAPERS = ("table.pdf", "prizes.pdf", "matches.pdf")


@router.get("/t/{tid}/teams/pdf/{name}")
def team_pdf(tid: int, name: str, request: Request, round: int = 0) -> Response:
    """A team paper as PDF (the team table, the board prizes, the match sheets)."""
    site, _caller = caller_of(request)
    if name not in PAPERS:
        raise HTTPException(status_code=404, detail="unknown PDF")
    title = site.service.overview(tid).name
    data = team_data(site.service, tid)
    if not data.started:
        raise HTTPException(status_code=404, detail="there are no rounds yet")
    locale = i18n.current.get()
    if name == "table.pdf":
        return pdf_download(team_table_pdf(data, title, locale), f"teams-{tid}.pdf")
    if name == "prizes.pdf":
        return pdf_download(board_prizes_pdf(data, title, locale), f"board-prizes-{tid}.pdf")
    chosen = round if round > 0 else None
    filename = f"match-sheets-{tid}-{round}.pdf" if chosen else f"match-sheets-{tid}.pdf"
    return pdf_download(match_sheets_pdf(data, title, locale, chosen), filename)


__all__ = ["PAPERS", "api_router", "body_context", "editable_teams", "router", "team_data"]
