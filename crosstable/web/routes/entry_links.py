"""Players' entries tied to their accounts, on the web, with the player's word:

* ``GET /t/{id}/manage/accounts`` — the organiser's list of the entries: the account
  each is linked to, the request waiting for an answer, a form to ask an account;
* ``POST /t/{id}/manage/accounts/{number}`` — ``action`` ``ask`` (with ``username``),
  ``withdraw`` (the request) or ``unlink`` (the link);
* ``GET /account/entries`` — the requests waiting for the signed-in user's answer;
* ``POST /account/entries/{id}/{number}`` — ``action`` ``confirm`` or ``refuse``;
* the JSON API: ``POST /api/v1/tournaments/{id}/players/{number}/account``
  (``{"username"}``: ask), ``GET /api/v1/account/entry-requests`` and
  ``POST /api/v1/account/entry-requests/{id}/{number}`` (``{"confirm": true|false}``).

The link itself is :meth:`crosstable.service.accounts.Accounts.link_entry`, recorded in
the tournament's history with the player as its author.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.entry_requests import EntryRequest, EntryRequests
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web.i18n import gettext as _
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    page_context,
    require_role,
    require_user,
    text,
)
from crosstable.web.security import Caller
from crosstable.web.site import Site, site_of

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])


def requests_of(site: Site) -> EntryRequests:
    return EntryRequests(site.service.store, site.service.clock, site.accounts)


def _flash(request: Request, message: str | Message) -> None:
    request.session["flash"] = {"kind": "ok", "text": translate(message)}


def ask(site: Site, caller: Caller, tid: int, number: int, username: str) -> EntryRequest:
    require_role(site, caller, tid, MANAGERS)
    if not username.strip():
        raise RuleError("name the account that should confirm the entry")
    return requests_of(site).ask(tid, number, username, actor=caller.actor)


def answer(site: Site, caller: Caller, tid: int, number: int, confirm: bool) -> bool:
    require_user(caller)
    assert caller.user is not None
    return requests_of(site).answer(tid, number, int(caller.user.id), confirm=confirm)


@router.get("/t/{tid}/manage/accounts", response_class=HTMLResponse)
def accounts_page(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = page_context(site, caller, tid)
    linked = site.accounts.entry_accounts(tid)
    names = {u.id: u.username for u in site.accounts.users()} if linked else {}
    return site.page(
        request,
        "manage_accounts.html",
        caller=caller,
        linked={number: names.get(uid, "") for number, uid in linked.items()},
        waiting=requests_of(site).waiting_in(tid),
        **context,
    )


@router.post("/t/{tid}/manage/accounts/{number}")
def accounts_change(tid: int, number: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    action = text(form, "action")
    if action == "ask":
        made = ask(site, caller, tid, number, text(form, "username"))
        _flash(
            request,
            Message(
                "{name} is asked to confirm the entry of {entry}",
                name=made.username,
                entry=made.name,
            ),
        )
    elif action == "withdraw":
        requests_of(site).withdraw(tid, number)
        _flash(request, _("the request is withdrawn"))
    elif action == "unlink":
        site.accounts.unlink_entry(tid, number, actor=caller.actor)
        _flash(request, _("the entry is no longer linked to an account"))
    else:
        raise RuleError("unknown action {action}", action=repr(action))
    return RedirectResponse(f"/t/{tid}/manage/accounts", status_code=303)


@router.get("/account/entries", response_class=HTMLResponse)
def my_requests(request: Request) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    waiting = requests_of(site).waiting_for(int(caller.user.id))
    return site.page(request, "account_entries.html", caller=caller, waiting=waiting)


@router.post("/account/entries/{tid}/{number}")
def my_answer(tid: int, number: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    action = text(form, "action")
    if action not in ("confirm", "refuse"):
        raise RuleError("unknown action {action}", action=repr(action))
    if answer(site, caller, tid, number, action == "confirm"):
        _flash(request, _("the entry is yours: its games count for your account"))
    else:
        _flash(request, _("the request is refused"))
    return RedirectResponse("/account/entries", status_code=303)


class AskBody(BaseModel):
    username: str = Field(min_length=1, max_length=80)


class AnswerBody(BaseModel):
    confirm: bool


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class RequestShown(Shown):
    """A request to confirm an entry, as the API answers it."""

    tournament: int
    tournament_name: str
    number: int
    name: str
    username: str
    requested_by: str
    requested_at: str


def _request_json(made: EntryRequest) -> JsonObject:
    return RequestShown(
        tournament=made.tournament_id,
        tournament_name=made.tournament,
        number=made.number,
        name=made.name,
        username=made.username,
        requested_by=made.requested_by,
        requested_at=made.requested_at,
    ).as_json()


@api.post("/tournaments/{tid}/players/{number}/account", status_code=201)
def api_ask(tid: Num, number: Num, body: AskBody, request: Request, caller: ApiCaller) -> Any:
    """Ask an account to confirm the entry as its own (the organiser); the entry is
    linked when the account's owner confirms."""
    return _request_json(ask(site_of(request), caller, tid, number, body.username))


@api.get("/account/entry-requests")
def api_waiting(request: Request, caller: ApiCaller) -> Any:
    """The requests waiting for the signed-in account's answer."""
    require_user(caller)
    assert caller.user is not None
    waiting = requests_of(site_of(request)).waiting_for(int(caller.user.id))
    return {"requests": [_request_json(r) for r in waiting]}


@api.post("/account/entry-requests/{tid}/{number}")
def api_answer(tid: Num, number: Num, body: AnswerBody, request: Request, caller: ApiCaller) -> Any:
    """Confirm (the entry is linked to the account) or refuse a request."""
    linked = answer(site_of(request), caller, tid, number, body.confirm)
    return {"tournament": tid, "number": number, "linked": linked}
