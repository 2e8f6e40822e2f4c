"""What the series' reads answer: typed read views, named as the organiser names things
(a series, an edition, a stage, a group, a line of the history).

Each view is a frozen dataclass whose fields the pages and the command line read by
name, checked by the type checker. Read by key (``edition["number"]``) it is the JSON
the API writes (:meth:`Shown.as_json`): the form the readers written before the views
expect, so a view is also a read-only mapping of that JSON. ``Shown``, ``JsonObject``
and ``json_value`` are every read view's (:mod:`crosstable.service.read_views`).

The series' rules (its calendar, group sizes, cycles, tie-breaks, deadline…) are one
:class:`SeriesSettings`, read from the stored series by :func:`series_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.service.read_views import JsonObject, Shown, json_value
from crosstable.store.series_models import SeriesEditionRow, SeriesRegistrationRow, SeriesRow


@dataclass(frozen=True, slots=True)
class SeriesSettings:
    """The series' rules: what a series is created with (the template and the calendar)."""

    name: str
    kind: str
    start_time: str
    zone: str
    weekday: int | None = None
    day: int | None = None
    max_group_size: int = 10
    qualifiers_per_group: int = 2
    final_min: int = 6
    group_cycles: int = 1
    final_cycles: int = 1
    super_final_players: int = 4
    super_final_cycles: int = 2
    tiebreaks: tuple[str, ...] = ()
    time_control: str = ""
    pre_registration: bool = False
    deadline_minutes: int = 60
    #: "battle": every group tournament is battle chess (docs/battle.md)
    variant: str = ""
    #: battle chess: the set-up time in minutes (1…120; None: not set)
    setup_minutes: int | None = None
    #: paused by its organiser: no edition opens by itself (the tick)
    paused: bool = False


def series_rules(row: SeriesRow) -> SeriesSettings:
    """The stored series' rules (its tie-breaks stored as comma-separated codes)."""
    return SeriesSettings(
        name=row.name,
        kind=row.kind,
        start_time=row.start_time,
        zone=row.zone,
        weekday=row.weekday,
        day=row.day,
        max_group_size=row.max_group_size,
        qualifiers_per_group=row.qualifiers_per_group,
        final_min=row.final_min,
        group_cycles=row.group_cycles,
        final_cycles=row.final_cycles,
        super_final_players=row.super_final_players,
        super_final_cycles=row.super_final_cycles,
        tiebreaks=tuple(code for code in row.tiebreaks.split(",") if code),
        time_control=row.time_control,
        pre_registration=row.pre_registration,
        deadline_minutes=row.deadline_minutes,
        variant=row.variant,
        setup_minutes=row.setup_minutes,
        paused=row.paused,
    )


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class EditionView(Shown):
    """An edition: its moments (ISO UTC), state, current stage and registered players."""

    id: int
    series: int
    number: int
    planned_start: str
    deadline: str
    #: registration, running or finished
    state: str
    stage: int
    postponed: int
    extended: bool
    closed_at: str | None
    finished_at: str | None
    registered: int


def edition_view(session: Session, edition: SeriesEditionRow) -> EditionView:
    """The stored edition with its count of registered players."""
    count = session.scalar(
        select(func.count())
        .select_from(SeriesRegistrationRow)
        .where(
            SeriesRegistrationRow.edition_id == edition.id,
            SeriesRegistrationRow.withdrawn_at.is_(None),
        )
    )
    return EditionView(
        id=edition.id,
        series=edition.series_id,
        number=edition.number,
        planned_start=edition.planned_start,
        deadline=edition.deadline,
        state=edition.state,
        stage=edition.stage,
        postponed=edition.postponed,
        extended=edition.extended,
        closed_at=edition.closed_at,
        finished_at=edition.finished_at,
        registered=int(count or 0),
    )


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SeriesView(Shown):
    """A series: its rules, field by field as stored, and its editions by number."""

    id: int
    name: str
    kind: str
    weekday: int | None
    day: int | None
    start_time: str
    zone: str
    max_group_size: int
    qualifiers_per_group: int
    final_min: int
    group_cycles: int
    final_cycles: int
    super_final_players: int
    super_final_cycles: int
    tiebreaks: tuple[str, ...]
    time_control: str
    pre_registration: bool
    deadline_minutes: int
    created_at: str
    variant: str
    setup_minutes: int | None
    paused: bool
    editions: tuple[EditionView, ...]

    @property
    def rules(self) -> SeriesSettings:
        """The series' rules as one typed object."""
        names = {f.name for f in fields(SeriesSettings)}
        return SeriesSettings(**{name: getattr(self, name) for name in names})

    def as_json(self) -> JsonObject:
        """The stored columns (the tie-breaks comma-separated, as stored) and the editions."""
        out = Shown.as_json(self)
        out["tiebreaks"] = ",".join(self.tiebreaks)
        return out


def series_view(session: Session, row: SeriesRow, editions: list[SeriesEditionRow]) -> SeriesView:
    """The stored series with ``editions`` (by number)."""
    rules = series_rules(row)
    values = {f.name: getattr(rules, f.name) for f in fields(SeriesSettings)}
    return SeriesView(
        id=row.id,
        created_at=row.created_at,
        editions=tuple(edition_view(session, edition) for edition in editions),
        **values,
    )


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class HistoryLine(Shown):
    """One line of a series' history: a use case or a time-driven step."""

    at: str
    actor: str
    kind: str
    edition: int | None
    #: the line (a Message when it was kept as one, translated on the web)
    summary: str


__all__ = [
    "EditionView",
    "HistoryLine",
    "JsonObject",
    "SeriesSettings",
    "SeriesView",
    "Shown",
    "edition_view",
    "json_value",
    "series_rules",
    "series_view",
]
