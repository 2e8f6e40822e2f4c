"""A team tournament on the web (docs/teams.md): the team crosstable page
``/t/{tid}/teams`` (the team table with its tie-breaks, the matches' scores team
against team, the match cards board by board, the board prizes; before the start, the
teams and their players) with its live part ``/t/{tid}/teams/body``, and
``GET /api/v1/tournaments/{tid}/teams``, the same as data. A tournament of players is a
422 with the reason; one that does not exist, 404. The forms that change a team
tournament are in :mod:`crosstable.web.routes.team_entry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from crosstable.core.scoring import format_points, points_json
from crosstable.core.teams import TeamScoring
from crosstable.service import Service
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web import i18n
from crosstable.web.contexts import TemplateContext
from crosstable.web.pdf.team_papers import board_prizes_pdf, match_sheets_pdf, team_table_pdf
from crosstable.web.routes.api import Num
from crosstable.web.routes.common import MANAGERS, caller_of, page_context, pdf_download
from crosstable.web.security import Caller, csrf_token
from crosstable.web.site import Site, site_of

router = APIRouter()
api_router = APIRouter(prefix="/api/v1", tags=["api"])


Points = int | float


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class MemberShown(Shown):
    """A team's player: drawn number (None: not drawn yet), entry, name, rating."""

    start: int | None
    entry: int
    name: str
    rating: int | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamShown(Shown):
    """A team: its drawn number (None: not drawn yet), the order it was added in, its
    name, its captain's drawn number and its players in board order."""

    team: int | None
    number: int
    name: str
    captain: int | None
    members: tuple[MemberShown, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamTableRow(Shown):
    """A team's line of the table; ``against``: its scores against each opponent (by the
    opponent's drawn number, as text: a JSON key), a match a score."""

    team: int
    name: str
    place: int
    MP: Points
    GP: Points
    #: one a tie-break (None: decided in the group)
    tiebreaks: tuple[Points | None, ...]
    against: dict[str, tuple[Points, ...]]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class BoardPrizeShown(Shown):
    """A board prize: the board, the place on it, the player, their team, points, games."""

    board: int
    place: int
    start: int
    team: int
    points: Points
    games: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamsShown(Shown):
    """A team tournament as its page, its papers and ``GET …/teams`` show it: the table,
    the teams, the match cards (the core's JSON of a match card) and the board prizes;
    before the start only the teams (``started`` False, the rest empty)."""

    started: bool
    #: ``MP`` or ``GP`` ("" before the start)
    primary: str
    tiebreaks: tuple[str, ...]
    rows: tuple[TeamTableRow, ...]
    teams: tuple[TeamShown, ...]
    matches: tuple[JsonObject, ...]
    board_prizes: tuple[BoardPrizeShown, ...]

    def as_json(self) -> JsonObject:
        head = {"started": self.started, "primary": self.primary, "tiebreaks": [*self.tiebreaks]}
        teams = [team.as_json() for team in self.teams]
        rest = {
            "rows": [row.as_json() for row in self.rows],
            "matches": list(self.matches),
            "board_prizes": [prize.as_json() for prize in self.board_prizes],
        }
        if not self.started:  # the teams first: the JSON answered before the start
            return head | {"teams": teams} | rest
        return head | {"rows": rest["rows"], "teams": teams} | rest


def team_data(service: Service, tid: int) -> TeamsShown:
    """The team table, the match grid and the board prizes as data (before the start:
    the teams and their players only)."""
    teams = service.team_list(tid)  # a tournament of players: a RuleError (422)
    listed = tuple(
        TeamShown(
            team=t.start,
            number=t.number,
            name=t.name,
            captain=next((m.start for m in t.members if m.entry == t.captain), None),
            members=tuple(MemberShown(m.start, m.entry, m.name, m.rating) for m in t.members),
        )
        for t in teams
    )
    if any(t.start is None for t in teams) or not teams:
        return TeamsShown(False, "", (), (), listed, (), ())
    table = service.team_standings(tid)
    scoring = TeamScoring()
    grid: dict[int, dict[int, list[Fraction]]] = {t.start or 0: {} for t in teams}
    matches = []
    for number, round_matches in enumerate(service.team_matches(tid), 1):
        for m in round_matches:
            white, black = m.game_points(scoring)
            if m.finished:
                grid[m.white].setdefault(m.black, []).append(white)
                grid[m.black].setdefault(m.white, []).append(black)
            matches.append(m.card(number, scoring))
    return TeamsShown(
        started=True,
        primary=table.primary,
        tiebreaks=tuple(table.tiebreaks),
        rows=tuple(
            TeamTableRow(
                team=r.team,
                name=r.name,
                place=r.place,
                MP=points_json(r.mp),
                GP=points_json(r.gp),
                tiebreaks=tuple(None if v is None else points_json(v) for v in r.values),
                against={
                    str(o): tuple(points_json(p) for p in scores)
                    for o, scores in sorted(grid[r.team].items())
                },
            )
            for r in table.rows
        ),
        teams=listed,
        matches=tuple(matches),
        board_prizes=tuple(
            BoardPrizeShown(
                board=p.board,
                place=p.place,
                start=p.record.player,
                team=p.record.team,
                points=points_json(p.record.points),
                games=p.record.games,
            )
            for p in service.board_prizes(tid)
        ),
    )


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
    shown = team_data(site.service, tid)
    if not shown.started:
        raise HTTPException(status_code=404, detail="there are no rounds yet")
    data = shown.as_json()
    locale = i18n.current.get()
    if name == "table.pdf":
        return pdf_download(team_table_pdf(data, title, locale), f"teams-{tid}.pdf")
    if name == "prizes.pdf":
        return pdf_download(board_prizes_pdf(data, title, locale), f"board-prizes-{tid}.pdf")
    chosen = round if round > 0 else None
    filename = f"match-sheets-{tid}-{round}.pdf" if chosen else f"match-sheets-{tid}.pdf"
    return pdf_download(match_sheets_pdf(data, title, locale, chosen), filename)


__all__ = ["PAPERS", "api_router", "body_context", "editable_teams", "router", "team_data"]
