"""What a finished stage publishes (seed 002 «После окончания каждого из туров
публикуется новость и раздаются награды»): a news item, the awards and every player's
result, all written by the tick's stage-end step in its own transaction.

* :func:`publish_stage` — called by :meth:`SeriesClock._stage_end` under the edition's
  lock, in the transaction that records the step ``edition N: stage K ends`` (unique),
  so a stage publishes once: the news item (unique per stage), places 1–3 of each
  group as awards, every player's place, points, wins and games played
  (``series_results``, what the season's standings add up) and a ``news``
  notification per player of the stage.
* :class:`SeriesNews` — the reads: a series' news (newest first), one item, a series'
  awards (optionally one player's: by account or by name), one award (the certificate).

Who gets an award: places 1, 2 and 3 of the group's final standings (the ranking the
qualifiers were taken from, ties broken as for them). A player who played no game in
the stage (forfeits only) gets none, and the place is not passed on: the
standings' place is what the award names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import Outcome, StageKind, Tournament
from crosstable.core.series.qualification import GroupOutcome
from crosstable.core.standings import compute_standings
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.series.news_views import (
    Award,
    AwardsPage,
    Badge,
    NewsData,
    NewsGroup,
    NewsItem,
    NewsPage,
    PageNumbers,
    Podium,
    award_of,
    badge_of,
    news_item_of,
)
from crosstable.service.series.outbox import notify
from crosstable.service.series.stages import group_letter
from crosstable.store.series_models import (
    SeriesAwardRow,
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesNewsRow,
    SeriesRegistrationRow,
    SeriesResultRow,
    SeriesRow,
    SeriesStageRow,
)

#: places that are awarded (gold, silver, bronze)
AWARDED_PLACES = 3
#: the most news items one read returns
MAX_NEWS = 200
#: the most awards one read returns
MAX_AWARDS = 5000
#: a page of news: 20 items by default, at most 100 (the pages and the JSON API)
NEWS_PER_PAGE, MAX_NEWS_PER_PAGE = 20, 100
#: a page of awards: 100 by default, at most 500
AWARDS_PER_PAGE, MAX_AWARDS_PER_PAGE = 100, 500


@dataclass(frozen=True, slots=True)
class Paging:
    """Which page of a list, checked: ``page`` from 1, ``per_page`` 1…``most``."""

    page: int
    per_page: int

    @classmethod
    def checked(cls, page: int, per_page: int, most: int) -> Paging:
        if page < 1:
            raise RuleError("page {page}: pages are numbered from 1", page=page)
        if not 1 <= per_page <= most:
            raise RuleError(
                "per_page {per_page}: a page holds 1 to {most} items", per_page=per_page, most=most
            )
        return cls(page, per_page)

    def of(self, total: int) -> PageNumbers:
        """The page's numbers; a page after the last (of a list that has items) is refused."""
        pages = max(1, -(-total // self.per_page))
        if self.page > pages:
            raise RuleError(
                "page {page}: there are only {pages} pages of {per_page}",
                page=self.page,
                pages=pages,
                per_page=self.per_page,
            )
        return PageNumbers(page=self.page, per_page=self.per_page, total=total, pages=pages)

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


@dataclass(frozen=True, slots=True)
class GroupResult:
    """A finished group as the stage's end read it: its row, the registration id of
    each starting number, the tournament and the qualifiers' outcome."""

    group: SeriesGroupRow
    keys: Sequence[int]
    tournament: Tournament
    outcome: GroupOutcome


def points_text(value: Fraction) -> str:
    """Exact points as text: ``6``, ``6.5``, ``6.25``.

    >>> points_text(Fraction(13, 2)), points_text(Fraction(6)), points_text(Fraction(25, 4))
    ('6.5', '6', '6.25')
    """
    if value.denominator == 1:
        return str(value.numerator)
    return str(float(value))


def stage_title(kind: str, number: int) -> str:
    if kind == StageKind.FINAL.value:
        return "the final"
    if kind == StageKind.SUPER_FINAL.value:
        return "the super-final"
    return f"stage {number}"


def _counts(tournament: Tournament, start: int) -> tuple[int, int]:
    """Over-the-board wins and games played of one starting number."""
    wins = played = 0
    for rnd in tournament.rounds:
        for game in rnd.games:
            if start not in (game.white, game.black):
                continue
            outcome = game.outcome_of(start)
            if outcome.is_over_the_board:
                played += 1
                wins += outcome is Outcome.WIN
    return wins, played


class PlayerResult(TypedDict):
    """What a player's result and award rows both say of him (their shared columns)."""

    series_id: int
    edition_id: int
    stage_id: int
    group_id: int
    registration_id: int
    user_id: int | None
    name: str
    folded_name: str
    stage_number: int
    stage_kind: str
    place: int | None
    points: str


def publish_stage(
    session: Session,
    series: SeriesRow,
    edition: SeriesEditionRow,
    stage: SeriesStageRow,
    groups: Sequence[GroupResult],
    entries: dict[int, SeriesRegistrationRow],
    going: Sequence[int],
    *,
    tiebreaks: Sequence[str] | None,
    next_stage: tuple[int, str] | None,
    at: str,
) -> str:
    """The stage's news item, awards, results and ``news`` notifications; the title."""
    news_groups: list[NewsGroup] = []
    points_of: dict[int, str] = {}
    for item in groups:
        tid = item.group.tournament_id
        standings = compute_standings(item.tournament, tiebreaks, final=True, lots_seed=tid)
        points = {row.start: row.points for row in standings.rows}
        place_of = {key: place for place, key in enumerate(item.outcome.ranking, 1)}
        letter = group_letter(item.group.letter)
        podium: list[Podium] = []
        for start, key in enumerate(item.keys, 1):
            entry = entries[key]
            wins, played = _counts(item.tournament, start)
            scored = points_text(points.get(start, Fraction(0)))
            points_of[key] = scored
            place = place_of.get(key)
            common = PlayerResult(
                series_id=series.id,
                edition_id=edition.id,
                stage_id=stage.id,
                group_id=item.group.id,
                registration_id=key,
                user_id=entry.user_id,
                name=entry.name,
                folded_name=entry.folded_name or entry.name.casefold(),
                stage_number=stage.number,
                stage_kind=stage.kind,
                place=place,
                points=scored,
            )
            session.add(SeriesResultRow(**common, wins=wins, played=played))
            if place is not None and place <= AWARDED_PLACES and key in item.outcome.played:
                session.add(
                    SeriesAwardRow(**common, group_letter=letter, tournament_id=tid, awarded_at=at)
                )
                podium.append(Podium(place=place, name=entry.name, points=scored))
        podium.sort(key=lambda p: p["place"])
        news_groups.append(
            NewsGroup(
                letter=letter,
                tournament=tid,
                players=len(item.keys),
                # the standings' first, even one who played no game (then no award)
                winner=entries[item.outcome.ranking[0]].name if item.outcome.ranking else None,
                winner_played=bool(item.outcome.ranking)
                and item.outcome.ranking[0] in item.outcome.played,
                podium=podium,
            )
        )
    head = f"{series.name} #{edition.number}"
    what = stage_title(stage.kind, stage.number)
    if stage.kind in (StageKind.FINAL.value, StageKind.SUPER_FINAL.value) and news_groups:
        winner = news_groups[0]["winner"]
        title = f"{head}: {what} is over" + (f" — {winner} wins" if winner else "")
    else:
        title = f"{head}: {what} is over — {len(going)} go on"
        if next_stage is None:
            title = f"{head}: {what} is over"
    data = NewsData(
        series=series.id,
        edition=edition.number,
        stage=stage.number,
        kind=stage.kind,
        groups=news_groups,
        qualified=[entries[key].name for key in going],
        next_stage=None if next_stage is None else next_stage[0],
        next_kind=None if next_stage is None else next_stage[1],
        finished=next_stage is None,
    )
    news = SeriesNewsRow(
        series_id=series.id,
        edition_id=edition.id,
        stage_id=stage.id,
        published_at=at,
        title=title,
        data=data,
    )
    session.add(news)
    session.flush()
    winner = news_groups[0]["winner"] if news_groups else None
    for item in groups:
        place_of = {key: place for place, key in enumerate(item.outcome.ranking, 1)}
        for key in item.keys:
            place = place_of.get(key)
            awarded = place is not None and place <= AWARDED_PLACES and key in item.outcome.played
            notify(
                session,
                entries[key],
                "news",
                f"news:{stage.id}:{key}",
                {
                    "edition": edition.id,
                    "series": series.name,
                    "series_id": series.id,
                    "stage": stage.number,
                    "kind": stage.kind,
                    "news": news.id,
                    "title": title,
                    # the title's parameters, so each recipient reads it in his language
                    "edition_number": edition.number,
                    "winner": winner,
                    "going": len(going),
                    "finished": next_stage is None,
                    "group": group_letter(item.group.letter),
                    "place": place,
                    "awarded": awarded,
                    "points": points_of.get(key, ""),
                },
                at=at,
            )
    return title


def _series_row(session: Session, series_id: int) -> SeriesRow:
    row = session.get(SeriesRow, series_id)
    if row is None:
        raise NotFoundError("there is no series {series} in this database", series=series_id)
    return row


class SeriesNews:
    """The reads of what finished stages published."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def series_news(self, series_id: int, *, limit: int = 50) -> list[NewsItem]:
        """The series' news items, newest first (at most ``limit``, 1…200)."""
        limit = max(1, min(limit, MAX_NEWS))
        with self.frame.store.reading() as session:
            _series_row(session, series_id)
            query = (
                select(SeriesNewsRow)
                .where(SeriesNewsRow.series_id == series_id)
                .order_by(SeriesNewsRow.id.desc())
                .limit(limit)
            )
            return [news_item_of(row) for row in session.scalars(query)]

    def news_page(self, series_id: int, page: int = 1, per_page: int = NEWS_PER_PAGE) -> NewsPage:
        """One page of the series' news, newest first (a stable order: the items' ids):
        ``{"news": [...], "page", "per_page", "total", "pages"}``."""
        paging = Paging.checked(page, per_page, MAX_NEWS_PER_PAGE)
        with self.frame.store.reading() as session:
            _series_row(session, series_id)
            where = SeriesNewsRow.series_id == series_id
            total = int(session.scalar(select(func.count()).where(where)) or 0)
            numbers = paging.of(total)
            query = (
                select(SeriesNewsRow)
                .where(where)
                .order_by(SeriesNewsRow.id.desc())
                .offset(paging.offset)
                .limit(paging.per_page)
            )
            found = tuple(news_item_of(row) for row in session.scalars(query))
            return NewsPage(found, numbers.page, numbers.per_page, numbers.total, numbers.pages)

    def awards_page(
        self,
        series_id: int,
        page: int = 1,
        per_page: int = AWARDS_PER_PAGE,
        *,
        player: str | None = None,
        user_id: int | None = None,
    ) -> AwardsPage:
        """One page of the series' awards, oldest first (a stable order: the awards'
        ids), one player's only with ``player`` or ``user_id``:
        ``{"awards": [...], "page", "per_page", "total", "pages"}``."""
        paging = Paging.checked(page, per_page, MAX_AWARDS_PER_PAGE)
        with self.frame.store.reading() as session:
            _series_row(session, series_id)
            conditions = [SeriesAwardRow.series_id == series_id]
            if player is not None:
                folded = " ".join(player.split()).casefold()
                conditions.append(SeriesAwardRow.folded_name == folded)
            if user_id is not None:
                conditions.append(SeriesAwardRow.user_id == user_id)
            total = int(session.scalar(select(func.count()).where(*conditions)) or 0)
            numbers = paging.of(total)
            query = (
                select(SeriesAwardRow, SeriesEditionRow.number)
                .join(SeriesEditionRow, SeriesEditionRow.id == SeriesAwardRow.edition_id)
                .where(*conditions)
                .order_by(SeriesAwardRow.id)
                .offset(paging.offset)
                .limit(paging.per_page)
            )
            found = tuple(award_of(row, number) for row, number in session.execute(query))
            return AwardsPage(found, numbers.page, numbers.per_page, numbers.total, numbers.pages)

    def news_item(self, series_id: int, news_id: int) -> NewsItem:
        """One news item of the series."""
        with self.frame.store.reading() as session:
            row = session.get(SeriesNewsRow, news_id)
            if row is None or row.series_id != series_id:
                raise NotFoundError(
                    "series {series} has no news item {item}", series=series_id, item=news_id
                )
            return news_item_of(row)

    def series_awards(
        self, series_id: int, *, player: str | None = None, user_id: int | None = None
    ) -> list[Award]:
        """The series' awards, oldest first; one player's only with ``player`` (a name,
        letter case aside) or ``user_id`` (an account)."""
        with self.frame.store.reading() as session:
            _series_row(session, series_id)
            query = select(SeriesAwardRow, SeriesEditionRow.number).join(
                SeriesEditionRow, SeriesEditionRow.id == SeriesAwardRow.edition_id
            )
            query = query.where(SeriesAwardRow.series_id == series_id)
            if player is not None:
                folded = " ".join(player.split()).casefold()
                query = query.where(SeriesAwardRow.folded_name == folded)
            if user_id is not None:
                query = query.where(SeriesAwardRow.user_id == user_id)
            query = query.order_by(SeriesAwardRow.id).limit(MAX_AWARDS)
            return [award_of(row, number) for row, number in session.execute(query)]

    def badges(self, user_id: int) -> list[Badge]:
        """Every award of one account in every series (the player's page), newest first."""
        with self.frame.store.reading() as session:
            query = (
                select(SeriesAwardRow, SeriesEditionRow.number, SeriesRow.name)
                .join(SeriesEditionRow, SeriesEditionRow.id == SeriesAwardRow.edition_id)
                .join(SeriesRow, SeriesRow.id == SeriesAwardRow.series_id)
                .where(SeriesAwardRow.user_id == user_id)
                .order_by(SeriesAwardRow.id.desc())
                .limit(MAX_AWARDS)
            )
            return [badge_of(row, number, name) for row, number, name in session.execute(query)]

    def award(self, series_id: int, award_id: int) -> Badge:
        """One award (its certificate): the place, the player, the stage, the series."""
        with self.frame.store.reading() as session:
            row = session.get(SeriesAwardRow, award_id)
            if row is None or row.series_id != series_id:
                raise NotFoundError(
                    "series {series} has no award {award}", series=series_id, award=award_id
                )
            edition = session.get(SeriesEditionRow, row.edition_id)
            series = _series_row(session, series_id)
            assert edition is not None
            return badge_of(row, edition.number, series.name)
