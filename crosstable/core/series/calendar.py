"""A series' calendar: the moments its editions may start.

Seed 002's five kinds of systematic tournament read as a set of *slots* — the
days an edition may start, and the days a postponed start moves to — all at the
series' local wall-clock time in its time zone:

* ``weekend`` — every Saturday and Sunday;
* ``workdays`` — every Monday to Friday;
* ``weekly`` — every chosen weekday;
* ``monthly`` — the chosen day of each month, or the month's last day when the
  month is shorter (day 31 is 30 April, 28 or 29 February);
* ``regular`` — no slots: the next edition starts as soon as the previous one
  ends (:func:`slots` refuses it; :func:`postponed_start` moves it by a delay).

A slot is an aware :class:`~datetime.datetime` whose UTC offset is the zone's
offset on that day, so a Berlin series at 18:00 is ``+01:00`` in winter and
``+02:00`` in summer. Two wall times are special (PEP 495):

* a time that does not exist (the spring-forward gap, 02:30 in Berlin on the
  last Sunday of March) is moved forward by the length of the gap (03:30 CEST):
  the start is the instant the clock *would* show that time with the offset
  in force before the change (``fold=0``);
* a time that happens twice (the fall-back hour) is its first occurrence, with
  the summer offset (``fold=0``);
* when the gap would push the start onto the next day — a day the zone skips
  entirely (Pacific/Apia, 30 December 2011), or a gap across midnight — that day
  has no slot.

The core does no I/O: the caller passes the zone as a :class:`datetime.tzinfo`
(in practice ``zoneinfo.ZoneInfo("Europe/Berlin")``, resolved by the CLI or the
service).

>>> import datetime as dt
>>> from zoneinfo import ZoneInfo
>>> berlin = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), ZoneInfo("Europe/Berlin"))
>>> [s.isoformat() for s in slots(berlin, dt.date(2026, 3, 27), 3)]
['2026-03-28T18:00:00+01:00', '2026-03-29T18:00:00+02:00', '2026-04-04T18:00:00+02:00']
>>> monthly = SeriesCalendar(
...     CalendarKind.MONTHLY, dt.time(12), ZoneInfo("Europe/Moscow"), day=31)
>>> [s.date().isoformat() for s in slots(monthly, dt.date(2027, 1, 31), 3)]
['2027-01-31', '2027-02-28', '2027-03-31']
"""

from __future__ import annotations

import calendar as _calendar
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from crosstable.core.errors import RuleError
from crosstable.core.text import Message

#: the most slots one request may ask for (the CLI's ``--count``; feeds and pages show fewer)
MAX_SLOTS = 1000

#: how far :func:`postponed_start` moves a ``regular`` series' start (it has no slots)
REGULAR_POSTPONEMENT = dt.timedelta(days=1)

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
#: the years a calendar covers (the zone database's range, and room to add a day or a week)
FIRST_YEAR, LAST_YEAR = 1900, 9998
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_UTC = dt.UTC


class CalendarKind(Enum):
    """Seed 002's five kinds of systematic tournament."""

    WEEKEND = "weekend"
    WORKDAYS = "workdays"
    WEEKLY = "weekly"
    MONTHLY = "monthly"
    REGULAR = "regular"


