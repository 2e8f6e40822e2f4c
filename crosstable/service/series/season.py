"""A series' season standings: every player's total over the editions of a season
("cumulative standings across editions — total points and places over
a season, with the tie-break order stated").

How the product reads it (docs/series.md §9):

* **a season** is a calendar year in the series' time zone: an edition belongs to the
  season of its (last planned) start's local date. ``season=None`` is the season the
  clock is in; ``"all"`` is every edition;
* **what counts**: every finished stage of the season's editions (the results each
  stage's end recorded, ``series_results``): the points scored in every group, the
  final and the super-final are added up — a player who goes further plays, and can
  score, more;
* **one player** across editions is one account when registered signed in, else one
  name (letter case aside);
* **the order** (stated on the page, in the API and on the command line):

  1. points, more first;
  2. the best finish: the furthest stage reached in any edition (the super-final, then
     the final, then the later group stage), then the best place in that stage;
  3. wins over the board, more first;
  4. games played over the board, fewer first (the same points in fewer games);

  players equal on all four share the place ("3–4") and are listed by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.series.editions import calendar_of, moment
from crosstable.service.series.news import points_text
from crosstable.service.series.shown import Shown
from crosstable.store.series_models import (
    SeriesAwardRow,
    SeriesEditionRow,
    SeriesResultRow,
    SeriesRow,
)

#: the tie-break order, as the page, the API and the command line state it
ORDER = (
    "points",
    "best finish (furthest stage, then best place there)",
    "wins over the board",
    "fewer games played",
)
ORDER_CODES = ("points", "best_finish", "wins", "fewer_games")
#: how far a stage of each kind goes (a group stage: then by its number)
KIND_RANK = {"groups": 1, "final": 2, "super-final": 3}
#: a place no group has (a player the withdrawal rule took out)
NO_PLACE = 10**6
#: the seasons a series can name (years)
FIRST_SEASON, LAST_SEASON = 1900, 9998


@dataclass
class _Total:
    name: str
    user: int | None
    points: Fraction = Fraction(0)
    wins: int = 0
    played: int = 0
    editions: set[int] = field(default_factory=set)
    #: the furthest stage reached and the best place there: (kind, stage, -place)
    best: tuple[int, int, int] = (0, 0, 0)
    best_kind: str = ""
    best_stage: int = 0
    medals: list[int] = field(default_factory=lambda: [0, 0, 0])

    def key(self) -> tuple[Fraction, int, int, int, int, int]:
        return (-self.points, -self.best[0], -self.best[1], -self.best[2], -self.wins, self.played)


def parse_season(text: str | int | None) -> int | None:
    """``2026`` → 2026, ``all`` → None (every edition); anything else is refused."""
    if isinstance(text, int):
        season = text
    else:
        value = (text or "").strip().lower()
        if value == "all":
            return None
        if not value.isdigit() or len(value) != 4:
            raise RuleError("season {season}: a year such as 2026, or all", season=repr(text))
        season = int(value)
    if not FIRST_SEASON <= season <= LAST_SEASON:
        raise RuleError(
            "season {season}: a year from {first} to {last}",
            season=season,
            first=FIRST_SEASON,
            last=LAST_SEASON,
        )
    return season


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class Medals(Shown):
    """A player's places 1, 2 and 3 over the season."""

    gold: int
    silver: int
    bronze: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SeasonLine(Shown):
    """A player's line of the season's standings."""

    #: "3" or, when shared, "3–4"
    place: str
    rank: int
    name: str
    user: int | None
    points: float
    points_text: str
    editions: int
    best_stage: int
    best_kind: str
    best_place: int | None
    wins: int
    played: int
    medals: Medals


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SeasonStandings(Shown):
    """The standings of a series over a season (a year, or ``"all"``: every edition)."""

    series: int
    season: int | str
    #: the numbers of the editions counted
    editions: tuple[int, ...]
    #: the order of the standings, in words and as codes
    order: tuple[str, ...]
    order_codes: tuple[str, ...]
    rows: tuple[SeasonLine, ...]


