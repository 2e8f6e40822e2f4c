"""JSON API: the imported rating lists (docs/rating-lists.md).

``GET /api/v1/rating-list?q=…`` — players whose FIDE id is ``q`` or whose name starts
with it (case, accents and spacing do not matter), at most ``limit`` (1…50, default
10). With ``tournament=ID`` each answer also carries ``rating``: the first rating along
that event's order of lists (its own, else its time control's: standard, rapid or blitz
first, the standard rating standing in for a missing rapid or blitz one) and
``rating_list``, the list it comes from; ``time_control=…`` says the type for an event
not yet created — the wizard's look-up. The lists are FIDE's
public data, so the look-up needs no sign-in; the manage page's add-player form feeds
its as-you-type suggestions from it.

The custom lists (a national or club list with its own ids) answer beside them in
``custom``, list by list along the tournament's order (without ``tournament``: every
custom list, by name), each player with ``source`` (``RUS:4101``) and, with
``tournament=ID``, ``rating``: the list's rating of the event's type (else its standard
one), the national rating a player registered from it gets.
``GET /api/v1/custom-lists`` lists the custom lists (name, file, month, import date,
players); ``GET /api/v1/custom-lists/{name}/players/{id}`` answers one player;
``DELETE /api/v1/custom-lists/{name}`` deletes a list (administrators);
``POST /api/v1/tournaments/{tid}/list-players`` ``{"source": "RUS:4101"}`` registers a
custom list's player (the organisers), as the add-player form does.

``GET /api/v1/tournaments/{tid}/rating-check`` — the tournament's players with a FIDE id
against the lists: the list's rating of the event's type, the month of each player's
list and the tournament's month (its start, or the current month for an event of more
than 30 days), and a warning per player whose list is of another month or whose rating
is not the list's (in the reader's language).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from pydantic import BaseModel, Field

from crosstable.service import PlayerInfo
from crosstable.service.custom_lists import CustomLists, parse_source
from crosstable.service.errors import NotFoundError
from crosstable.service.rating_list_month import RatingListMonths
from crosstable.service.rating_lists import MAX_FOUND, RatingLists, rating_type_of
from crosstable.service.read_views import JsonObject
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, change_out
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    csrf,
    integer,
    require_role,
    require_user,
    text,
)
from crosstable.web.security import UNSAFE
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class ListedOut(BaseModel):
    fide_id: int
    name: str
    federation: str
    sex: str
    title: str
    birth_year: int | None
    standard: int | None
    rapid: int | None
    blitz: int | None
    list: str
    imported: str
    #: the rating along the tournament's order of lists (only with ?tournament=)
    rating: int | None = None
    #: the list that rating comes from
    rating_list: str | None = None


class CustomOut(BaseModel):
    list: str
    id: str
    source: str
    name: str
    federation: str
    sex: str
    title: str
    birth_year: int | None
    standard: int | None
    rapid: int | None
    blitz: int | None
    fide_id: int | None
    #: the list's rating of the event's type (only with ?tournament= or ?time_control=)
    rating: int | None = None


class RatingListOut(BaseModel):
    rating_type: str | None
    players: list[ListedOut]
    #: the custom lists' players, list by list in the tournament's order
    custom: list[CustomOut] = []


class CustomListOut(BaseModel):
    name: str
    file: str
    month: str
    imported: str
    players: int


@router.get("/rating-list")
def rating_list(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=100, description="FIDE id or name start")],
    tournament: Annotated[int | None, Query(ge=1, le=2_000_000_000)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_FOUND)] = 10,
    time_control: Annotated[
        str | None, Query(max_length=60, description="a time control not yet stored (the wizard)")
    ] = None,
) -> RatingListOut:
    """Look players up in the imported rating lists by FIDE id or by name prefix."""
    lists = RatingLists(site_of(request).service)
    kind = None if tournament is None else lists.rating_type(tournament)
    order = None if tournament is None else lists.list_order(tournament)
    if kind is None and time_control is not None:
        kind = rating_type_of(time_control)
    players: list[ListedOut] = []
    for entry in lists.find(q, limit=limit):
        rating, source = (None, None) if kind is None else entry.rating_in(order or kind)
        rated = {"rating": rating, "rating_list": None if source is None else source.value}
        players.append(ListedOut(**(entry.as_json() | rated)))
    custom_lists = CustomLists(site_of(request).service)
    names = None if tournament is None else custom_lists.tournament_lists(tournament)
    custom: list[CustomOut] = []
    for found in custom_lists.find(q, lists=names, limit=limit):
        custom.append(
            CustomOut(**found.as_json(), rating=None if kind is None else found.rating(kind))
        )
    return RatingListOut(
        rating_type=None if kind is None else kind.value,
        players=players,
        custom=custom,
    )


@router.get("/custom-lists")
def custom_lists(request: Request) -> list[CustomListOut]:
    """The custom rating lists kept (name, file, month, import date, players)."""
    return [CustomListOut(**c.as_json()) for c in CustomLists(site_of(request).service).lists()]


ListName = Annotated[str, Path(min_length=1, max_length=40)]


@router.get("/custom-lists/{name}/players/{player_id}")
def custom_list_player_of(
    name: ListName, player_id: Annotated[str, Path(min_length=1, max_length=20)], request: Request
) -> CustomOut:
    """One player of a custom list, by the list's own id."""
    found = CustomLists(site_of(request).service).player(name, player_id)
    return CustomOut(**found.as_json())


