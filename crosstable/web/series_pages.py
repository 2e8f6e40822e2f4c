"""What the series' pages show beyond the services' plain values:
moments for the reader's zone, the registration button's state, and an edition's
groups with their standings and qualifiers marked.

Moments: the server writes each in the series' zone, the zone named, inside
``<time datetime=ISO data-local>``; ``static/zones.js`` rewrites it in the browser's
zone (the zone named), so a reader sees his own time and the page still states the
series' one (the element's title). Without script the series' zone stays.

Qualifiers on an edition's page: a stage that ended marks the players who went on
(the stage's recorded end: a player who played no game does not go on,
whatever his place); a stage being played marks the places that qualify if it ended
now (its top ``qualifiers_per_group``), provisional; the last stage marks its winner.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from zoneinfo import ZoneInfo

from crosstable.service import Service
from crosstable.service.crosstable import Crosstable
from crosstable.service.series.shown import EditionView
from crosstable.service.series.views import (
    BoardGroup,
    BoardStage,
    EditionBoard,
    EditionStages,
    Entrant,
    StagePlace,
    StageView,
    edition_board,
    registered_names,
    registration_state,
)
from crosstable.web import i18n
from crosstable.web.security import Caller

#: groups shown with their standings on an edition's page (the rest are linked)
MAX_TABLES = 60
#: groups whose whole crosstable is also on the page (a small stage)
MAX_CROSSTABLES = 8


@dataclass(frozen=True, slots=True)
class LocalMoment:
    """A stored UTC moment: ISO for the browser's script, and its text in the series' zone."""

    iso: str
    text: str


def local_moment(value: str | None, zone: str) -> LocalMoment | None:
    """A stored UTC moment: ISO for the browser's script, and its text in ``zone``."""
    if not value:
        return None
    moment = dt.datetime.fromisoformat(value)
    shown = moment.astimezone(ZoneInfo(zone))
    return LocalMoment(iso=moment.isoformat(), text=f"{i18n.moment_text(shown)} ({zone})")


@dataclass(frozen=True, slots=True)
class RegistrationButton:
    """The registration button of an edition: ``phase`` (open, extended, closed,
    started), ``until`` (ISO UTC) and whether the caller is registered (``mine``)."""

    phase: str
    until: str | None
    mine: bool


def button_state(service: Service, caller: Caller, edition: EditionView) -> RegistrationButton:
    """The registration button of an edition for the caller."""
    state = registration_state(service, edition.id)
    mine = False
    if caller.user is not None:
        mine = bool(registered_names(service, edition.id, int(caller.user.id)))
    return RegistrationButton(phase=state.phase, until=state.until, mine=mine)


@dataclass(frozen=True, slots=True)
class PlaceShown:
    """An account's place in a stage 2 or later as the confirm form shows it."""

    stage: int
    closes: str
    closes_text: str
    open: bool
    confirmed: bool
    withdrawn: bool


def place_shown(place: StagePlace, zone: str) -> PlaceShown:
    """The place with the moment its window closes written in ``zone``."""
    closes = local_moment(place.closes, zone)
    return PlaceShown(
        stage=place.stage,
        closes=place.closes,
        closes_text="" if closes is None else closes.text,
        open=place.open,
        confirmed=place.confirmed,
        withdrawn=place.withdrawn,
    )


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """A player's line of a group's standings on the edition's page."""

    place: str
    name: str
    start: int
    points: Fraction
    played: int
    #: qualified, qualifying, winner or ""
    mark: str
    #: the caller's own line
    mine: bool


@dataclass(frozen=True, slots=True)
class GroupTable:
    """A group's crosstable and its standings as marked."""

    table: Crosstable
    rows: tuple[StandingsRow, ...]


@dataclass(frozen=True, slots=True)
class GroupShown:
    """A group on the edition's page: its letter, players, tournament and standings."""

    letter: str
    players: int
    tournament: int | None
    #: None beyond the first groups shown with their standings, or before it is made
    view: GroupTable | None


@dataclass(frozen=True, slots=True)
class StageShown:
    """A stage on the edition's page with its groups."""

    number: int
    kind: str
    qualifiers_per_group: int
    started_at: str | None
    finished_at: str | None
    groups: tuple[GroupShown, ...]


