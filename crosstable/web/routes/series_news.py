"""What a series' finished stages published, on the web (issue 11 items 4 and 7; R-SE-5):
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
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from crosstable.formats.atom import news_feed
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
Season = Annotated[
    str | None, Query(max_length=8, description="a year such as 2026, or all (default: now)")
]


def summary(item: dict[str, Any]) -> str:
    """One line for the feed: each group's winner, who went on."""
    parts = [
        f"{group['letter']}: {group['winner']}" for group in item["groups"] if group.get("winner")
    ]
    text = "winners " + ", ".join(parts[:12]) if parts else ""
    if len(parts) > 12:
        text += f" and {len(parts) - 12} more"
    if item["qualified"] and not item["finished"]:
        text += f"; {len(item['qualified'])} go on"
    return text


def badges_by_player(awards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Awards grouped per player (name order), each with its badges and medal counts."""
    players: dict[str, dict[str, Any]] = {}
    for award in awards:
        key = award["name"].casefold() if award["user"] is None else f"#{award['user']}"
        entry = players.setdefault(
            key, {"name": award["name"], "badges": [], "medals": {1: 0, 2: 0, 3: 0}}
        )
        entry["badges"].append(award)
        entry["medals"][award["place"]] += 1
    return sorted(players.values(), key=lambda p: p["name"].casefold())


# -- pages ----------------------------------------------------------------------------------


@pages.get("/series/{series_id}/news", response_class=HTMLResponse)
def news_page(series_id: Num, request: Request) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    items = site.service.series_news(series_id, limit=SHOWN_NEWS)
    return site.page(
        request,
        "series_news.html",
        caller=caller,
        s=info,
        items=items,
        when=lambda value: i18n.moment_text(_moment(value)),
    )


@pages.get("/series/{series_id}/news.atom")
def news_atom(series_id: Num, request: Request) -> Response:
    site = site_of(request)
    info = site.service.series_info(series_id)
    items = site.service.series_news(series_id, limit=SHOWN_NEWS)
    for item in items:
        item["summary"] = summary(item)
    body = news_feed(
        info["name"],
        series_id,
        items,
        url=str(request.url_for("news_page", series_id=series_id)),
        stamp=site.service.clock.now(),
    )
    return Response(body, media_type="application/atom+xml; charset=utf-8")


@pages.get("/series/{series_id}/awards", response_class=HTMLResponse)
def awards_page(series_id: Num, request: Request, player: Player = None) -> Response:
    site, caller = caller_of(request)
    info = site.service.series_info(series_id)
    awards = site.service.series_awards(series_id, player=player or None)
    return site.page(
        request,
        "series_awards.html",
        caller=caller,
        s=info,
        players=badges_by_player(awards),
        player=player or "",
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
        date=i18n.moment_text(_moment(award["awarded_at"])),
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
def api_news(series_id: Num, request: Request) -> dict[str, Any]:
    """The series' news items, newest first: each stage's groups (winner, places 1–3,
    tournament), who went on, the next stage or the edition's end."""
    return {"news": site_of(request).service.series_news(series_id, limit=SHOWN_NEWS)}


@api.get("/series/{series_id}/news/{news_id}")
def api_news_item(series_id: Num, news_id: Num, request: Request) -> dict[str, Any]:
    """One news item."""
    return site_of(request).service.news_item(series_id, news_id)


@api.get("/series/{series_id}/awards")
def api_awards(
    series_id: Num,
    request: Request,
    player: Player = None,
    user: Annotated[int | None, Query(ge=1, le=2_000_000_000)] = None,
) -> dict[str, Any]:
    """The series' awards (places 1–3 of every group, final and super-final), oldest
    first; ``player`` (a name) or ``user`` (an account) for one player's."""
    service = site_of(request).service
    return {"awards": service.series_awards(series_id, player=player or None, user_id=user)}


@api.get("/users/{user_id}/badges")
def api_badges(user_id: Num, request: Request) -> dict[str, Any]:
    """Every award of an account in every series, newest first."""
    return {"badges": site_of(request).service.badges(user_id)}


@api.get("/series/{series_id}/standings")
def api_standings(series_id: Num, request: Request, season: Season = None) -> dict[str, Any]:
    """The season's standings: total points over the season's editions, the tie-break
    order stated in ``order`` (points, best finish, wins, fewer games)."""
    return site_of(request).service.season_standings(series_id, season or None)


router.include_router(pages)
router.include_router(api)
router.include_router(series_petitions.router)  # R-SE-7 petitions
