"""The portal's rules on the web: fair play, the eligibility counts,
masters and organisers — what the administrator's and the account pages show, and
their JSON API (mounted under ``/api/v1`` with the account routes).

* ``POST /api/v1/users/{id}/flag`` ``{"reason", "decisions": {"<tournament id>":
  "withdraw"|"stay"}}`` and ``/unflag`` ``{"reason"}`` — administrators;
* ``POST /api/v1/users/{id}/adjust`` ``{"games", "online_tournaments", "reason"}`` —
  administrators: the adjustment kept apart from the site's counts;
* ``POST /api/v1/users/{id}/master`` ``{"grant": true|false, "reason"}`` — administrators;
* ``GET /api/v1/users/{id}/record`` — the account itself or an administrator: the
  counts (on the site, adjusted, total) and the master status;
* ``GET /api/v1/users/{id}/history`` — administrators: who flagged, when and why…;
* ``GET /api/v1/tournaments/{tid}/organisers`` — anyone; ``POST`` ``{"username",
  "role": "organiser"|"helper"|null}`` — the tournament's organisers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import Field

from crosstable.core.text import Message
from crosstable.service.eligibility import PlayingRecord
from crosstable.service.fair_play import (
    MAX_ADJUSTMENT,
    MAX_REASON,
    AccountEvent,
    RunningEntry,
)
from crosstable.service.organisers import MasterStatus
from crosstable.service.read_views import JsonObject
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import (
    MANAGERS,
    Body,
    CheckedForm,
    caller_of,
    integer,
    require_role,
)
from crosstable.web.routes.common import require_user as _require_user
from crosstable.web.security import Caller
from crosstable.web.site import Site

api_router = APIRouter()

Reason = Annotated[str, Field(max_length=MAX_REASON, description="why (kept in the record)")]
Adjustment = Annotated[int, Field(ge=-MAX_ADJUSTMENT, le=MAX_ADJUSTMENT)]


def require_admin(caller: Caller) -> None:
    _require_user(caller)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may change accounts")


@dataclass(frozen=True, slots=True)
class AccountRules:
    """What the administrator's page shows of an account's portal status: its counts,
    its master status, the tournaments it plays in now, and what administrators did."""

    record: PlayingRecord
    master: MasterStatus
    running: tuple[RunningEntry, ...]
    #: each line's summary in the reader's language
    history: tuple[AccountEvent, ...]


def account_view(site: Site, user_id: int) -> AccountRules:
    """What the administrator's page shows of an account's portal status."""
    accounts = site.accounts
    return AccountRules(
        record=accounts.record(user_id),
        master=accounts.master(user_id),
        running=tuple(accounts.running_entries(user_id)),
        history=tuple(
            replace(e, summary=translate(e.summary)) for e in accounts.account_history(user_id)
        ),
    )


def flag(
    site: Site, caller: Caller, user_id: int, reason: str, decisions: dict[int, str]
) -> list[int]:
    """Flag the account; withdrawn where the administrator chose so. The tournaments."""
    withdrawn = site.accounts.flag(
        user_id, reason, decisions=decisions, service=site.service, actor=caller.actor
    )
    return [entry.tournament_id for entry in withdrawn]


def adjustment(form: CheckedForm, name: str) -> int | None:
    return integer(form, name, low=-MAX_ADJUSTMENT, high=MAX_ADJUSTMENT)


def record_json(site: Site, user_id: int) -> JsonObject:
    record = site.accounts.record(user_id)
    master = site.accounts.master(user_id)
    return {
        "user": user_id,
        **record.as_dict(),
        "games_text": record.games_text(),
        "online_tournaments_text": record.tournaments_text(),
        "master": {
            "is_master": master.is_master,
            "won": list(master.won),
            "granted_by": master.granted_by,
            "revoked_by": master.revoked_by,
            "text": master.text(),
        },
    }


class FlagIn(Body):
    reason: Reason
    decisions: dict[str, Literal["withdraw", "stay"]] = Field(
        default_factory=dict,
        description="for each running tournament the player is in (its id): withdraw "
        "under its withdrawal rule, or stay until the end",
    )


class UnflagIn(Body):
    reason: Reason


class AdjustIn(Body):
    games: Adjustment | None = Field(None, description="games played elsewhere (+ or −)")
    online_tournaments: Adjustment | None = None
    reason: Reason


class MasterIn(Body):
    grant: bool
    reason: Reason = ""


class OrganiserIn(Body):
    username: str = Field(min_length=1, max_length=80)
    role: Literal["organiser", "helper"] | None = Field(
        "organiser", description="null: no longer on the staff"
    )


@api_router.post("/users/{user_id}/flag")
def api_flag(user_id: Num, body: FlagIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: flag an account for computer help (it can no longer take part)."""
    require_admin(caller)
    site = caller_of(request)[0]
    decisions: dict[int, str] = {}
    for key, value in body.decisions.items():
        if not key.isascii() or not key.isdigit() or len(key) > 10:
            raise HTTPException(
                status_code=422,
                detail=Message("decisions: {key} is not a tournament id", key=repr(key[:20])),
            )
        decisions[int(key)] = value
    withdrawn = flag(site, caller, user_id, body.reason, decisions)
    return {"user": user_id, "flagged": True, "withdrawn_from": withdrawn}


