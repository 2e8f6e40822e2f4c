"""A team tournament on the web (docs/teams.md): the team crosstable page
``/t/{tid}/teams`` (the team table with its tie-breaks, the matches' scores team
against team, the board prizes) and ``GET /api/v1/tournaments/{tid}/teams``, the same
as data. A tournament of players is a 422 with the reason; one that does not exist, 404.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from crosstable.core.scoring import format_points, points_json
from crosstable.core.teams import TeamScoring
from crosstable.service import Service
from crosstable.web.routes.api import Num
from crosstable.web.routes.common import caller_of, page_context
from crosstable.web.site import site_of

router = APIRouter()
api_router = APIRouter(prefix="/api/v1", tags=["api"])


def team_data(service: Service, tid: int) -> dict[str, Any]:
    """The team table, the match grid and the board prizes as data."""
    table = service.team_standings(tid)
    teams = service.team_list(tid)
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
    return {
        "primary": table.primary,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "team": r.team,
                "name": r.name,
                "place": r.place,
                "MP": points_json(r.mp),
                "GP": points_json(r.gp),
                "tiebreaks": [None if v is None else points_json(v) for v in r.values],
                "against": {
                    str(o): [points_json(p) for p in scores]
                    for o, scores in sorted(grid[r.team].items())
                },
            }
            for r in table.rows
        ],
        "teams": [
            {
                "team": t.start,
                "name": t.name,
                "members": [{"start": m.start, "name": m.name} for m in t.members],
            }
            for t in teams
        ],
        "matches": matches,
        "board_prizes": [
            {
                "board": p.board,
                "place": p.place,
                "start": p.record.player,
                "team": p.record.team,
                "points": points_json(p.record.points),
                "games": p.record.games,
            }
            for p in service.board_prizes(tid)
        ],
    }


@api_router.get("/tournaments/{tid}/teams")
def teams_api(tid: Num, request: Request) -> dict[str, Any]:
    """A team tournament's table (match and game points, the team tie-breaks), the
    scores team against team, the matches board by board and the board prizes."""
    service = site_of(request).service
    revision = service.revision(tid)  # 404 for a tournament that does not exist
    return team_data(service, tid) | {"revision": revision}


def _shown(value: object) -> str:
    if value is None:
        return ""
    return format_points(Fraction(str(value)))


@router.get("/t/{tid}/teams", response_class=HTMLResponse)
def teams_page(tid: int, request: Request) -> Response:
    """The team crosstable."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    data = team_data(site.service, tid)
    names = {str(t["team"]): t["name"] for t in data["teams"]}
    players = {m["start"]: m["name"] for t in data["teams"] for m in t["members"]}
    return site.page(
        request,
        "teams.html",
        caller=caller,
        teams=data,
        names=names,
        players=players,
        shown=_shown,
        **context,
    )


__all__ = ["api_router", "router", "team_data"]
