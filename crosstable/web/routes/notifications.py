"""The signed-in user's notifications in the JSON API,
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

The pages (signed-in users; a guest is sent to the sign-in page):

* ``GET /notifications`` — the list, unread ones marked, each with its link (the
  edition, the group's tournament) and its moment in the reader's zone (the series'
  zone stated; ``static/zones.js`` rewrites it in the browser's); ``POST
  /notifications/read`` (a form: ``id`` or none for all) marks read;
* ``GET``/``POST /notifications/settings`` — the e-mail address and, per kind, the
  channels (e-mail, in the site, Telegram) the user receives it on.

The header of every page shows the unread count as a badge (``base.html``).

Every route needs a signed-in caller (401) and only ever reads or changes the
caller's own notifications.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.service.read_views import JsonObject
from crosstable.service.series import inbox, telegram
from crosstable.service.series.mail_text import news_title
from crosstable.service.series.sender import read_unsubscribe_token, unsubscribe
from crosstable.service.series.views import edition_places, stage_place
from crosstable.web import i18n
from crosstable.web.routes.api import ApiCaller
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text
from crosstable.web.series_pages import LocalMoment, PlaceShown, place_shown
from crosstable.web.site import Site, site_of, site_secret

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


def _preferences_json(prefs: inbox.Preferences) -> JsonObject:
    return {"email": prefs.email, "mailed": list(prefs.mailed), "muted": list(prefs.muted)}


@router.get("/notifications")
def api_notifications(request: Request, caller: ApiCaller) -> JsonObject:
    """The caller's notifications, newest first (at most 100), and the unread count."""
    user = _user_id(caller)
    store = site_of(request).service.store
    return {
        "unread": inbox.unread_count(store, user),
        "notifications": [n.as_dict() for n in inbox.notifications(store, user)],
    }


