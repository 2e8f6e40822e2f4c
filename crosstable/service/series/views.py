"""Reads of the series for the web pages and the JSON API: the list of
series, an edition by its number with its stages and groups, each a typed read view
(:mod:`crosstable.service.series.shown`); the rules stay in
:mod:`crosstable.service.series.editions`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from sqlalchemy import select

from crosstable.core.series.calendar import CalendarKind, slots_after
from crosstable.core.series.registration import (
    RegistrationPhase,
    later_stage_open,
    stage_one_registration,
)
from crosstable.core.series.sequence import edition_calendar
from crosstable.service.errors import NotFoundError
from crosstable.service.series.editions import calendar_of, iso, moment
from crosstable.service.series.later_stages import AUTOMATIC, registration_window
from crosstable.service.series.needs import StoreAndClock
from crosstable.service.series.shown import EditionView, Shown, edition_view
from crosstable.service.series.stages import group_letter, keys_by_start
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesRow,
    SeriesStageRow,
)

#: the most series one list shows
MAX_LISTED = 500


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SeriesSummary(Shown):
    """A series in the list of series: its calendar and its edition open for registration."""

    id: int
    name: str
    kind: str
    weekday: int | None
    day: int | None
    start_time: str
    zone: str
    next: EditionView | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class GroupView(Shown):
    """A group of a stage: its letter, its number of players and its round robin."""

    letter: str
    players: int
    tournament: int | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class StageView(Shown):
    """A stage of an edition: groups, a final or the super-final, and its moments."""

    number: int
    #: groups, final or super-final
    kind: str
    cycles: int
    qualifiers_per_group: int
    started_at: str | None
    finished_at: str | None
    groups: tuple[GroupView, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class EditionStages(EditionView):
    """An edition with its stages and their groups."""

    stages: tuple[StageView, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class EditionPlace(Shown):
    """Where an edition is: its series and its number, and the series' zone."""

    series: int
    number: int
    zone: str


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class RegistrationState(Shown):
    """Stage-1 registration now: its phase (open, extended, closed, started) and, while
    it is open or extended, the moment it closes (ISO UTC)."""

    phase: str
    until: str | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class StagePlace(Shown):
    """An account's place in a stage 2 or later: the stage's window and the place's state."""

    edition: int
    stage: int
    name: str
    opens: str
    closes: str
    open: bool
    confirmed: bool
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player as the edition's page marks him."""

    name: str
    user: int | None
    rating: int | None


@dataclass(frozen=True, slots=True)
class BoardGroup:
    """A group with its players' registration ids in starting-number order."""

    group: GroupView
    keys: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardStage:
    """A stage with its groups' players and, once it ended, the players who went on."""

    stage: StageView
    groups: tuple[BoardGroup, ...]
    #: the registration ids that went on (None while the stage has not ended)
    qualified: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class EditionBoard:
    """An edition as its page marks it: the stages' players and the registered players."""

    edition: EditionStages
    stages: tuple[BoardStage, ...]
    entries: dict[int, Entrant]


def series_list(service: StoreAndClock) -> list[SeriesSummary]:
    """Every series (newest last): id, name, calendar, zone and its open edition."""
    with service.store.reading() as session:
        rows = list(session.scalars(select(SeriesRow).order_by(SeriesRow.id).limit(MAX_LISTED)))
        found: list[SeriesSummary] = []
        for row in rows:
            query = (
                select(SeriesEditionRow)
                .where(
                    SeriesEditionRow.series_id == row.id,
                    SeriesEditionRow.state == "registration",
                )
                .order_by(SeriesEditionRow.number)
                .limit(1)
            )
            edition = session.scalars(query).one_or_none()
            found.append(
                SeriesSummary(
                    id=row.id,
                    name=row.name,
                    kind=row.kind,
                    weekday=row.weekday,
                    day=row.day,
                    start_time=row.start_time,
                    zone=row.zone,
                    next=None if edition is None else edition_view(session, edition),
                )
            )
        return found