@api_router.post("/users/{user_id}/unflag")
def api_unflag(user_id: Num, body: UnflagIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: clear the flag (past withdrawals stay)."""
    require_admin(caller)
    site = caller_of(request)[0]
    site.accounts.unflag(user_id, body.reason, actor=caller.actor)
    return {"user": user_id, "flagged": False}


@api_router.post("/users/{user_id}/adjust")
def api_adjust(user_id: Num, body: AdjustIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: the adjustment of the eligibility counts (kept apart, recorded)."""
    require_admin(caller)
    site = caller_of(request)[0]
    site.accounts.adjust(
        user_id,
        games=body.games,
        tournaments=body.online_tournaments,
        reason=body.reason,
        actor=caller.actor,
    )
    return record_json(site, user_id)


@api_router.post("/users/{user_id}/master")
def api_master(user_id: Num, body: MasterIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: grant or revoke the master status (recorded)."""
    require_admin(caller)
    site = caller_of(request)[0]
    site.accounts.set_master(user_id, body.grant, reason=body.reason, actor=caller.actor)
    return record_json(site, user_id)


@api_router.get("/users/{user_id}/record")
def api_record(user_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """The account itself or an administrator: the eligibility counts and the master status."""
    _require_user(caller)
    assert caller.user is not None
    if caller.user.id != user_id and not caller.user.is_admin:
        raise HTTPException(
            status_code=403, detail="only the account itself or an administrator may see this"
        )
    site = caller_of(request)[0]
    site.accounts.user(user_id)  # 404 for an unknown user
    return record_json(site, user_id)


@api_router.get("/users/{user_id}/history")
def api_history(user_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: what administrators did to the account (who, when, why)."""
    require_admin(caller)
    site = caller_of(request)[0]
    events = site.accounts.account_history(user_id)
    return {
        "user": user_id,
        "events": [
            {
                "at": e.at,
                "actor": e.actor,
                "kind": e.kind,
                "summary": translate(e.summary),  # in the Accept-Language's language
                "data": e.data,
            }
            for e in events
        ],
    }


@api_router.get("/tournaments/{tid}/organisers")
def api_organisers(tid: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """The tournament's organisers and helpers, and which of them play."""
    site = caller_of(request)[0]
    site.service.revision(tid)  # 404 for an unknown tournament
    playing = site.accounts.playing(tid)
    staff = []
    for user_id, role in sorted(site.accounts.staff(tid).items()):
        user = site.accounts.user(user_id)
        staff.append({"username": user.username, "role": role, "plays": user_id in playing})
    return {"tournament": tid, "staff": staff}


@api_router.post("/tournaments/{tid}/organisers")
def api_set_organiser(
    tid: Num, body: OrganiserIn, request: Request, caller: ApiCaller
) -> JsonObject:
    """The tournament's organisers: add an organiser or a helper, or take one off."""
    site = caller_of(request)[0]
    require_role(site, caller, tid, MANAGERS)
    user = site.accounts.find_user(body.username)
    if user is None:
        raise HTTPException(
            status_code=404, detail=Message("there is no account {name}", name=repr(body.username))
        )
    site.accounts.set_staff(tid, user.id, body.role, actor=caller.actor)
    return api_organisers(tid, request, caller)
