"""Group stage + knockout on the web: the event shown on its tournaments' pages, and
"Create the knockout stage" (page form and JSON API) once every group is finished.

The rules are the service's (:meth:`crosstable.service.stages.StagePlay.create_knockout_stage`);
what lives here is *who may* — the organiser of every group (or an administrator) —
and what the site keeps beside the tournament: the knockout is organised by the
groups' owner with the same staff, and each qualifier's entry stays tied to the
player's account, so players report their knockout games as they did in the groups.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service import Change, StageView
from crosstable.service.errors import NotFoundError
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import MANAGERS, CheckedForm, caller_of, require_role
from crosstable.web.security import Caller
from crosstable.web.site import Site, site_of

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])
router = APIRouter()


def create_stage(site: Site, caller: Caller, tid: int, *, lots_seed: int | None = None) -> Change:
    """The organiser of every group (or an administrator) creates the knockout stage."""
    require_role(site, caller, tid, MANAGERS)
    stage = site.service.stage_of(tid)
    if stage is None:
        raise RuleError("tournament {tournament} is not part of a group stage", tournament=tid)
    for group in stage.groups:
        require_role(site, caller, group.id, MANAGERS)
    change = site.service.create_knockout_stage(tid, actor=caller.actor, lots_seed=lots_seed)
    carry_over(site, caller, stage, change)
    return change


def carry_over(site: Site, caller: Caller, stage: StageView, change: Change) -> None:
    """The knockout gets the groups' owner and staff and the qualifiers' account links
    (recorded in its history like any staff change)."""
    accounts = site.accounts
    ko = change.tournament_id
    first = stage.groups[0].id
    user = caller.user
    assert user is not None
    owner_id = accounts.access(first).owner_id
    owner = user
    if owner_id is not None and owner_id != user.id:
        try:
            owner = accounts.user(owner_id)
        except NotFoundError:
            owner = user
    if accounts.access(ko).owner_id is None:  # (a knockout filled again keeps its access)
        accounts.claim(ko, owner, actor=caller.actor)
        if user.is_admin and not owner.is_admin:  # an administrator created it: approved
            accounts.set_access(ko, approval="approved", actor=caller.actor)
    for user_id, role in accounts.staff(first).items():
        if user_id != owner.id:
            accounts.set_staff(ko, user_id, role, actor=caller.actor)
    links = {group.id: accounts.entry_accounts(group.id) for group in stage.groups}
    for q in change.data.get("qualifiers", []):
        linked = links.get(int(q["group_id"]), {}).get(int(q["group_number"]))
        if linked is not None:
            accounts.link_entry(ko, int(q["start"]), linked, actor=caller.actor)


# -- the page's form ----------------------------------------------------------------------


@pages.post("/t/{tid}/knockout-stage")
def knockout_stage(tid: int, request: Request, form: CheckedForm) -> Response:
    """Create the knockout stage (any group of the event); on to the knockout's page."""
    site, caller = caller_of(request)
    by_lot = str(form.get("by_lot") or "") in ("on", "1", "yes", "true")
    seed = site.service.random.randrange(1, 10**9) if by_lot else None
    change = create_stage(site, caller, tid, lots_seed=seed)
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{change.tournament_id}/manage", status_code=303)


# -- the JSON API -------------------------------------------------------------------------


class StageIn(BaseModel):
    lots_seed: int | None = Field(
        None,
        ge=0,
        le=2**62,
        description="break a tie at the cut (places k and k+1 of a group) by a drawing of "
        "lots with this seed; null: such a tie is refused",
    )


@api.get("/tournaments/{tid}/stage")
def stage(tid: Num, request: Request) -> JsonObject:
    """The group stage + knockout event of a group (or of its knockout): the groups,
    their status, qualifiers per group, the knockout's settings and the knockout."""
    site = site_of(request)
    site.service.revision(tid)  # 404 for an unknown tournament
    found = site.service.stage_of(tid)
    if found is None:
        raise HTTPException(
            status_code=404,
            detail=Message("tournament {tournament} is not part of a group stage", tournament=tid),
        )
    return found.to_json()


@api.post("/tournaments/{tid}/knockout-stage", status_code=201)
def create_knockout_stage(
    tid: Num, request: Request, caller: ApiCaller, body: StageIn | None = None
) -> JsonObject:
    """Create the knockout stage once every group of the event is finished (``tid``: any
    group): one knockout tournament of the qualifiers, cross-seeded. 409 when it exists."""
    site = site_of(request)
    change = create_stage(site, caller, tid, lots_seed=None if body is None else body.lots_seed)
    data = change.data
    lines = tuple(data["lines"])
    return StageCreated(
        knockout=change.tournament_id,
        seq=change.seq,
        summary=change.summary,
        qualifiers=data["qualifiers"],
        lines=lines,
        round_1=tuple((lines[k], lines[k + 1]) for k in range(0, len(lines), 2)),
        lots_seed=data["lots_seed"],
    ).as_json()


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class StageCreated(Shown):
    """``POST …/knockout-stage``: the knockout made, its change, the qualifiers and
    lines as the change stored them, round 1's pairs of lines, the seed of the lots."""

    knockout: int
    seq: int
    summary: str
    #: the change's own JSON (each group's qualifiers), passed on as stored
    qualifiers: object
    #: the bracket's lines, as the change stored them
    lines: tuple[object, ...]
    round_1: tuple[tuple[object, object], ...]
    lots_seed: int | None


router.include_router(pages)
router.include_router(api)
