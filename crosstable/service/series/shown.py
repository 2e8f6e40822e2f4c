"""What the series' reads answer: typed read views, named as the organiser names things
(a series, an edition, a stage, a group, a line of the history).

Each view is a frozen dataclass whose fields the pages and the command line read by
name, checked by the type checker. Read by key (``edition["number"]``) it is the JSON
the API writes (:meth:`Shown.as_json`): the form the readers written before the views
expect, so a view is also a read-only mapping of that JSON.

The series' rules (its calendar, group sizes, cycles, tie-breaks, deadline…) are one
:class:`SeriesSettings`, read from the stored series by :func:`series_rules`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.store.series_models import SeriesEditionRow, SeriesRegistrationRow, SeriesRow

#: A JSON object as the API answers it, made by a view's :meth:`Shown.as_json`: JSON on
#: the wire, whose values are whatever the view's fields hold, hence ``Any``.
JsonObject = dict[str, Any]


def json_value(value: object) -> object:
    """A view's value as JSON: a view its JSON, a tuple a list, a mapping's values in turn."""
    if isinstance(value, Shown):
        return value.as_json()
    if isinstance(value, tuple | list):
        return [json_value(item) for item in value]
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    return value


class Shown(Mapping[str, Any]):
    """A read view: typed fields; by key, the JSON the API writes (:meth:`as_json`).

    The JSON is a mapping of names to JSON values whose shape each view states by its
    fields, which is why the mapping's values are ``Any``."""

    __slots__ = ()

    def as_json(self) -> JsonObject:
        """The API's JSON form: every field, views and tuples turned into JSON."""
        return {f.name: json_value(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]

    def __getitem__(self, key: str) -> Any:
        return self.as_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_json())

    def __len__(self) -> int:
        return len(self.as_json())

    def __or__(self, other: Mapping[str, object]) -> dict[str, object]:
        return self.as_json() | dict(other)

    def __ror__(self, other: Mapping[str, object]) -> dict[str, object]:
        return dict(other) | self.as_json()


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
