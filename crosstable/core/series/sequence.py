"""The sequence of a series' editions: when the next edition starts.

:mod:`crosstable.core.series.calendar` gives a series' *slots*: every day an edition
may start on, including the days a postponed start moves to ("the next
weekend day", "the next workday"). The *editions* follow seed 002's five kinds:

* ``weekend`` — «турнир проводится в субботу или воскресенье. Следующий турнир
  стартует соответственно в следующую субботу (или воскресенье)»: an edition is
  played on the series' weekend day (Saturday or Sunday) and the next one on the
  same day a week later. The weekend day is the calendar's ``weekday`` (5 or 6),
  chosen when the series is created or fixed when it starts (the day of its first
  edition's start, like the start time). A postponed start still moves to the next
  weekend day (a Saturday's to Sunday), and the next edition is again on the
  series' day after it;
* ``workdays`` — «аналогичен турниру выходного дня за исключением того, что
  проводится с понедельника по пятницу»: the daily tournament, an edition every
  Monday to Friday;
* ``weekly`` — on the chosen weekday; ``monthly`` — on the chosen day of the month
  (the month's last day when it is shorter);
* ``regular`` — «каждый последующий турнир создается сразу же после окончания
  предыдущего»: the next edition is created the moment the previous one ends.
  Without a time of day it starts a day later (the registration window, and the
  step a regular series' start moves by); with a time of day it starts at that
  wall-clock time on the first day whose registration deadline is still ahead.

Every start is a local wall-clock time with the zone's offset of that day, read
as :func:`~crosstable.core.series.calendar.local_start` reads daylight saving.

>>> from zoneinfo import ZoneInfo
>>> saturdays = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), ZoneInfo("Europe/Moscow"), 5)
>>> [s.date().isoformat() for s in edition_slots(saturdays, dt.date(2026, 12, 1), 3)]
['2026-12-05', '2026-12-12', '2026-12-19']
>>> next_edition_start(saturdays, dt.datetime(2026, 12, 5, 18, tzinfo=ZoneInfo("Europe/Moscow")))
datetime.datetime(2026, 12, 12, 18, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Moscow'))
"""

from __future__ import annotations

import datetime as dt

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import (
    FIRST_YEAR,
    LAST_YEAR,
    REGULAR_POSTPONEMENT,
    CalendarKind,
    SeriesCalendar,
    local_start,
    postponed_start,
    slots,
    slots_after,
)

#: how long a regular series without a time of day waits between the end of an
#: edition and the start of the next (its registration window)
REGULAR_GAP = REGULAR_POSTPONEMENT

_MINUTE = dt.timedelta(minutes=1)


def edition_calendar(calendar: SeriesCalendar) -> SeriesCalendar:
    """The calendar whose slots are the editions' starts: a weekend series with its
    weekend day plays on that day every week; every other calendar is its own
    (a weekend series whose day is not fixed yet may start on either day)."""
    if calendar.kind is CalendarKind.WEEKEND and calendar.weekday is not None:
        return SeriesCalendar(CalendarKind.WEEKLY, calendar.time, calendar.zone, calendar.weekday)
    return calendar


def with_weekend_day(calendar: SeriesCalendar, start: dt.datetime) -> SeriesCalendar:
    """A weekend series whose day is not fixed yet gets the weekend day of ``start``
    (its first edition's start); any other calendar is returned as it is."""
    if calendar.kind is not CalendarKind.WEEKEND or calendar.weekday is not None:
        return calendar
    day = start.astimezone(calendar.zone).weekday()
    if day < 5:
        raise RuleError("a weekend series starts on Saturday or on Sunday")
    return SeriesCalendar(CalendarKind.WEEKEND, calendar.time, calendar.zone, day)


def edition_slots(calendar: SeriesCalendar, first: dt.date, count: int) -> tuple[dt.datetime, ...]:
    """The next ``count`` edition starts on or after the local date ``first``."""
    return slots(edition_calendar(calendar), first, count)


def next_edition_start(calendar: SeriesCalendar, after: dt.datetime) -> dt.datetime:
    """The first edition start strictly after the instant ``after`` (a calendar kind;
    a regular series' editions follow the end of the previous: :func:`regular_start`)."""
    return slots_after(edition_calendar(calendar), after, 1)[0]


def regular_start(
    calendar: SeriesCalendar, ended: dt.datetime, lead: dt.timedelta = dt.timedelta(0)
) -> dt.datetime:
    """When a regular series' next edition starts, created at ``ended`` (the previous
    edition's end) with registration closing ``lead`` before the start.

    Without a time of day: :data:`REGULAR_GAP` (a day) after ``ended``, at the same
    wall-clock time, and at least the lead and a minute after ``ended``. With a time
    of day: that wall-clock time on the first day on which the deadline (start −
    lead) is still after ``ended``.

    >>> from zoneinfo import ZoneInfo
    >>> berlin = ZoneInfo("Europe/Berlin")
    >>> timed = SeriesCalendar(CalendarKind.REGULAR, dt.time(19), berlin)
    >>> regular_start(timed, dt.datetime(2027, 3, 27, 18, 30, tzinfo=berlin), dt.timedelta(hours=1))
    datetime.datetime(2027, 3, 28, 19, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Berlin'))
    >>> untimed = SeriesCalendar(CalendarKind.REGULAR, None, berlin)
    >>> regular_start(untimed, dt.datetime(2027, 3, 27, 18, 30, tzinfo=berlin)).isoformat()
    '2027-03-28T18:30:00+02:00'
    """
    if calendar.kind is not CalendarKind.REGULAR:
        raise RuleError("only a regular series starts when the previous edition ends")
    if ended.tzinfo is None or ended.utcoffset() is None:
        raise RuleError("{moment}: a moment needs its time zone", moment=ended.isoformat())
    if lead < dt.timedelta(0):
        raise RuleError("a registration deadline comes before the start")
    earliest = ended.astimezone(dt.UTC) + lead
    if calendar.time is None:  # a day later at the same wall time (as a postponement)
        later = postponed_start(calendar, ended, regular_delay=REGULAR_GAP)
        # compared in UTC: two datetimes of one tzinfo compare by wall time alone
        return max(later.astimezone(dt.UTC), earliest + _MINUTE).astimezone(calendar.zone)
    day = earliest.astimezone(calendar.zone).date() - dt.timedelta(days=1)
    for _ in range(4):  # the time comes back within two days (a day a zone skips: three)
        if not FIRST_YEAR <= day.year <= LAST_YEAR:
            break
        start = local_start(day, calendar.time, calendar.zone)
        if start.date() == day and start.astimezone(dt.UTC) > earliest:
            return start
        day += dt.timedelta(days=1)
    raise RuleError(
        "the calendar covers the years {first} to {last}", first=FIRST_YEAR, last=LAST_YEAR
    )
