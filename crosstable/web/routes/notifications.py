"""The signed-in user's notifications in the JSON API (issue 11 item 5, R-SE-5),
through :mod:`crosstable.service.series.inbox`:

* ``GET /api/v1/notifications`` — the caller's notifications, newest first, and the
  unread count;
* ``POST /api/v1/notifications/read`` ``{"ids": [..] | null}`` — mark the caller's
  notifications read (null: all); the unread count after;
* ``GET /api/v1/notifications/preferences`` and ``PUT`` ``{"email", "mailed": [kinds]}``
  — the address mailed to and the kinds mailed;
* ``GET /notifications/unsubscribe/{token}`` — the mail's link: a page that asks;
  ``POST`` (CSRF-checked form) — no more mails of that kind to that user. The token
  is signed with the site's secret (``CROSSTABLE_SECRET`` or the stored one, which
  ``crosstable tick --send`` uses too); a bad one is 404.

Every route needs a signed-in caller (401) and only ever reads or changes the
caller's own notifications.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from crosstable.service.series import inbox
from crosstable.service.series.sender import read_unsubscribe_token, unsubscribe
from crosstable.web.app import site_of
from crosstable.web.routes.api import ApiCaller
from crosstable.web.routes.common import CheckedForm, require_user

router = APIRouter(prefix="/api/v1", tags=["api"])


class ReadIn(BaseModel):
    ids: (
        Annotated[
            list[Annotated[int, Field(ge=1, le=2_000_000_000)]],  # what the database holds
            Field(max_length=1000),
        ]
        | None
    ) = None


class PreferencesIn(BaseModel):
    email: Annotated[str, Field(max_length=inbox.MAX_EMAIL)] = ""
    mailed: Annotated[list[str], Field(max_length=len(inbox.KINDS))] = []


def _user_id(caller: Any) -> int:
    require_user(caller)
    assert caller.user is not None
    return int(caller.user.id)


def _preferences_json(prefs: inbox.Preferences) -> dict[str, Any]:
    return {"email": prefs.email, "mailed": list(prefs.mailed), "muted": list(prefs.muted)}


@router.get("/notifications")
def api_notifications(request: Request, caller: ApiCaller) -> dict[str, Any]:
    """The caller's notifications, newest first (at most 100), and the unread count."""
    user = _user_id(caller)
    store = site_of(request).service.store
    return {
        "unread": inbox.unread_count(store, user),
        "notifications": [n.as_dict() for n in inbox.notifications(store, user)],
    }


@router.post("/notifications/read")
def api_mark_read(body: ReadIn, request: Request, caller: ApiCaller) -> dict[str, Any]:
    """Mark the caller's notifications ``ids`` read (null: all)."""
    user = _user_id(caller)
    service = site_of(request).service
    marked = inbox.mark_read(service.store, user, service.clock.now(), body.ids)
    return {"marked": marked, "unread": inbox.unread_count(service.store, user)}


@router.get("/notifications/preferences")
def api_preferences(request: Request, caller: ApiCaller) -> dict[str, Any]:
    user = _user_id(caller)
    return _preferences_json(inbox.preferences(site_of(request).service.store, user))


@router.put("/notifications/preferences")
def api_set_preferences(body: PreferencesIn, request: Request, caller: ApiCaller) -> dict[str, Any]:
    """The address mailed to and the kinds mailed (the others are not mailed)."""
    user = _user_id(caller)
    store = site_of(request).service.store
    return _preferences_json(inbox.set_preferences(store, user, body.email, body.mailed))


# -- the unsubscribe link of every mail (a signed token: no sign-in needed) ----------

pages = APIRouter(include_in_schema=False)


def _token_owner(request: Request, token: str) -> tuple[int, str]:
    from crosstable.web.app import _secret

    found = read_unsubscribe_token(_secret(site_of(request).service), token)
    if found is None:
        raise HTTPException(status_code=404, detail="this unsubscribe link is not valid")
    return found


@pages.get("/notifications/unsubscribe/{token}", response_class=HTMLResponse)
def unsubscribe_page(token: str, request: Request) -> Response:
    """GET only asks (mail scanners follow links): the form POSTs."""
    _user, kind = _token_owner(request, token)
    return site_of(request).page(request, "notifications.html", kind=kind, token=token, done=False)


@pages.post("/notifications/unsubscribe/{token}", response_class=HTMLResponse)
def unsubscribe_post(token: str, request: Request, form: CheckedForm) -> Response:
    user, kind = _token_owner(request, token)
    unsubscribe(site_of(request).service.store, user, kind)
    return site_of(request).page(request, "notifications.html", kind=kind, token=token, done=True)