@router.post("/notifications/read")
def api_mark_read(body: ReadIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Mark the caller's notifications ``ids`` read (null: all)."""
    user = _user_id(caller)
    service = site_of(request).service
    marked = inbox.mark_read(service.store, user, service.clock.now(), body.ids)
    return {"marked": marked, "unread": inbox.unread_count(service.store, user)}


@router.get("/notifications/preferences")
def api_preferences(request: Request, caller: ApiCaller) -> JsonObject:
    user = _user_id(caller)
    return _preferences_json(inbox.preferences(site_of(request).service.store, user))


@router.put("/notifications/preferences")
def api_set_preferences(body: PreferencesIn, request: Request, caller: ApiCaller) -> JsonObject:
    """The address mailed to and the kinds mailed (the others are not mailed)."""
    user = _user_id(caller)
    store = site_of(request).service.store
    return _preferences_json(inbox.set_preferences(store, user, body.email, body.mailed))


# -- the unsubscribe link of every mail (a signed token: no sign-in needed) ----------

pages = APIRouter(include_in_schema=False)


def _token_owner(request: Request, token: str) -> tuple[int, str]:
    found = read_unsubscribe_token(site_secret(site_of(request).service), token)
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


# -- the in-site list and the settings --------------------------------------


def _signed_in(request: Request) -> int | None:
    _site, caller = caller_of(request)
    return None if caller.user is None else int(caller.user.id)


def _to_signin(request: Request) -> Response:
    return RedirectResponse(f"/signin?next={request.url.path}", status_code=303)


def _local(value: object, zone: str) -> LocalMoment | None:
    """A stored UTC moment for the page: ISO (the browser's script reads it) and the text
    in the series' zone, the zone named."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
        shown = moment.astimezone(ZoneInfo(zone)) if zone else moment
    except (ValueError, KeyError):
        return None
    return LocalMoment(moment.isoformat(), f"{i18n.moment_text(shown)} ({zone or 'UTC'})")


@dataclass(frozen=True, slots=True)
class PlaceToConfirm:
    """A later stage's place offered on its stage-start notification: the edition it is
    in (its series and number) and the place as the confirm form shows it."""

    series: int
    number: int
    shown: PlaceShown


@dataclass(frozen=True, slots=True)
class NotificationItem:
    """A notification as the page shows it: its moments in the series' zone, the link to
    its edition, the place it offers to confirm and a news item's title."""

    n: inbox.Notification
    edition_url: str
    start: LocalMoment | None
    created: LocalMoment | None
    place: PlaceToConfirm | None
    title: str

    @property
    def data(self) -> JsonObject:
        """What the notification says (its stored payload, free-form by kind)."""
        return self.n.payload


def notification_items(site: Site, user: int) -> list[NotificationItem]:
    """The user's notifications as the page shows them."""
    listed = inbox.notifications(site.service.store, user)
    editions = {
        int(n.payload["edition"]) for n in listed if isinstance(n.payload.get("edition"), int)
    }
    places = edition_places(site.service, editions)
    # a later stage's place to confirm, offered on its stage-start notification
    stage_places = {e: stage_place(site.service, e, user) for e in editions}
    items = []
    for n in listed:
        place = places.get(n.payload.get("edition", 0))
        zone = "" if place is None else place.zone
        mine = stage_places.get(n.payload.get("edition", 0))
        to_confirm = None
        if (
            n.kind == "stage-starts"
            and mine is not None
            and place is not None
            and mine.stage == n.payload.get("stage")
        ):
            to_confirm = PlaceToConfirm(place.series, place.number, place_shown(mine, zone))
        items.append(
            NotificationItem(
                n,
                edition_url=f"/series/{place.series}/editions/{place.number}" if place else "",
                start=_local(n.payload.get("start"), zone),
                created=_local(n.created_at, zone),
                place=to_confirm,
                title=news_title(n.payload, i18n.current.get()) if n.kind == "news" else "",
            )
        )
    return items


@pages.get("/notifications", response_class=HTMLResponse)
def notifications_page(request: Request) -> Response:
    user = _signed_in(request)
    if user is None:
        return _to_signin(request)
    site = site_of(request)
    items = notification_items(site, user)
    return site.page(request, "notifications_list.html", items=items)


@pages.post("/notifications/read")
def notifications_read(request: Request, form: CheckedForm) -> Response:
    """Mark one notification read (``id``) or all of them (no ``id``)."""
    user = _signed_in(request)
    if user is None:
        return _to_signin(request)
    service = site_of(request).service
    number = integer(form, "id", low=1)
    inbox.mark_read(service.store, user, service.clock.now(), None if number is None else [number])
    return RedirectResponse("/notifications", status_code=303)


def _settings_page(request: Request, user: int, status_code: int = 200) -> Response:
    site = site_of(request)
    prefs = inbox.preferences(site.service.store, user)
    linked = telegram.link_of(site.service.store, user)  # web/routes/telegram.py links it
    return site.page(
        request,
        "notifications_settings.html",
        status_code=status_code,
        prefs=prefs,
        kinds=inbox.KINDS,
        channels=inbox.CHANNELS,
        telegram=linked,
        language=inbox.language(site.service.store, user) or "",
        languages=i18n.LOCALES,
    )


@pages.get("/notifications/settings", response_class=HTMLResponse)
def settings_page(request: Request) -> Response:
    user = _signed_in(request)
    if user is None:
        return _to_signin(request)
    return _settings_page(request, user)


@pages.post("/notifications/settings")
def settings_post(request: Request, form: CheckedForm) -> Response:
    """The address and, per channel, the kinds received (a checkbox ``channel:kind``)."""
    user = _signed_in(request)
    if user is None:
        return _to_signin(request)
    chosen = {
        channel: [kind for kind in inbox.KINDS if text(form, f"{channel}:{kind}")]
        for channel in inbox.CHANNELS
    }
    store = site_of(request).service.store
    inbox.set_preferences(
        store,
        user,
        text(form, "email"),
        chosen["email"],
        channels={"site": chosen["site"], "telegram": chosen["telegram"]},
    )
    inbox.set_language(store, user, text(form, "language") or None)
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("Your choices are saved.")}
    return RedirectResponse("/notifications/settings", status_code=303)
