"""Running a team league in the browser (docs/teams.md, "On the web"): an organiser
creates the team tournament (``/teams/new``), adds its teams and their players in
board order (captain, reserves) and starts the team round robin; the organiser or a
team's captain sets the team's line-up of a round until a board of its match has a
result. Board results are entered on the round page, as every game's are.

The checks are the service's (the same refusals, naming round, team, players and
boards, as the command line's); who may do what is checked here.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.core.teams.settings import MAX_BOARDS, TeamSettings
from crosstable.core.text import Message
from crosstable.service import PlayerInfo
from crosstable.service.frame import Change
from crosstable.web.messages import translate
from crosstable.web.routes import actions
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    require_role,
    require_user,
    role_of,
    text,
)
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.security import Caller
from crosstable.web.site import Site

router = APIRouter(include_in_schema=False)


def create_team_tournament(
    site: Site,
    caller: Caller,
    name: str,
    settings: TeamSettings,
    *,
    cycles: int = 1,
    rounds: int | None = None,
) -> int:
    """A new team round robin, or a team Swiss (its settings say so; ``rounds`` None:
    as many as a knockout of the teams), organised by the caller (an administrator or a
    master)."""
    require_organiser(caller)
    user = caller.user
    assert user is not None
    if not " ".join(name.split()):
        raise RuleError("a tournament needs a name")
    if settings.swiss is not None:
        change = site.service.create_team_swiss(name, settings, rounds=rounds, actor=caller.actor)
    else:
        change = site.service.create_team_tournament(
            name, settings, cycles=cycles, actor=caller.actor
        )
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return change.tournament_id


def require_lineup_entry(site: Site, caller: Caller, tid: int, team: int) -> None:
    """The organiser sets any team's line-up; a team's captain (their account linked to
    their entry) sets their own team's; anyone else is refused (401/403)."""
    site.service.revision(tid)  # 404 for an unknown tournament
    require_user(caller)
    if role_of(site, caller, tid) in MANAGERS:
        return
    user = caller.user
    assert user is not None
    entry = site.accounts.entry_of(tid, user.id)
    for listed in site.service.team_list(tid):
        if listed.start == team and entry is not None and listed.captain == entry:
            return
    raise HTTPException(
        status_code=403,
        detail=Message(
            "only the organiser or the captain of team {team} may set its line-up", team=team
        ),
    )


def set_lineup(
    site: Site, caller: Caller, tid: int, rnd: int, team: int, players: Sequence[int]
) -> Change:
    require_lineup_entry(site, caller, tid, team)
    return site.service.set_lineup(tid, rnd, team, players, actor=caller.actor)


def settings_from_form(form: CheckedForm) -> TeamSettings:
    """The team settings of the new-tournament form (the service's checks)."""
    boards = integer(form, "boards", low=1, high=MAX_BOARDS)
    details = {
        "competitors": "team",
        "team_boards": str(boards or 4),
        "team_scoring": text(form, "scoring", "2-1-0"),
        "team_primary": text(form, "primary", "MP"),
        "team_order": "free" if text(form, "order") == "free" else "fixed",
        "team_tiebreaks": text(form, "tiebreaks"),
    }
    system = text(form, "system", "round-robin")
    if system not in SYSTEMS:
        raise RuleError(
            "{field}: {value} is not one of {expected}",
            field="system",
            value=system,
            expected=", ".join(SYSTEMS),
        )
    if system != "round-robin":  # a team Swiss, paired by the Olympiad or the Dutch rules
        details |= {"team_system": "swiss", "team_pairing": system.removeprefix("swiss-")}
    return TeamSettings.from_details(details)


#: the new-tournament form's systems: a team round robin, a team Swiss by FIDE's
#: Olympiad Pairing Rules or by the Dutch rules applied to teams
SYSTEMS = ("round-robin", "swiss-olympiad", "swiss-dutch")


def _done(request: Request, tid: int, message: str) -> Response:
    request.session["flash"] = {"kind": "ok", "text": translate(message)}
    return RedirectResponse(f"/t/{tid}/teams", status_code=303)


@router.get("/teams/new", response_class=HTMLResponse)
def new_team_tournament_page(request: Request) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)
    return site.page(request, "team_new.html", caller=caller, max_boards=MAX_BOARDS)


@router.post("/teams/new")
def new_team_tournament(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    settings = settings_from_form(form)
    cycles = 2 if text(form, "double") else 1
    rounds = integer(form, "rounds", low=1, high=50)
    tid = create_team_tournament(
        site, caller, text(form, "name"), settings, cycles=cycles, rounds=rounds
    )
    return RedirectResponse(f"/t/{tid}/teams", status_code=303)


@router.post("/t/{tid}/teams/add")
def add_team(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.add_team(tid, text(form, "name"), actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/teams/members")
def add_member(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    team = integer(form, "team", low=1) or 0
    player = PlayerInfo(text(form, "name"), integer(form, "rating", low=0, high=4000))
    captain = bool(text(form, "captain"))
    change = site.service.add_team_member(tid, team, player, captain=captain, actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/teams/start")
def start(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    change = actions.start(site, caller, tid)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/teams/pair")
def pair(tid: int, request: Request, form: CheckedForm) -> Response:
    """A team Swiss's next round, paired from the results entered (the organiser)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_team_round(tid, actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/teams/lineup")
def lineup(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    rnd = integer(form, "round", low=1) or 0
    team = integer(form, "team", low=1) or 0
    players: list[int] = []
    for board in range(1, MAX_BOARDS + 1):
        start = integer(form, f"board_{board}", low=1)
        if start is None:
            break
        players.append(start)
    change = set_lineup(site, caller, tid, rnd, team, players)
    return _done(request, tid, change.summary)


__all__ = [
    "create_team_tournament",
    "require_lineup_entry",
    "router",
    "set_lineup",
    "settings_from_form",
]
