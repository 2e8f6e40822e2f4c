"""What a series' finished stages published, on the web:
the news page and its Atom feed, the awards with their badges per player and a
printable certificate per award, the season's standings — pages and the JSON API.

Everything here is a read through :mod:`crosstable.service.series` (news, awards,
season); anyone may read it, as anyone may read a tournament's crosstable.

* ``GET /series/{id}/news`` (page), ``/series/{id}/news.atom`` (Atom feed);
* ``GET /series/{id}/awards[?player=NAME]`` (page: badges per player),
  ``/series/{id}/awards/{award}`` (the printable certificate);
* ``GET /series/{id}/standings[?season=2026|all]`` (page);
* ``GET /api/v1/series/{id}/news``, ``/news/{item}``, ``/awards[?player=&user=]``,
  ``/standings[?season=]`` and ``/api/v1/users/{id}/badges``.

The news and the awards come a page at a time (``?page=``, from 1; the API also takes
``per_page``: news 1…100, default 20; awards 1…500, default 100), in a stable order
(the news newest first, the awards oldest first, by their ids); a page number that is
not a whole number from 1, or after the last page, is refused (422, the field named).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from crosstable.core.errors import RuleError
from crosstable.formats.atom import news_feed
from crosstable.service.series.news import (
    AWARDS_PER_PAGE,
    MAX_AWARDS_PER_PAGE,
    MAX_NEWS_PER_PAGE,
    NEWS_PER_PAGE,
)
from crosstable.service.series.news_views import Award, NewsItem, PageNumbers
from crosstable.service.series.shown import JsonObject
from crosstable.web import i18n
from crosstable.web.routes import series_petitions
from crosstable.web.routes.api import Num
from crosstable.web.routes.common import caller_of
from crosstable.web.site import site_of

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/v1", tags=["api"])
router = APIRouter()

#: the news items a page and the feed show
SHOWN_NEWS = 50

Player = Annotated[str | None, Query(max_length=200, description="a player's name")]
#: a page number as a page's address gives it (checked here: a clear 422 naming it)
PageText = Annotated[str | None, Query(max_length=12, description="the page, from 1")]
PageNumber = Annotated[int, Query(ge=1, le=1_000_000, description="the page, from 1")]
NewsPerPage = Annotated[
    int, Query(ge=1, le=MAX_NEWS_PER_PAGE, description=f"items a page, 1…{MAX_NEWS_PER_PAGE}")
]
AwardsPerPage = Annotated[
    int, Query(ge=1, le=MAX_AWARDS_PER_PAGE, description=f"awards a page, 1…{MAX_AWARDS_PER_PAGE}")
]


def page_number(value: str | None) -> int:
    """A page's ``?page=`` (none: 1); anything but a whole number from 1 is refused."""
    if value is None or value == "":
        return 1
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise RuleError("page {page}: a page is a whole number from 1", page=repr(value))
    return int(value)


@dataclass(frozen=True, slots=True)
class Pager:
    """Which page this is, of how many, and the links to the previous and the next."""

    page: int
    pages: int
    previous: str | None
    next: str | None
    #: the newest first (the news): the links say newer and older
    newest_first: bool = False


def pager(request: Request, numbers: PageNumbers, *, newest_first: bool = False) -> Pager:
    """The links to the previous and the next page (the other parameters kept)."""
    page, pages = numbers.page, numbers.pages

    def link(number: int) -> str:
        url = request.url.include_query_params(page=number)
        return f"{url.path}?{url.query}"

    return Pager(
        page=page,
        pages=pages,
        previous=link(page - 1) if page > 1 else None,
        next=link(page + 1) if page < pages else None,
        newest_first=newest_first,
    )


Season = Annotated[
    str | None, Query(max_length=8, description="a year such as 2026, or all (default: now)")
]


def summary(item: NewsItem) -> str:
    """One line for the feed: each group's winner, who went on."""
    parts = [
        f"{group['letter']}: {group['winner']}" for group in item.groups if group.get("winner")
    ]
    text = "winners " + ", ".join(parts[:12]) if parts else ""
    if len(parts) > 12:
        text += f" and {len(parts) - 12} more"
    if item.qualified and not item.finished:
        text += f"; {len(item.qualified)} go on"
    return text


@dataclass(slots=True)
class PlayerBadges:
    """A player's awards on the awards page, and his medals counted by place."""

    name: str
    badges: list[Award] = field(default_factory=list)
    medals: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0, 3: 0})


def badges_by_player(awards: tuple[Award, ...]) -> list[PlayerBadges]:
    """Awards grouped per player (name order), each with its badges and medal counts."""
    players: dict[str, PlayerBadges] = {}
    for award in awards:
        key = award.name.casefold() if award.user is None else f"#{award.user}"
        entry = players.setdefault(key, PlayerBadges(award.name))
        entry.badges.append(award)
        entry.medals[award.place] += 1
    return sorted(players.values(), key=lambda p: p.name.casefold())