@dataclass(frozen=True, slots=True)
class SeriesCalendar:
    """When a series' editions may start.

    ``time`` is the local wall-clock start (naive; None only for a ``regular`` series
    without a time of day), ``zone`` the series' time zone, ``weekday`` (0 = Monday …
    6 = Sunday) for ``weekly``, and for ``weekend`` the weekend day its editions are
    played on (5 or 6; None: fixed when the series starts, see
    :mod:`crosstable.core.series.sequence`), ``day`` (1…31) only for ``monthly``.
    """

    kind: CalendarKind
    time: dt.time | None
    zone: dt.tzinfo
    weekday: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if self.time is None:
            if self.kind is not CalendarKind.REGULAR:
                raise RuleError(
                    "a series needs its start time (HH:MM); only a regular series may go "
                    "without one"
                )
        elif self.time.tzinfo is not None:
            raise RuleError("the start time is a wall-clock time: give the zone separately")
        if self.kind is CalendarKind.WEEKLY:
            if self.weekday is None:
                raise RuleError("a weekly series needs its weekday (mon…sun)")
            if not 0 <= self.weekday <= 6:
                raise RuleError("weekday {weekday}: 0 (Monday) to 6 (Sunday)", weekday=self.weekday)
        elif self.kind is CalendarKind.WEEKEND:
            if self.weekday is not None and self.weekday not in (5, 6):
                raise RuleError(
                    "weekday {weekday}: a weekend series plays on Saturday (5) or Sunday (6)",
                    weekday=self.weekday,
                )
        elif self.weekday is not None:
            raise RuleError("only a weekly series has a weekday")
        if self.kind is CalendarKind.MONTHLY:
            if self.day is None:
                raise RuleError("a monthly series needs its day of the month (1…31)")
            if not 1 <= self.day <= 31:
                raise RuleError("day {day}: a day of the month is 1 to 31", day=self.day)
        elif self.day is not None:
            raise RuleError("only a monthly series has a day of the month")

    @property
    def zone_name(self) -> str:
        """The zone's name as written (``Europe/Berlin``)."""
        return getattr(self.zone, "key", None) or str(self.zone)


def weekday_number(text: str) -> int:
    """``"mon"`` → 0 … ``"sun"`` → 6 (case-insensitive; full names accepted).

    >>> weekday_number("Wed"), weekday_number("sunday")
    (2, 6)
    """
    key = text.strip().lower()
    for number, name in enumerate(_WEEKDAY_NAMES):
        if key in (name, name[:3]):
            return number
    raise RuleError(
        "weekday {text}: one of {choices}", text=repr(text), choices=Message.joined(", ", WEEKDAYS)
    )


def month_slot_day(year: int, month: int, day: int) -> int:
    """The day of ``month`` a monthly series on ``day`` starts: ``day`` or the month's last.

    >>> month_slot_day(2027, 2, 31), month_slot_day(2028, 2, 30), month_slot_day(2027, 4, 31)
    (28, 29, 30)
    """
    return min(day, _calendar.monthrange(year, month)[1])


def is_slot_day(calendar: SeriesCalendar, date: dt.date) -> bool:
    """Whether an edition of the series may start on ``date`` (a local date)."""
    kind = calendar.kind
    if kind is CalendarKind.WEEKEND:
        return date.weekday() >= 5
    if kind is CalendarKind.WORKDAYS:
        return date.weekday() < 5
    if kind is CalendarKind.WEEKLY:
        return date.weekday() == calendar.weekday
    if kind is CalendarKind.MONTHLY:
        assert calendar.day is not None
        return date.day == month_slot_day(date.year, date.month, calendar.day)
    return False


def slot_dates(calendar: SeriesCalendar, first: dt.date) -> Iterator[dt.date]:
    """The series' slot days from ``first`` on (inclusive), in order, without end."""
    if calendar.kind is CalendarKind.REGULAR:
        raise RuleError(
            "a regular series has no calendar slots: each edition starts as soon as "
            "the previous one ends"
        )
    if not FIRST_YEAR <= first.year <= LAST_YEAR:
        raise _outside()
    for date in _slot_days(calendar, first):
        if date.year > LAST_YEAR:
            raise _outside()
        yield date


def _outside() -> RuleError:
    return RuleError(
        "the calendar covers the years {first} to {last}", first=FIRST_YEAR, last=LAST_YEAR
    )


def _slot_days(calendar: SeriesCalendar, first: dt.date) -> Iterator[dt.date]:
    if calendar.kind is CalendarKind.MONTHLY:
        assert calendar.day is not None
        year, month = first.year, first.month
        while True:
            date = dt.date(year, month, month_slot_day(year, month, calendar.day))
            if date >= first:
                yield date
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    date = first
    if calendar.kind is CalendarKind.WEEKLY:
        assert calendar.weekday is not None
        date += dt.timedelta(days=(calendar.weekday - first.weekday()) % 7)
        while True:
            yield date
            date += dt.timedelta(days=7)
    while True:
        if is_slot_day(calendar, date):
            yield date
        date += dt.timedelta(days=1)