class SeriesSeason:
    """The season's standings of a series."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def season_standings(self, series_id: int, season: str | int | None = None) -> SeasonStandings:
        """The standings over a season (None: the clock's season; ``"all"``: every
        edition): ``{"series", "season", "editions", "order", "rows": [...]}``, rows
        in ranking order with ``place`` ("3–4" when shared), ``points``, ``best``…"""
        with self.frame.store.reading() as session:
            series = session.get(SeriesRow, series_id)
            if series is None:
                raise NotFoundError(
                    "there is no series {series} in this database", series=series_id
                )
            zone = calendar_of(series).zone
            now = self.frame.clock.now()
            year = now.astimezone(zone).year if season is None else parse_season(season)
            editions = {
                row.id: row.number
                for row in session.scalars(
                    select(SeriesEditionRow)
                    .where(SeriesEditionRow.series_id == series_id)
                    .order_by(SeriesEditionRow.number)
                )
                # an edition still open for registration has nothing to count yet (the
                # next one opens by itself while this one plays)
                if row.state != "registration"
                and (year is None or moment(row.planned_start).astimezone(zone).year == year)
            }
            totals: dict[tuple[str, object], _Total] = {}
            results = session.scalars(
                select(SeriesResultRow)
                .where(SeriesResultRow.edition_id.in_(list(editions)))
                .order_by(SeriesResultRow.id)
            )
            for result in results:
                who: tuple[str, object] = (
                    ("user", result.user_id)
                    if result.user_id is not None
                    else ("name", result.folded_name)
                )
                total = totals.setdefault(who, _Total(result.name, result.user_id))
                total.name = result.name  # the latest spelling
                total.points += Fraction(result.points)
                total.wins += result.wins
                total.played += result.played
                total.editions.add(editions[result.edition_id])
                # the super-final is further than any final, a final than any group
                # stage (editions of more players have more group stages)
                reached = (
                    KIND_RANK.get(result.stage_kind, 1),
                    result.stage_number if result.stage_kind == "groups" else 0,
                    -(result.place or NO_PLACE),
                )
                if reached > total.best:
                    total.best, total.best_kind = reached, result.stage_kind
                    total.best_stage = result.stage_number
            awards = session.scalars(
                select(SeriesAwardRow).where(SeriesAwardRow.edition_id.in_(list(editions)))
            )
            for award in awards:
                who = (
                    ("user", award.user_id)
                    if award.user_id is not None
                    else ("name", award.folded_name)
                )
                if who in totals and 1 <= award.place <= 3:
                    totals[who].medals[award.place - 1] += 1
        ordered = sorted(totals.values(), key=lambda t: (t.key(), t.name.casefold()))
        rows: list[SeasonLine] = []
        index = 0
        while index < len(ordered):
            end = index
            while end + 1 < len(ordered) and ordered[end + 1].key() == ordered[index].key():
                end += 1
            place = str(index + 1) if end == index else f"{index + 1}–{end + 1}"
            for total in ordered[index : end + 1]:
                rows.append(
                    SeasonLine(
                        place=place,
                        rank=index + 1,
                        name=total.name,
                        user=total.user,
                        points=float(total.points),
                        points_text=points_text(total.points),
                        editions=len(total.editions),
                        best_stage=total.best_stage,
                        best_kind=total.best_kind,
                        best_place=-total.best[2] if total.best[2] > -NO_PLACE else None,
                        wins=total.wins,
                        played=total.played,
                        medals=Medals(
                            gold=total.medals[0], silver=total.medals[1], bronze=total.medals[2]
                        ),
                    )
                )
            index = end + 1
        return SeasonStandings(
            series=series_id,
            season="all" if year is None else year,
            editions=tuple(sorted(editions.values())),
            order=tuple(ORDER),
            order_codes=tuple(ORDER_CODES),
            rows=tuple(rows),
        )


__all__ = ["ORDER", "SeriesSeason", "parse_season"]