# -- pages ----------------------------------------------------------------------------------


@pages.get("/series/{series_id}/news", response_class=HTMLResponse)
def news_page(series_id: Num, request: Request, page: PageText = None) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    listed = site.service.news_page(series_id, page_number(page), NEWS_PER_PAGE)
    return site.page(
        request,
        "series_news.html",
        caller=caller,
        s=info,
        items=listed.news,
        paging=pager(request, listed.numbers, newest_first=True),
        when=lambda value: i18n.moment_text(_moment(value)),
    )


@pages.get("/series/{series_id}/news.atom")
def news_atom(series_id: Num, request: Request) -> Response:
    site = site_of(request)
    info = site.service.series_info(series_id)
    items = site.service.series_news(series_id, limit=SHOWN_NEWS)
    body = news_feed(
        info.name,
        series_id,
        [item.as_json() | {"summary": summary(item)} for item in items],
        url=str(request.url_for("news_page", series_id=series_id)),
        stamp=site.service.clock.now(),
    )
    return Response(body, media_type="application/atom+xml; charset=utf-8")


@pages.get("/series/{series_id}/awards", response_class=HTMLResponse)
def awards_page(
    series_id: Num, request: Request, player: Player = None, page: PageText = None
) -> Response:
    """The awards, a page of them at a time (oldest first), as badges per player."""
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    listed = site.service.awards_page(
        series_id, page_number(page), AWARDS_PER_PAGE, player=player or None
    )
    return site.page(
        request,
        "series_awards.html",
        caller=caller,
        s=info,
        players=badges_by_player(listed.awards),
        player=player or "",
        paging=pager(request, listed.numbers),
    )


@pages.get("/series/{series_id}/awards/{award_id}", response_class=HTMLResponse)
def certificate_page(series_id: Num, award_id: Num, request: Request) -> Response:
    site, caller = caller_of(request)
    award = site.service.award(series_id, award_id)
    return site.page(
        request,
        "series_certificate.html",
        caller=caller,
        a=award,
        date=i18n.moment_text(_moment(award.awarded_at)),
    )


@pages.get("/series/{series_id}/standings", response_class=HTMLResponse)
def standings_page(series_id: Num, request: Request, season: Season = None) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    table = site.service.season_standings(series_id, season or None)
    return site.page(request, "series_standings.html", caller=caller, s=info, table=table)


def _moment(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


# -- the JSON API ---------------------------------------------------------------------------


@api.get("/series/{series_id}/news")
def api_news(
    series_id: Num,
    request: Request,
    page: PageNumber = 1,
    per_page: NewsPerPage = NEWS_PER_PAGE,
) -> JsonObject:
    """A page of the series' news items, newest first: each stage's groups (winner,
    places 1–3, tournament), who went on, the next stage or the edition's end; with
    ``page``, ``per_page``, ``total`` and ``pages`` (a page after the last is 422)."""
    return site_of(request).service.news_page(series_id, page, per_page).as_json()


@api.get("/series/{series_id}/news/{news_id}")
def api_news_item(series_id: Num, news_id: Num, request: Request) -> JsonObject:
    """One news item."""
    return site_of(request).service.news_item(series_id, news_id).as_json()


@api.get("/series/{series_id}/awards")
def api_awards(
    series_id: Num,
    request: Request,
    player: Player = None,
    user: Annotated[int | None, Query(ge=1, le=2_000_000_000)] = None,
    page: PageNumber = 1,
    per_page: AwardsPerPage = AWARDS_PER_PAGE,
) -> JsonObject:
    """A page of the series' awards (places 1–3 of every group, final and super-final),
    oldest first; ``player`` (a name) or ``user`` (an account) for one player's; with
    ``page``, ``per_page``, ``total`` and ``pages`` (a page after the last is 422)."""
    service = site_of(request).service
    listed = service.awards_page(series_id, page, per_page, player=player or None, user_id=user)
    return listed.as_json()


@api.get("/users/{user_id}/badges")
def api_badges(user_id: Num, request: Request) -> JsonObject:
    """Every award of an account in every series, newest first."""
    return {"badges": [badge.as_json() for badge in site_of(request).service.badges(user_id)]}


@api.get("/series/{series_id}/standings")
def api_standings(series_id: Num, request: Request, season: Season = None) -> JsonObject:
    """The season's standings: total points over the season's editions, the tie-break
    order stated in ``order`` (points, best finish, wins, fewer games)."""
    return site_of(request).service.season_standings(series_id, season or None).as_json()


router.include_router(pages)
router.include_router(api)
router.include_router(series_petitions.router)  # petitions for a class or level tournament
