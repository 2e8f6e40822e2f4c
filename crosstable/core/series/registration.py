"""Registration for a series' editions, as pure decisions.

Every function takes the moment ``now`` and the edition's deadlines and counts;
none reads a clock. Moments are aware datetimes.

**Stage 1**: players register themselves until the edition's deadline
and may withdraw until stage 1 starts. For an edition *without pre-registration*
the deadline is extended while fewer than 60 % of the places of "the last
table" are taken, by at most one week in total. The product reads "в последней
турнирной таблице" as the portal filled its tables: entries fill tables of
``max_size`` one after another, in registration order; the last table is the
one the latest entries are in, holding ``N − max_size·(⌈N/max_size⌉ − 1)`` of its
``max_size`` places (none registered: an empty first table). With ``max_size``
10, 23 entries leave 3 at the last table (30 % — extended), 26 leave 6 (60 % —
closes), 30 fill it. (The groups actually played are balanced afterwards by
:func:`~crosstable.core.series.groups.group_sizes_for`; the rule only decides
whether to wait for more players.)

>>> last_table(23, 10), last_table(26, 10), last_table(30, 10), last_table(0, 10)
((3, 10), (6, 10), (10, 10), (0, 10))
>>> last_table_short(23, 10), last_table_short(26, 10)
(True, False)

The extension is re-decided at each moment: it lasts while the last table is
short and the week is not over; the first moment it is not short (or the week
ends), registration closes — and the service records that, so a later
withdrawal does not reopen it.

**Stage 2 and later** (seed 002: "only within two weeks from the start of that
stage"): registration is open from the stage's start for 14 days
(:func:`later_stage_open`).

**Too few players**: fewer than 15 registered when registration closes
→ the start moves to the next slot of the series' calendar, and the deadline
with it, keeping the same lead time (:func:`start_decision`).

**Class or level tournaments**: one runs only with at least 11 players;
11 players of one level may petition the administration for their own.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import SeriesCalendar, postponed_start
from crosstable.core.series.groups import DEFAULT_MAX_GROUP_SIZE, MAX_GROUP_SIZE, MIN_GROUP_SIZE

#: extended while fewer than this share of the last table's places are taken
EXTENSION_SHARE = Fraction(3, 5)
#: the extension is at most one week in total
MAX_EXTENSION = dt.timedelta(weeks=1)
#: registration for stage 2 and later is open two weeks from the stage's start
LATER_STAGE_WINDOW = dt.timedelta(weeks=2)
#: fewer than this many registered at the deadline → the start moves
MIN_PLAYERS_TO_START = 15
#: a class or level tournament runs only with at least this many players
MIN_CLASS_PLAYERS = 11


def last_table(entries: int, max_size: int = DEFAULT_MAX_GROUP_SIZE) -> tuple[int, int]:
    """``(taken, places)`` of the last table when ``entries`` fill tables of ``max_size``."""
    if entries < 0:
        raise RuleError("{count} entries: a count is never negative", count=entries)
    if not MIN_GROUP_SIZE <= max_size <= MAX_GROUP_SIZE:
        raise RuleError(
            "max group size {size}: between {low} and {high}",
            size=max_size,
            low=MIN_GROUP_SIZE,
            high=MAX_GROUP_SIZE,
        )
    if entries == 0:
        return 0, max_size
    return entries - max_size * ((entries - 1) // max_size), max_size


def last_table_short(entries: int, max_size: int = DEFAULT_MAX_GROUP_SIZE) -> bool:
    """Fewer than 60 % of the last table's places taken (exact: taken < 3/5 · places)."""
    taken, places = last_table(entries, max_size)
    return Fraction(taken) < EXTENSION_SHARE * places


class RegistrationPhase(Enum):
    OPEN = "open"  # before the deadline
    EXTENDED = "extended"  # after the deadline, the week's extension running
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class RegistrationState:
    """Stage-1 registration at one moment. ``closes``: while open, the latest it can
    close (the deadline, or the end of the week's extension while that runs); once
    closed, a moment by which it had closed (the deadline, or ``now`` / the end of
    the week when an extension may have run — the service records the real one)."""

    phase: RegistrationPhase
    closes: dt.datetime

    @property
    def is_open(self) -> bool:
        return self.phase is not RegistrationPhase.CLOSED


