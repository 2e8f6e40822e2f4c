"""The JSON API of a team tournament (docs/teams.md): create one, add its teams and
their players before the start, set a team's line-up of a round. The start is
``POST /api/v1/tournaments/{tid}/start`` and board results are entered on
``…/rounds/{rnd}/boards/{board}/result``, as any tournament's; the table is
``GET /api/v1/tournaments/{tid}/teams``. Refusals are structured as every API
error: ``{"detail": "…"}`` with 422 (a rule), 403, 404.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from crosstable.core.teams.settings import MAX_BOARDS, TeamSettings
from crosstable.service import PlayerInfo
from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.api_views import MadeShown
from crosstable.web.routes.common import MANAGERS, Body, require_role
from crosstable.web.routes.team_entry import create_team_tournament, set_lineup
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class TeamTournamentIn(Body):
    """A team round robin's regulations."""

    name: str = Field(..., min_length=1, max_length=200)
    boards: int = Field(4, ge=1, le=MAX_BOARDS, description="boards of every match")
    double: bool = Field(False, description="a double round robin")
    scoring: str = Field("2-1-0", max_length=20, description="match points: won-drawn-lost")
    primary: Literal["MP", "GP"] = "MP"
    free_order: bool = Field(False, description="line-ups may take any order")
    tiebreaks: list[str] = Field(
        default_factory=lambda: ["GP", "EDE", "EMGSB", "BC"], max_length=12
    )


class TeamIn(Body):
    name: str = Field(..., min_length=1, max_length=200)


class MemberIn(Body):
    name: str = Field(..., min_length=1, max_length=200)
    rating: int | None = Field(None, ge=0, le=4000)
    captain: bool = False


class LineupIn(Body):
    players: list[int] = Field(
        ..., min_length=1, max_length=MAX_BOARDS, description="starting numbers, board 1 first"
    )


class TeamChangeOut(ChangeOut):
    #: what the change made: ``team`` (its number), ``entry``, ``position``, …
    data: JsonObject = Field(default_factory=dict)


@router.post("/team-tournaments", status_code=201)
def create(body: TeamTournamentIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Create a team round robin (administrators and masters): ``{"id": …}``."""
    site = site_of(request)
    settings = TeamSettings.from_details(
        {
            "competitors": "team",
            "team_boards": str(body.boards),
            "team_scoring": body.scoring,
            "team_primary": body.primary,
            "team_order": "free" if body.free_order else "fixed",
            "team_tiebreaks": ",".join(body.tiebreaks),
        }
    )
    cycles = 2 if body.double else 1
    made = create_team_tournament(site, caller, body.name, settings, cycles=cycles)
    return MadeShown(made).as_json()


@router.post("/tournaments/{tid}/teams", status_code=201)
def add_team(tid: Num, body: TeamIn, request: Request, caller: ApiCaller) -> TeamChangeOut:
    """A team (before the start); ``data.team`` is its number, in the order added."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.add_team(tid, body.name, actor=caller.actor)
    return TeamChangeOut(**change_out(change).model_dump(), data=change.data)


@router.post("/tournaments/{tid}/teams/{team}/members", status_code=201)
def add_member(
    tid: Num, team: Num, body: MemberIn, request: Request, caller: ApiCaller
) -> TeamChangeOut:
    """A player at the end of team ``team``'s board order (its number in the order added)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.add_team_member(
        tid, team, PlayerInfo(body.name, body.rating), captain=body.captain, actor=caller.actor
    )
    return TeamChangeOut(**change_out(change).model_dump(), data=change.data)


@router.put("/tournaments/{tid}/rounds/{rnd}/lineups/{team}")
def put_lineup(
    tid: Num, rnd: Num, team: Num, body: LineupIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Team ``team`` (its drawn number) plays round ``rnd`` with these players (the
    organiser, or the team's captain), until a board of its match has a result."""
    site = site_of(request)
    return change_out(set_lineup(site, caller, tid, rnd, team, body.players))


__all__ = ["router"]
