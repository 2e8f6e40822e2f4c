"""A portal's series on the web: the list of series, a
series' page (calendar, next edition, registration, past editions, iCalendar feed), an
edition's page (stages, groups and their tournaments), the creation form, and the JSON API.

The rules are the services' (:mod:`crosstable.service.series`); what lives here is who
may: any signed-in user registers and withdraws himself (under his display name, tied to
his account), administrators and masters create a series (as the wizard checks).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import WEEKDAYS
from crosstable.core.text import Message
from crosstable.formats.ical import series_feed
from crosstable.service.series import SeriesSettings
from crosstable.service.series.edit import SeriesChanges, edit_series
from crosstable.service.series.shown import EditionView, JsonObject, SeriesView
from crosstable.service.series.views import (
    SeriesSummary,
    edition_by_number,
    registered_names,
    series_list,
    stage_place,
    upcoming_starts,
)
from crosstable.web import i18n
from crosstable.web.routes import series_petitions, series_stages
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text
from crosstable.web.security import Caller, safe_referer
from crosstable.web.series_pages import (
    LocalMoment,
    RegistrationButton,
    button_state,
    edition_context,
    local_moment,
    place_shown,
)
from crosstable.web.site import Site, site_of

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])
router = APIRouter()

#: the slots an iCalendar feed carries
FEED_SLOTS = 30


def require_organiser(caller: Caller) -> None:
    """Administrators and masters create a series (the wizard's rule for a tournament)."""
    require_user(caller)
    if caller.user is None or not caller.user.may_organise:
        raise HTTPException(
            status_code=403,
            detail="only administrators and masters (winners of an over-the-board event) "
            "may organise tournaments",
        )


def _edition_id(site: Site, series_id: int, number: int) -> int:
    return edition_by_number(site.service, series_id, number).id


def register(site: Site, caller: Caller, series_id: int, number: int) -> int:
    """The caller registers himself (his display name, his account) for stage 1."""
    require_user(caller)
    user = caller.user
    assert user is not None
    edition = _edition_id(site, series_id, number)
    return site.service.register_for_edition(
        edition, user.display_name, user_id=user.id, actor=caller.actor
    )


def withdraw(site: Site, caller: Caller, series_id: int, number: int) -> None:
    """The caller withdraws his own registration (until stage 1 starts)."""
    require_user(caller)
    user = caller.user
    assert user is not None
    edition = _edition_id(site, series_id, number)
    names = registered_names(site.service, edition, user.id)
    if not names:
        raise RuleError(
            "{player} is not registered for edition {edition}",
            player=user.display_name,
            edition=number,
        )
    site.service.withdraw_from_edition(edition, names[0], actor=caller.actor)


ORGANISER = "series.{id}.organiser"  # the preference naming the account that created it


def may_edit(site: Site, caller: Caller, series_id: int) -> bool:
    """Administrators, and the organiser who created the series, edit it."""
    user = caller.user
    if user is None:
        return False
    if user.is_admin:
        return True
    return site.service.preference(ORGANISER.format(id=series_id)) == str(user.id)


def require_editor(site: Site, caller: Caller, series_id: int) -> None:
    require_user(caller)
    site.service.series_info(series_id)  # 404 for an unknown series first
    if not may_edit(site, caller, series_id):
        raise HTTPException(
            status_code=403, detail="only administrators and the series' organiser may edit it"
        )


def _created(site: Site, caller: Caller, settings: SeriesSettings) -> int:
    series_id = site.service.create_series(settings, actor=caller.actor)
    if caller.user is not None:
        site.service.set_preference(ORGANISER.format(id=series_id), str(caller.user.id))
    site.service.open_edition(series_id, actor=caller.actor)
    return series_id


@dataclass(frozen=True, slots=True)
class SeriesPage:
    """The series page's values: the series, its next, running and past editions."""

    s: SeriesView
    next: EditionView | None
    button: RegistrationButton | None
    may_edit: bool
    running: tuple[EditionView, ...]
    past: tuple[EditionView, ...]
    slots: tuple[LocalMoment | None, ...]


def _series_page(site: Site, caller: Caller, series_id: int) -> SeriesPage:
    info = site.service.series_info(series_id)
    editions = info.editions
    upcoming = [e for e in editions if e.state == "registration"]
    nxt = upcoming[0] if upcoming else None
    return SeriesPage(
        s=info,
        next=nxt,
        button=None if nxt is None else button_state(site.service, caller, nxt),
        may_edit=may_edit(site, caller, series_id),
        running=tuple(e for e in editions if e.state == "running"),
        past=tuple(e for e in editions if e.state == "finished"),
        slots=tuple(
            local_moment(start.astimezone(dt.UTC).isoformat(), info.zone)
            for start in upcoming_starts(site.service, series_id, 5)
        ),
    )


@dataclass(frozen=True, slots=True)
class SeriesLine:
    """A series in the list of series, with its next edition's start in its zone."""

    series: SeriesSummary
    next_start: LocalMoment | None


# -- the pages ------------------------------------------------------------------------------


@pages.get("/series", response_class=HTMLResponse)
def series_index(request: Request) -> Response:
    site, caller = caller_of(request)
    rows = [
        SeriesLine(
            series=row,
            next_start=None if row.next is None else local_moment(row.next.planned_start, row.zone),
        )
        for row in series_list(site.service)
    ]
    return site.page(request, "series_list.html", caller=caller, rows=rows, weekdays=WEEKDAYS)


@pages.get("/series/new", response_class=HTMLResponse)
def series_form(request: Request) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)
    return site.page(request, "series_new.html", caller=caller, values={}, weekdays=WEEKDAYS)