def stage_one_registration(
    now: dt.datetime,
    deadline: dt.datetime,
    entries: int,
    *,
    pre_registration: bool,
    max_size: int = DEFAULT_MAX_GROUP_SIZE,
    first_deadline: dt.datetime | None = None,
) -> RegistrationState:
    """Whether stage-1 registration is open at ``now``.

    ``deadline`` is the edition's deadline; after a postponement pass the
    edition's original deadline as ``first_deadline``: the week of extension is
    counted from it, so an edition is never extended by more than a week in all.
    """
    for name, moment in (("now", now), ("deadline", deadline)):
        _aware(moment, name)
    first = deadline if first_deadline is None else first_deadline
    _aware(first, "first deadline")
    if _utc(now) < _utc(deadline):
        return RegistrationState(RegistrationPhase.OPEN, deadline)
    limit = (_utc(first) + MAX_EXTENSION).astimezone(deadline.tzinfo)
    if not pre_registration and _utc(now) < _utc(limit) and last_table_short(entries, max_size):
        return RegistrationState(RegistrationPhase.EXTENDED, limit)
    if pre_registration or _utc(limit) <= _utc(deadline):
        return RegistrationState(RegistrationPhase.CLOSED, deadline)
    return RegistrationState(RegistrationPhase.CLOSED, min(now, limit, key=_utc))


def may_withdraw(now: dt.datetime, stage_one_start: dt.datetime) -> bool:
    """A player may withdraw until stage 1 starts."""
    _aware(now, "now")
    _aware(stage_one_start, "start")
    return _utc(now) < _utc(stage_one_start)


def later_stage_open(now: dt.datetime, stage_start: dt.datetime) -> bool:
    """Registration for stage 2 and later, open for two weeks from its start."""
    _aware(now, "now")
    _aware(stage_start, "start")
    return _utc(stage_start) <= _utc(now) < _utc(stage_start) + LATER_STAGE_WINDOW


@dataclass(frozen=True, slots=True)
class StartDecision:
    """What happens when registration closes: start, or move start and deadline."""

    starts: bool
    start: dt.datetime
    deadline: dt.datetime
    registered: int

    @property
    def postponed(self) -> bool:
        return not self.starts


def start_decision(
    registered: int,
    start: dt.datetime,
    deadline: dt.datetime,
    calendar: SeriesCalendar,
    *,
    minimum: int = MIN_PLAYERS_TO_START,
) -> StartDecision:
    """Enough players → start as planned; fewer than ``minimum`` (15) → the
    next slot of the calendar, the deadline moved by the same amount (the same lead
    time before the start).

    >>> from zoneinfo import ZoneInfo
    >>> from crosstable.core.series.calendar import CalendarKind
    >>> zone = ZoneInfo("Europe/Moscow")
    >>> weekend = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone)
    >>> start = dt.datetime(2026, 12, 6, 18, tzinfo=zone)  # a Sunday
    >>> moved = start_decision(14, start, start - dt.timedelta(hours=2), weekend)
    >>> moved.postponed, moved.start.isoformat(), moved.deadline.isoformat()
    (True, '2026-12-12T18:00:00+03:00', '2026-12-12T16:00:00+03:00')
    >>> start_decision(15, start, start, weekend).starts
    True
    """
    _aware(start, "start")
    _aware(deadline, "deadline")
    if registered < 0:
        raise RuleError("{count} registered: a count is never negative", count=registered)
    if minimum < MIN_GROUP_SIZE:
        raise RuleError(
            "minimum {minimum}: a stage needs at least {least} players",
            minimum=minimum,
            least=MIN_GROUP_SIZE,
        )
    if registered >= minimum:
        return StartDecision(True, start, deadline, registered)
    lead = _utc(start) - _utc(deadline)  # real time: one tzinfo would subtract wall times
    later = postponed_start(calendar, start)
    moved = (_utc(later) - lead).astimezone(calendar.zone)
    return StartDecision(False, later, moved, registered)


def class_tournament_runs(players: int) -> bool:
    """A class or level tournament runs only with at least 11 players."""
    return players >= MIN_CLASS_PLAYERS


def may_petition(players_of_level: int) -> bool:
    """11 players of one level may ask the administration for their tournament."""
    return players_of_level >= MIN_CLASS_PLAYERS


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(dt.UTC)


def _aware(moment: dt.datetime, name: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise RuleError(
            "{name} {moment}: a moment needs its time zone", name=name, moment=moment.isoformat()
        )