def upcoming_starts(service: StoreAndClock, series_id: int, count: int) -> list[dt.datetime]:
    """The series' next ``count`` edition starts after now, in its zone (a weekend
    series' on its weekend day once fixed; none for a regular series: its editions
    start when the previous one ends)."""
    with service.store.reading() as session:
        row = session.get(SeriesRow, series_id)
        if row is None:
            raise NotFoundError("there is no series {series} in this database", series=series_id)
        calendar = calendar_of(row)
    if calendar.kind is CalendarKind.REGULAR:
        return []
    return list(slots_after(edition_calendar(calendar), service.clock.now(), count))


def registered_names(service: StoreAndClock, edition_id: int, user_id: int) -> list[str]:
    """The names under which account ``user_id`` is registered for the edition."""
    with service.store.reading() as session:
        query = select(SeriesRegistrationRow.name).where(
            SeriesRegistrationRow.edition_id == edition_id,
            SeriesRegistrationRow.user_id == user_id,
            SeriesRegistrationRow.withdrawn_at.is_(None),
        )
        return list(session.scalars(query))


def edition_by_number(service: StoreAndClock, series_id: int, number: int) -> EditionStages:
    """Edition ``number`` of a series: its moments, state, players count, and its stages
    (number, kind, groups with their tournaments)."""
    with service.store.reading() as session:
        query = select(SeriesEditionRow).where(
            SeriesEditionRow.series_id == series_id, SeriesEditionRow.number == number
        )
        edition = session.scalars(query).one_or_none()
        if edition is None:
            raise NotFoundError(
                "series {series} has no edition {edition}", series=series_id, edition=number
            )
        info = edition_view(session, edition)
        stages = session.scalars(
            select(SeriesStageRow)
            .where(SeriesStageRow.edition_id == edition.id)
            .order_by(SeriesStageRow.number)
        )
        shown: list[StageView] = []
        for stage in stages:
            groups = session.scalars(
                select(SeriesGroupRow)
                .where(SeriesGroupRow.stage_id == stage.id)
                .order_by(SeriesGroupRow.letter)
            )
            shown.append(
                StageView(
                    number=stage.number,
                    kind=stage.kind,
                    cycles=stage.cycles,
                    qualifiers_per_group=stage.qualifiers_per_group,
                    started_at=stage.started_at,
                    finished_at=stage.finished_at,
                    groups=tuple(
                        GroupView(
                            letter=group_letter(group.letter),
                            players=len(group.players),
                            tournament=group.tournament_id,
                        )
                        for group in groups
                    ),
                )
            )
        values = {name: getattr(info, name) for name in EDITION_FIELDS}
        return EditionStages(**values, stages=tuple(shown))


EDITION_FIELDS = tuple(f.name for f in fields(EditionView))


def edition_places(service: StoreAndClock, edition_ids: set[int]) -> dict[int, EditionPlace]:
    """For each edition id: its series' id and zone and the edition's number (the links
    and local times of a user's notifications)."""
    if not edition_ids:
        return {}
    with service.store.reading() as session:
        query = (
            select(SeriesEditionRow.id, SeriesEditionRow.number, SeriesRow.id, SeriesRow.zone)
            .join(SeriesRow, SeriesRow.id == SeriesEditionRow.series_id)
            .where(SeriesEditionRow.id.in_(sorted(edition_ids)[:1000]))
        )
        return {
            edition: EditionPlace(series=series, number=number, zone=zone)
            for edition, number, series, zone in session.execute(query)
        }


def registration_state(service: StoreAndClock, edition_id: int) -> RegistrationState:
    """Stage-1 registration of an edition now, for its page's button: ``phase``
    open, extended (after the deadline, the week's extension), closed or started, and ``until``
    (the moment it closes, ISO UTC) while it is open or extended."""
    with service.store.reading() as session:
        edition = session.get(SeriesEditionRow, edition_id)
        if edition is None:
            raise NotFoundError(
                "there is no series edition {edition} in this database", edition=edition_id
            )
        series = session.get(SeriesRow, edition.series_id)
        assert series is not None
        if edition.state != "registration":
            return RegistrationState(phase="started", until=None)
        if edition.closed_at is not None:
            return RegistrationState(phase="closed", until=None)
        count = edition_view(session, edition).registered
        state = stage_one_registration(
            service.clock.now(),
            moment(edition.deadline),
            count,
            pre_registration=series.pre_registration,
            max_size=series.max_group_size,
            first_deadline=moment(edition.first_deadline),
        )
    if state.phase is RegistrationPhase.CLOSED:
        return RegistrationState(phase="closed", until=None)
    phase = "open" if state.phase is RegistrationPhase.OPEN else "extended"
    return RegistrationState(phase=phase, until=iso(state.closes))