@dataclass(frozen=True, slots=True)
class EditionShown:
    """The edition on its page: its moments, state, registered count and its stages."""

    edition: EditionStages
    stages: tuple[StageShown, ...]

    @property
    def id(self) -> int:
        return self.edition.id

    @property
    def number(self) -> int:
        return self.edition.number

    @property
    def state(self) -> str:
        return self.edition.state

    @property
    def registered(self) -> int:
        return self.edition.registered


@dataclass(frozen=True, slots=True)
class MyGroup:
    """The stage and group the caller plays in (the page links it first)."""

    stage: StageShown
    group: GroupShown


@dataclass(frozen=True, slots=True)
class EditionPage:
    """The edition page's values."""

    e: EditionShown
    small: bool
    mine_group: MyGroup | None
    start: LocalMoment | None
    finished: LocalMoment | None
    button: RegistrationButton | None
    moment_of: Callable[[str | None], LocalMoment | None]


def _group_table(
    service: Service,
    board: BoardGroup,
    stage: BoardStage,
    caller: Caller,
    entries: dict[int, Entrant],
    last: bool,
) -> GroupTable | None:
    tid = board.group.tournament
    if not tid:
        return None
    _view, table = service.crosstable(int(tid))
    keys = board.keys
    qualified = stage.qualified
    per_group = stage.stage.qualifiers_per_group or 0
    lines = {line.start: line for line in table.lines}
    order = list(table.ranked) or sorted(lines)
    rows = []
    for position, start in enumerate(order, 1):
        line = lines[start]
        key = keys[start - 1] if 0 < start <= len(keys) else None
        entry = entries.get(key) if key is not None else None
        if qualified is not None:
            mark = "qualified" if per_group and key in qualified else ""
            if last and position == 1 and line.rank == 1:
                mark = "winner"
        else:
            mark = "qualifying" if per_group and position <= per_group else ""
        mine = bool(caller.user is not None and entry and entry.user == caller.user.id)
        rows.append(
            StandingsRow(
                place=line.place or (str(line.rank) if line.rank else ""),
                name=line.name,
                start=start,
                points=line.points,
                played=line.played,
                mark=mark,
                mine=mine,
            )
        )
    return GroupTable(table=table, rows=tuple(rows))


def _stage_shown(stage: StageView, groups: tuple[GroupShown, ...]) -> StageShown:
    return StageShown(
        number=stage.number,
        kind=stage.kind,
        qualifiers_per_group=stage.qualifiers_per_group,
        started_at=stage.started_at,
        finished_at=stage.finished_at,
        groups=groups,
    )


def edition_context(
    service: Service, caller: Caller, zone: str, number: int, series_id: int
) -> EditionPage:
    """The edition page's values: the edition with its stages, each group's standings."""
    board: EditionBoard = edition_board(service, series_id, number)
    edition = board.edition
    shown = 0
    mine_group = None
    stages: list[StageShown] = []
    for index, stage in enumerate(board.stages):
        last = index == len(board.stages) - 1 and edition.state == "finished"
        groups: list[GroupShown] = []
        mine: GroupShown | None = None
        for item in stage.groups:
            view = None
            if shown < MAX_TABLES:
                view = _group_table(service, item, stage, caller, board.entries, last)
                shown += 1
            group = GroupShown(
                letter=item.group.letter,
                players=item.group.players,
                tournament=item.group.tournament,
                view=view,
            )
            groups.append(group)
            if view is not None and any(row.mine for row in view.rows):
                mine = group
        stages.append(_stage_shown(stage.stage, tuple(groups)))
        if mine is not None:
            mine_group = MyGroup(stage=stages[-1], group=mine)
    small = sum(len(stage.groups) for stage in stages) <= MAX_CROSSTABLES
    return EditionPage(
        e=EditionShown(edition=edition, stages=tuple(stages)),
        small=small,
        mine_group=mine_group,
        start=local_moment(edition.planned_start, zone),
        finished=local_moment(edition.finished_at, zone),
        button=button_state(service, caller, edition) if edition.state == "registration" else None,
        moment_of=lambda value: local_moment(value, zone),
    )
