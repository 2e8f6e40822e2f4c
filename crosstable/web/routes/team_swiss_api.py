"""The JSON API of a team Swiss (docs/teams.md): create one
(``POST /api/v1/team-swiss``) and pair its next round
(``POST /api/v1/tournaments/{tid}/teams/rounds``). Its teams, players, start, line-ups,
board results and table are a team tournament's (:mod:`crosstable.web.routes.team_api`,
:mod:`crosstable.web.routes.teams`). Refusals are structured as every API error:
``{"detail": "…"}`` with 422 (a rule), 401, 403, 404.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from crosstable.core.teams.settings import MAX_BOARDS, TeamSettings
from crosstable.service.read_views import JsonObject
from crosstable.web.routes.api import ApiCaller, Num, change_out
from crosstable.web.routes.api_views import MadeShown
from crosstable.web.routes.common import MANAGERS, Body, require_role
from crosstable.web.routes.team_api import TeamChangeOut
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class TeamSwissIn(Body):
    """A team Swiss's regulations (tie-breaks: empty for a team Swiss's default)."""

    name: str = Field(..., min_length=1, max_length=200)
    boards: int = Field(4, ge=1, le=MAX_BOARDS, description="boards of every match")
    rounds: int | None = Field(None, ge=1, le=50, description="rounds (none: as a knockout's)")
    pairing: Literal["olympiad", "dutch"] = "olympiad"
    scoring: str = Field("2-1-0", max_length=20, description="match points: won-drawn-lost")
    primary: Literal["MP", "GP"] = "MP"
    bye: str = Field("", max_length=20, description="the bye's match and game points, MP/GP")
    free_order: bool = Field(False, description="line-ups may take any order")
    tiebreaks: list[str] = Field(default_factory=list, max_length=12)


@router.post("/team-swiss", status_code=201)
def create(body: TeamSwissIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Create a team Swiss (administrators and masters): ``{"id": …}``."""
    site = site_of(request)
    require_organiser(caller)
    user = caller.user
    assert user is not None
    settings = TeamSettings.from_details(
        {
            "competitors": "team",
            "team_boards": str(body.boards),
            "team_scoring": body.scoring,
            "team_primary": body.primary,
            "team_order": "free" if body.free_order else "fixed",
            "team_tiebreaks": ",".join(body.tiebreaks),
            "team_system": "swiss",
            "team_pairing": body.pairing,
            "team_bye": body.bye,
        }
    )
    change = site.service.create_team_swiss(
        body.name, settings, rounds=body.rounds, actor=caller.actor
    )
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return MadeShown(change.tournament_id).as_json()


@router.post("/tournaments/{tid}/teams/rounds", status_code=201)
def pair_round(tid: Num, request: Request, caller: ApiCaller) -> TeamChangeOut:
    """Pair the next round of a team Swiss from the results entered; ``data`` is
    ``{"round", "matches": [[team White on board 1, other team], …], "bye"}``."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_team_round(tid, actor=caller.actor)
    return TeamChangeOut(**change_out(change).model_dump(), data=change.data)


__all__ = ["router"]