def local_start(date: dt.date, time: dt.time, zone: dt.tzinfo) -> dt.datetime:
    """The instant ``date`` at wall time ``time`` in ``zone``, as an aware datetime whose
    offset is the zone's on that day (gap: moved forward; repeated hour: the first).

    >>> from zoneinfo import ZoneInfo
    >>> local_start(dt.date(2026, 3, 29), dt.time(2, 30), ZoneInfo("Europe/Berlin")).isoformat()
    '2026-03-29T03:30:00+02:00'
    >>> local_start(dt.date(2026, 10, 25), dt.time(2, 30), ZoneInfo("Europe/Berlin")).isoformat()
    '2026-10-25T02:30:00+02:00'
    """
    naive = dt.datetime.combine(date, time).replace(tzinfo=zone, fold=0)
    return naive.astimezone(_UTC).astimezone(zone)


def upcoming(
    calendar: SeriesCalendar, first: dt.date, *, after: dt.datetime | None = None
) -> Iterator[dt.datetime]:
    """The slots from the local date ``first`` on (only those later than ``after``
    when given), strictly increasing, without end."""
    # compared in UTC: two datetimes of one tzinfo compare by wall time alone
    previous = None if after is None else after.astimezone(_UTC)
    dates = slot_dates(calendar, first)  # refuses a regular series (the only one without a time)
    time = calendar.time or dt.time(0)
    for date in dates:
        start = local_start(date, time, calendar.zone)
        if start.date() != date:
            continue  # a gap pushed it to the next day: that day has no such time
        instant = start.astimezone(_UTC)
        if previous is not None and instant <= previous:
            continue  # not later than ``after``
        previous = instant
        yield start


def _count(count: int) -> int:
    if not 1 <= count <= MAX_SLOTS:
        raise RuleError("count {count}: between 1 and {most} slots", count=count, most=MAX_SLOTS)
    return count


def slots(calendar: SeriesCalendar, first: dt.date, count: int) -> tuple[dt.datetime, ...]:
    """The next ``count`` slots on or after the local date ``first``."""
    _count(count)
    found: list[dt.datetime] = []
    for start in upcoming(calendar, first):
        found.append(start)
        if len(found) == count:
            break
    return tuple(found)


def slots_after(
    calendar: SeriesCalendar, moment: dt.datetime, count: int = 1
) -> tuple[dt.datetime, ...]:
    """The next ``count`` slots strictly after the instant ``moment`` (aware)."""
    _aware(moment, "moment")
    _count(count)
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise _outside()
    first = moment.astimezone(calendar.zone).date() - dt.timedelta(days=1)
    found: list[dt.datetime] = []
    for start in upcoming(calendar, first, after=moment):
        found.append(start)
        if len(found) == count:
            break
    return tuple(found)


def next_slot(calendar: SeriesCalendar, moment: dt.datetime) -> dt.datetime:
    """The first slot strictly after ``moment`` (the seed's "next slot of the series")."""
    return slots_after(calendar, moment, 1)[0]


def postponed_start(
    calendar: SeriesCalendar,
    start: dt.datetime,
    *,
    regular_delay: dt.timedelta = REGULAR_POSTPONEMENT,
) -> dt.datetime:
    """Where a start moves when too few registered: the next slot after it;
    a ``regular`` series (no slots) moves by ``regular_delay``, at the same wall time.

    >>> from zoneinfo import ZoneInfo
    >>> zone = ZoneInfo("Europe/Moscow")
    >>> work = SeriesCalendar(CalendarKind.WORKDAYS, dt.time(19), zone)
    >>> postponed_start(work, dt.datetime(2026, 12, 4, 19, tzinfo=zone)).isoformat()
    '2026-12-07T19:00:00+03:00'
    """
    _aware(start, "start")
    if calendar.kind is CalendarKind.REGULAR:
        if regular_delay <= dt.timedelta(0):
            raise RuleError("a postponement moves the start later")
        if regular_delay % dt.timedelta(days=1):
            return (start.astimezone(_UTC) + regular_delay).astimezone(calendar.zone)
        local = start.astimezone(calendar.zone)  # whole days: the same wall time
        return local_start(local.date() + regular_delay, local.time(), calendar.zone)
    return next_slot(calendar, start)


def _aware(moment: dt.datetime, name: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise RuleError(
            "{name} {moment}: a moment needs its time zone", name=name, moment=moment.isoformat()
        )