@pages.post("/series/new")
def series_create(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)
    series_id = _created(site, caller, _settings_from_form(form))
    return RedirectResponse(f"/series/{series_id}", status_code=303)


@pages.get("/series/{series_id}/edit", response_class=HTMLResponse)
def series_edit_form(series_id: Num, request: Request) -> Response:
    site, caller = caller_of(request)
    require_editor(site, caller, series_id)
    info = site.service.series_info(series_id)
    return site.page(request, "series_edit.html", caller=caller, s=info, weekdays=WEEKDAYS)


@pages.post("/series/{series_id}/edit")
def series_edit(series_id: Num, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_editor(site, caller, series_id)
    changed = edit_series(site.service, series_id, _changes_from_form(form), actor=caller.actor)
    text_ = i18n.gettext("Saved.") if changed else i18n.gettext("Nothing changed.")
    request.session["flash"] = {"kind": "ok", "text": text_}
    return RedirectResponse(f"/series/{series_id}", status_code=303)


@pages.get("/series/{series_id}.ics")
def series_ics(series_id: Num, request: Request) -> Response:
    site = site_of(request)
    info = site.service.series_info(series_id)
    starts = upcoming_starts(site.service, series_id, FEED_SLOTS)
    body = series_feed(
        info.name,
        starts,
        series_id=str(series_id),
        stamp=site.service.clock.now(),
        url=str(request.url_for("series_page", series_id=series_id)),
    )
    return Response(body, media_type="text/calendar; charset=utf-8")


@pages.get("/series/{series_id}", response_class=HTMLResponse)
def series_page(series_id: Num, request: Request) -> Response:
    site, caller = caller_of(request)
    shown = _series_page(site, caller, series_id)
    zone = shown.s.zone
    return site.page(
        request,
        "series.html",
        caller=caller,
        weekdays=WEEKDAYS,
        s=shown.s,
        next=shown.next,
        button=shown.button,
        may_edit=shown.may_edit,
        running=shown.running,
        past=shown.past,
        slots=shown.slots,
        when=lambda value: local_moment(value, zone),
    )


@pages.get("/series/{series_id}/editions/{number}", response_class=HTMLResponse)
def edition_page(series_id: Num, number: Num, request: Request) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    shown = edition_context(site.service, caller, info.zone, number, series_id)
    place = None
    if caller.user is not None:
        mine = stage_place(site.service, shown.e.id, int(caller.user.id))
        place = None if mine is None else place_shown(mine, info.zone)
    return site.page(
        request,
        "series_edition.html",
        caller=caller,
        s=info,
        place=place,
        e=shown.e,
        small=shown.small,
        mine_group=shown.mine_group,
        start=shown.start,
        finished=shown.finished,
        button=shown.button,
        moment_of=shown.moment_of,
    )


@pages.post("/series/{series_id}/editions/{number}/register")
def register_page(series_id: Num, number: Num, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    register(site, caller, series_id, number)
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("You are registered.")}
    return RedirectResponse(_back(request, series_id), status_code=303)


@pages.post("/series/{series_id}/editions/{number}/withdraw")
def withdraw_page(series_id: Num, number: Num, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    withdraw(site, caller, series_id, number)
    request.session["flash"] = {"kind": "ok", "text": i18n.gettext("You have withdrawn.")}
    return RedirectResponse(_back(request, series_id), status_code=303)


def _back(request: Request, series_id: int) -> str:
    """Back to the edition's page when the button was there, else the series' page."""
    referer = safe_referer(request)
    edition = f"/series/{series_id}/editions/"
    return referer if referer.startswith(edition) else f"/series/{series_id}"


def _optional(form: CheckedForm, name: str) -> int | None:
    return integer(form, name) if text(form, name) else None


def _changes_from_form(form: CheckedForm) -> SeriesChanges:
    """The edit form: every field is sent; the pre-registration and paused checkboxes are
    on or off."""
    tiebreaks = text(form, "tiebreaks")
    return SeriesChanges(
        name=text(form, "name"),
        max_group_size=_optional(form, "max_group_size"),
        qualifiers_per_group=_optional(form, "qualifiers_per_group"),
        final_min=_optional(form, "final_min"),
        group_cycles=_optional(form, "group_cycles"),
        final_cycles=_optional(form, "final_cycles"),
        super_final_players=_optional(form, "super_final_players"),
        super_final_cycles=_optional(form, "super_final_cycles"),
        tiebreaks=tuple(part for part in tiebreaks.replace(";", ",").split(",") if part.strip()),
        time_control=text(form, "time_control"),
        pre_registration=bool(text(form, "pre_registration")),
        deadline_minutes=_optional(form, "deadline_minutes"),
        paused=bool(text(form, "paused")),
    )


def _settings_from_form(form: CheckedForm) -> SeriesSettings:
    weekday_text = text(form, "weekday")
    weekday = None
    if weekday_text:
        if weekday_text not in WEEKDAYS:
            raise RuleError(
                "weekday {text}: one of {choices}",
                text=repr(weekday_text),
                choices=Message.joined(", ", WEEKDAYS),
            )
        weekday = WEEKDAYS.index(weekday_text)
    return SeriesSettings(
        name=text(form, "name"),
        kind=text(form, "kind"),
        start_time=text(form, "start_time"),
        zone=text(form, "zone"),
        weekday=weekday,
        day=_optional(form, "day"),
        max_group_size=_optional(form, "max_group_size") or 10,
        qualifiers_per_group=_optional(form, "qualifiers_per_group") or 2,
        time_control=text(form, "time_control"),
        deadline_minutes=_optional(form, "deadline_minutes") or 60,
        # battle chess: every group the series makes is battle chess
        variant="battle" if text(form, "battle") in ("on", "yes", "1", "true") else "",
        setup_minutes=_optional(form, "setup_minutes"),
    )


# -- the JSON API ---------------------------------------------------------------------------


class SeriesIn(BaseModel):
    name: str = Field(max_length=200)
    kind: str = Field(max_length=20, description="weekend, workdays, weekly, monthly, regular")
    start_time: str = Field(max_length=5, description="local start time HH:MM")
    zone: str = Field(max_length=64, description="IANA time zone, e.g. Europe/Moscow")
    weekday: int | None = Field(None, ge=0, le=6, description="weekly: 0 Monday … 6 Sunday")
    day: int | None = Field(None, ge=1, le=31, description="monthly: the day of the month")
    max_group_size: int = Field(10, ge=3, le=100)
    qualifiers_per_group: int = Field(2, ge=1, le=100)
    final_min: int = Field(6, ge=2, le=1000)
    group_cycles: int = Field(1, ge=1, le=4)
    final_cycles: int = Field(1, ge=1, le=4)
    super_final_players: int = Field(4, ge=0, le=100)
    super_final_cycles: int = Field(2, ge=1, le=4)
    tiebreaks: list[str] = Field(default_factory=list, max_length=20)
    time_control: str = Field("", max_length=100)
    pre_registration: bool = False
    deadline_minutes: int = Field(60, ge=0, le=40320)
    variant: Literal["", "battle"] = Field("", description="battle: every group is battle chess")
    setup_minutes: int | None = Field(None, ge=1, le=120, description="battle chess: set-up time")


@api.get("/series")
def api_series_list(request: Request) -> JsonObject:
    """Every series with its open edition (null when none)."""
    return {"series": [row.as_json() for row in series_list(site_of(request).service)]}


@api.get("/series/{series_id}")
def api_series(series_id: Num, request: Request) -> JsonObject:
    """A series: its settings, calendar and editions."""
    site = site_of(request)
    info = site.service.series_info(series_id).as_json()
    info["upcoming_slots"] = [
        start.isoformat() for start in upcoming_starts(site.service, series_id, 5)
    ]
    return info


@api.get("/series/{series_id}/editions/{number}")
def api_edition(series_id: Num, number: Num, request: Request) -> JsonObject:
    """Edition ``number``: moments, state, registered count, stages and their groups."""
    return edition_by_number(site_of(request).service, series_id, number).as_json()


@api.post("/series", status_code=201)
def api_create(body: SeriesIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Create a series (administrators and masters) and open its first edition."""
    require_organiser(caller)
    site = site_of(request)
    values = body.model_dump()
    values["tiebreaks"] = tuple(values["tiebreaks"])
    series_id = _created(site, caller, SeriesSettings(**values))
    return site.service.series_info(series_id).as_json()


class SeriesPatch(BaseModel):
    """What an edit may change (absent: unchanged); the calendar is fixed."""

    name: str | None = Field(None, max_length=200)
    max_group_size: int | None = Field(None, ge=3, le=100)
    qualifiers_per_group: int | None = Field(None, ge=1, le=100)
    final_min: int | None = Field(None, ge=2, le=1000)
    group_cycles: int | None = Field(None, ge=1, le=4)
    final_cycles: int | None = Field(None, ge=1, le=4)
    super_final_players: int | None = Field(None, ge=0, le=100)
    super_final_cycles: int | None = Field(None, ge=1, le=4)
    tiebreaks: list[str] | None = Field(None, max_length=20)
    time_control: str | None = Field(None, max_length=100)
    pre_registration: bool | None = None
    deadline_minutes: int | None = Field(None, ge=0, le=40320)
    #: paused: no edition opens by itself
    paused: bool | None = None


@api.patch("/series/{series_id}")
def api_edit(series_id: Num, body: SeriesPatch, request: Request, caller: ApiCaller) -> JsonObject:
    """Edit a series (administrators and its organiser): the series and what changed."""
    site = site_of(request)
    require_editor(site, caller, series_id)
    values = body.model_dump(exclude_none=True)
    if "tiebreaks" in values:
        values["tiebreaks"] = tuple(values["tiebreaks"])
    changed = edit_series(site.service, series_id, SeriesChanges(**values), actor=caller.actor)
    return site.service.series_info(series_id).as_json() | {"changed": changed}


@api.post("/series/{series_id}/editions/{number}/registrations", status_code=201)
def api_register(series_id: Num, number: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """Register the caller for stage 1 of the edition (until its deadline)."""
    site = site_of(request)
    registration = register(site, caller, series_id, number)
    edition = edition_by_number(site.service, series_id, number)
    return {"registration": registration} | edition.as_json()


@api.delete("/series/{series_id}/editions/{number}/registrations")
def api_withdraw(series_id: Num, number: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """Withdraw the caller's registration (until stage 1 starts)."""
    site = site_of(request)
    withdraw(site, caller, series_id, number)
    return edition_by_number(site.service, series_id, number).as_json()


router.include_router(pages)
router.include_router(api)
router.include_router(series_stages.pages)  # a later stage's place as forms
router.include_router(series_petitions.pages)  # petitions as a page and forms