def edition_board(service: StoreAndClock, series_id: int, number: int) -> EditionBoard:
    """:func:`edition_by_number` with what the edition's page marks: each group's players
    (registration ids in starting-number order, their names and accounts) and, for a
    stage that ended, the players who went on (``qualified``)."""
    info = edition_by_number(service, series_id, number)
    board: list[BoardStage] = []
    with service.store.reading() as session:
        names = {
            row.id: Entrant(name=row.name, user=row.user_id, rating=row.rating)
            for row in session.scalars(
                select(SeriesRegistrationRow).where(SeriesRegistrationRow.edition_id == info.id)
            )
        }
        stages = list(
            session.scalars(
                select(SeriesStageRow)
                .where(SeriesStageRow.edition_id == info.id)
                .order_by(SeriesStageRow.number)
            )
        )
        for stage, shown in zip(stages, info.stages, strict=True):
            step = f"edition {info.id}: stage {stage.number} ends"
            event = session.scalars(
                select(SeriesEventRow).where(SeriesEventRow.step == step)
            ).first()
            qualified = None if event is None else tuple(event.data.get("qualified", []))
            groups = session.scalars(
                select(SeriesGroupRow)
                .where(SeriesGroupRow.stage_id == stage.id)
                .order_by(SeriesGroupRow.letter)
            )
            players = tuple(
                BoardGroup(
                    group=view,
                    keys=tuple(
                        keys_by_start(session, group) if group.tournament_id else group.players
                    ),
                )
                for group, view in zip(groups, shown.groups, strict=True)
            )
            board.append(BoardStage(stage=shown, groups=players, qualified=qualified))
    return EditionBoard(edition=info, stages=tuple(board), entries=names)


def stage_place(service: StoreAndClock, edition_id: int, user_id: int) -> StagePlace | None:
    """The account's place in the edition's current stage 2 or later: the
    stage, its window (``opens``, ``closes``, ``open``) and whether the place is
    ``confirmed`` or ``withdrawn``; None when the account plays no such stage (the
    final and the super-final need no confirmation)."""
    now = service.clock.now()
    with service.store.reading() as session:
        edition = session.get(SeriesEditionRow, edition_id)
        if edition is None or edition.state == "finished" or edition.stage < 2:
            return None
        stage = session.scalars(
            select(SeriesStageRow).where(
                SeriesStageRow.edition_id == edition_id, SeriesStageRow.number == edition.stage
            )
        ).one_or_none()
        if stage is None or stage.kind in AUTOMATIC or stage.started_at is None:
            return None
        mine = {
            row.id: row.name
            for row in session.scalars(
                select(SeriesRegistrationRow).where(
                    SeriesRegistrationRow.edition_id == edition_id,
                    SeriesRegistrationRow.user_id == user_id,
                )
            )
        }
        groups = session.scalars(select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id))
        key = next((k for group in groups for k in group.players if k in mine), None)
        if key is None:
            return None
        steps = {
            step
            for step in session.scalars(
                select(SeriesEventRow.step).where(
                    SeriesEventRow.edition_id == edition_id, SeriesEventRow.step.is_not(None)
                )
            )
        }
        opens, closes = registration_window(stage)
        prefix = f"edition {edition_id}: stage {stage.number}"
        return StagePlace(
            edition=edition_id,
            stage=stage.number,
            name=mine[key],
            opens=opens.isoformat(),
            closes=closes.isoformat(),
            open=later_stage_open(now, opens),
            confirmed=f"{prefix} registration {key}" in steps,
            withdrawn=f"{prefix} withdrawal {key}" in steps,
        )
