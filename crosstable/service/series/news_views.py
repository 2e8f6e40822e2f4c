"""What the series' news and awards reads answer: typed read views (a news item, an
award, a player's badge, a page of either), and the stored form of a news item.

A news item's own data is stored as JSON by the stage's end (``SeriesNewsRow.data``);
its shape is :class:`NewsData`, a TypedDict because it is a stored JSON payload that
the API hands on as stored.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TypedDict

from crosstable.service.series.shown import Shown
from crosstable.store.series_models import SeriesAwardRow, SeriesNewsRow


class Podium(TypedDict):
    """Places 1–3 of a group as the news item states them (a stored JSON payload)."""

    place: int
    name: str
    points: str


class NewsGroup(TypedDict):
    """A group of the finished stage as its news item states it (a stored JSON payload)."""

    letter: str
    tournament: int | None
    players: int
    #: the standings' first, even one who played no game (then no award)
    winner: str | None
    winner_played: bool
    podium: list[Podium]


class NewsData(TypedDict):
    """A news item's stored data (``SeriesNewsRow.data``: a JSON payload written once)."""

    series: int
    edition: int
    stage: int
    kind: str
    groups: list[NewsGroup]
    qualified: list[str]
    next_stage: int | None
    next_kind: str | None
    finished: bool


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class PageNumbers(Shown):
    """Which page of a list this is, of how many."""

    page: int
    per_page: int
    total: int
    pages: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class NewsItem(Shown):
    """A news item: what a finished stage published (its groups as stored)."""

    id: int
    series: int
    edition: int | None
    stage: int | None
    kind: str | None
    title: str
    published_at: str
    groups: tuple[NewsGroup, ...]
    qualified: tuple[str, ...]
    next_stage: int | None
    next_kind: str | None
    finished: bool


def news_item_of(row: SeriesNewsRow) -> NewsItem:
    data = row.data
    return NewsItem(
        id=row.id,
        series=row.series_id,
        edition=data.get("edition"),
        stage=data.get("stage"),
        kind=data.get("kind"),
        title=row.title,
        published_at=row.published_at,
        groups=tuple(data.get("groups", [])),
        qualified=tuple(data.get("qualified", [])),
        next_stage=data.get("next_stage"),
        next_kind=data.get("next_kind"),
        finished=bool(data.get("finished")),
    )


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class Award(Shown):
    """An award: a place 1–3 of a group, a final or the super-final."""

    id: int
    series: int
    edition: int
    stage: int
    #: the stage's kind: groups, final or super-final
    kind: str
    group: str
    tournament: int | None
    place: int
    name: str
    user: int | None
    points: float
    points_text: str
    awarded_at: str


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class Badge(Award):
    """An award with its series' name (a player's page, a certificate)."""

    series_name: str


def award_of(row: SeriesAwardRow, edition_number: int) -> Award:
    return Award(
        id=row.id,
        series=row.series_id,
        edition=edition_number,
        stage=row.stage_number,
        kind=row.stage_kind,
        group=row.group_letter,
        tournament=row.tournament_id,
        place=row.place,
        name=row.name,
        user=row.user_id,
        points=float(Fraction(row.points)),
        points_text=row.points,
        awarded_at=row.awarded_at,
    )


def badge_of(row: SeriesAwardRow, edition_number: int, series_name: str) -> Badge:
    """The award of ``row`` with its series' name."""
    award = award_of(row, edition_number)
    values = {f.name: getattr(award, f.name) for f in fields(Award)}
    return Badge(series_name=series_name, **values)


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class NewsPage(Shown):
    """A page of a series' news, newest first, and which page it is."""

    news: tuple[NewsItem, ...]
    page: int
    per_page: int
    total: int
    pages: int

    @property
    def numbers(self) -> PageNumbers:
        return PageNumbers(self.page, self.per_page, self.total, self.pages)


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class AwardsPage(Shown):
    """A page of a series' awards, oldest first, and which page it is."""

    awards: tuple[Award, ...]
    page: int
    per_page: int
    total: int
    pages: int

    @property
    def numbers(self) -> PageNumbers:
        return PageNumbers(self.page, self.per_page, self.total, self.pages)


__all__ = [
    "Award",
    "AwardsPage",
    "Badge",
    "NewsData",
    "NewsGroup",
    "NewsItem",
    "NewsPage",
    "PageNumbers",
    "Podium",
    "award_of",
    "badge_of",
    "news_item_of",
]