@router.delete("/custom-lists/{name}")
def delete_custom_list(name: ListName, request: Request) -> CustomListOut:
    """Delete a custom list (administrators; the tournaments' players keep their details)."""
    site = site_of(request)
    caller = site.caller(request)
    if caller.by_token and caller.user is None:
        raise HTTPException(status_code=401, detail="the API token is not valid")
    require_user(caller)
    if not caller.by_token and request.method in UNSAFE:
        csrf(request)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may delete rating lists")
    return CustomListOut(**CustomLists(site.service).delete(name).as_json())


class ListPlayerIn(BaseModel):
    source: str = Field(min_length=3, max_length=61, description="LIST:ID, e.g. RUS:4101")
    club: str = Field("", max_length=100)


@router.post("/tournaments/{tid}/list-players", status_code=201)
def add_list_player(
    tid: Annotated[int, Path(ge=1, le=2_000_000_000)],
    body: ListPlayerIn,
    request: Request,
    caller: ApiCaller,
) -> ChangeOut:
    """Register a custom list's player: the list's details, its rating as the national
    rating, the list and id kept (before the start, as any registration)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    name, player_id = parse_source(body.source)
    change = CustomLists(site.service).add_player(
        tid, name, player_id, actor=caller.actor, club=body.club
    )
    return change_out(change)


def custom_list_player(service: Any, tid: int, form: CheckedForm, source: str) -> PlayerInfo:
    """The manage page's add-player form with a custom list's player (``RUS:4101``): the
    list's details, its rating as the national rating, the list and id kept; the name,
    rating and club typed in the form over them."""
    name, player_id = parse_source(source)
    listed = CustomLists(service).player_info(tid, name, player_id)
    typed_rating = integer(form, "rating")
    return replace(
        listed,
        name=text(form, "name") or listed.name,
        rating=typed_rating if typed_rating is not None else listed.rating,
        team=text(form, "team"),
        club=text(form, "club"),
    )


def rating_list_player(service: Any, tid: int, form: CheckedForm, fide_id: str) -> PlayerInfo:
    """The manage page's add-player form with a FIDE id: the list's details (name,
    title, federation, birth year, sex, the rating of the event's type), the name,
    rating and club typed in the form over them. A FIDE id not in the lists is kept
    with what was typed (a name is then needed)."""
    number = integer(form, "fide_id", low=1)
    assert number is not None
    typed = PlayerInfo(
        text(form, "name"),
        integer(form, "rating"),
        fide_id=str(number),
        team=text(form, "team"),
        club=text(form, "club"),
    )
    lists = RatingLists(service)
    try:
        listed = lists.player_info(number, lists.list_order(tid))
    except NotFoundError:
        if typed.name:
            return typed
        raise
    return replace(
        listed,
        name=typed.name or listed.name,
        rating=typed.rating if typed.rating is not None else listed.rating,
        team=typed.team,
        club=typed.club,
    )


@router.get("/tournaments/{tid}/rating-check")
def rating_check(tid: Annotated[int, Path(ge=1, le=2_000_000_000)], request: Request) -> JsonObject:
    """The tournament's ratings against the imported lists and their months."""
    checked = RatingListMonths(site_of(request).service).check(tid)
    answer = checked.as_json()
    answer["warnings"] = [translate(w) for w in checked.warnings()]
    return answer
