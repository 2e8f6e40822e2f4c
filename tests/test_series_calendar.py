"""A series' calendar slots (SPEC R-SE-1, R-SE-3; issue 11), checked against a day-by-day walk.

The property: for every kind, zone, wall time and first day, the slots of a whole
year are exactly the allowed days of that year, each at the wall time with that
day's UTC offset (or, on a spring-forward day whose gap swallows the time, moved
forward by the gap), strictly increasing, none skipped.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import (
    MAX_SLOTS,
    CalendarKind,
    SeriesCalendar,
    local_start,
    next_slot,
    postponed_start,
    slots,
    slots_after,
    weekday_number,
)

UTC = dt.UTC
ZONES = ("Europe/Moscow", "Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC")


def allowed(kind: CalendarKind, day: dt.date, weekday: int | None, mday: int | None) -> bool:
    """The brute-force reading of SPEC R-SE-1 (independent of the module's own)."""
    if kind is CalendarKind.WEEKEND:
        return day.isoweekday() in (6, 7)
    if kind is CalendarKind.WORKDAYS:
        return day.isoweekday() <= 5
    if kind is CalendarKind.WEEKLY:
        return day.weekday() == weekday
    assert mday is not None
    first_of_next = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    last = (first_of_next - dt.timedelta(days=1)).day
    return day.day == (mday if mday <= last else last)


def exists(day: dt.date, time: dt.time, zone: ZoneInfo) -> bool:
    """Whether the wall time happens on that day (not in a spring-forward gap)."""
    naive = dt.datetime.combine(day, time)
    back = naive.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
    return back.replace(tzinfo=None) == naive


def check_slot(slot: dt.datetime, day: dt.date, time: dt.time, zone: ZoneInfo) -> None:
    local = slot.astimezone(zone)
    naive = dt.datetime.combine(day, time)
    if exists(day, time, zone):
        assert local.replace(tzinfo=None) == naive  # at the wall time…
        first = min(  # …and its first occurrence when the hour repeats
            naive.replace(tzinfo=zone, fold=f).astimezone(UTC) for f in (0, 1)
        )
        assert slot.astimezone(UTC) == first
    else:  # moved forward by the gap: the instant of the offset before the change
        before = naive.replace(tzinfo=zone).utcoffset()
        assert before is not None
        assert slot.astimezone(UTC) == (naive - before).replace(tzinfo=UTC)
        assert local.replace(tzinfo=None) > naive
    assert slot.utcoffset() == zone.utcoffset(slot.replace(tzinfo=None))


calendars = st.builds(
    lambda kind, weekday, mday, hour, minute, zone: SeriesCalendar(
        kind,
        dt.time(hour, minute),
        ZoneInfo(zone),
        weekday if kind is CalendarKind.WEEKLY else None,
        mday if kind is CalendarKind.MONTHLY else None,
    ),
    st.sampled_from([k for k in CalendarKind if k is not CalendarKind.REGULAR]),
    st.integers(0, 6),
    st.sampled_from([1, 15, 28, 29, 30, 31]) | st.integers(1, 31),
    st.sampled_from([0, 1, 2, 3, 12, 18, 23]) | st.integers(0, 23),
    st.sampled_from([0, 30, 59]),
    st.sampled_from(ZONES),
)


@settings(max_examples=120, deadline=None)
@given(calendars, st.dates(dt.date(2020, 1, 1), dt.date(2035, 12, 31)))
def test_a_year_of_slots_is_the_day_by_day_walk(cal: SeriesCalendar, first: dt.date) -> None:
    assert isinstance(cal.zone, ZoneInfo)
    year = [first + dt.timedelta(days=k) for k in range(366)]
    expected = [d for d in year if allowed(cal.kind, d, cal.weekday, cal.day)]
    found = slots(cal, first, len(expected))
    assert len(found) == len(expected)
    for slot, day in zip(found, expected, strict=True):
        check_slot(slot, day, cal.time, cal.zone)
    instants = [s.astimezone(UTC) for s in found]
    assert instants == sorted(set(instants))  # strictly increasing
    # the next slot after the year's last is the first allowed day after the year
    after = next_slot(cal, found[-1])
    later = next(
        d
        for d in (year[-1] + dt.timedelta(days=k) for k in range(1, 40))
        if allowed(cal.kind, d, cal.weekday, cal.day)
    )
    check_slot(after, later, cal.time, cal.zone)


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("kind", [k for k in CalendarKind if k is not CalendarKind.REGULAR])
def test_every_kind_over_2027_at_the_changeover_times(zone: str, kind: CalendarKind) -> None:
    """Deterministic: 2027 with the times the DST changes touch (every zone's gap and
    repeated hour fall on a Sunday between 01:00 and 03:00) and an evening time."""
    for time in (dt.time(1, 30), dt.time(2, 30), dt.time(18)):
        for weekday, mday in ((6, None), (6, 31)) if kind is CalendarKind.MONTHLY else ((6, None),):
            cal = SeriesCalendar(
                kind,
                time,
                ZoneInfo(zone),
                weekday if kind is CalendarKind.WEEKLY else None,
                (mday or 28) if kind is CalendarKind.MONTHLY else None,
            )
            first = dt.date(2027, 1, 1)
            year = [first + dt.timedelta(days=k) for k in range(365)]
            expected = [d for d in year if allowed(kind, d, cal.weekday, cal.day)]
            found = slots(cal, first, len(expected))
            for slot, day in zip(found, expected, strict=True):
                check_slot(slot, day, time, ZoneInfo(zone))
            instants = [x.astimezone(UTC) for x in found]
            assert instants == sorted(set(instants))


@settings(max_examples=60, deadline=None)
@given(calendars, st.datetimes(dt.datetime(2024, 1, 1), dt.datetime(2030, 1, 1)))
def test_slots_after_a_moment_are_the_first_later_ones(
    cal: SeriesCalendar, moment: dt.datetime
) -> None:
    instant = moment.replace(tzinfo=UTC)
    found = slots_after(cal, instant, 5)
    start = instant.astimezone(cal.zone).date() - dt.timedelta(days=2)
    walk = [s for s in slots(cal, start, 40) if s > instant][:5]
    assert found == tuple(walk)
    assert all(s > instant for s in found)


def test_spring_forward_gap_moves_forward_fall_back_takes_the_first() -> None:
    berlin, york, sydney = (
        ZoneInfo(z) for z in ("Europe/Berlin", "America/New_York", "Australia/Sydney")
    )
    # 02:30 does not exist on these days: moved forward by the hour of the gap
    assert local_start(dt.date(2027, 3, 28), dt.time(2, 30), berlin).isoformat() == (
        "2027-03-28T03:30:00+02:00"
    )
    assert local_start(dt.date(2027, 3, 14), dt.time(2, 30), york).isoformat() == (
        "2027-03-14T03:30:00-04:00"
    )
    assert local_start(dt.date(2026, 10, 4), dt.time(2, 30), sydney).isoformat() == (
        "2026-10-04T03:30:00+11:00"
    )
    # 01:30 happens twice in New York on 2026-11-01: the first time, still EDT
    assert local_start(dt.date(2026, 11, 1), dt.time(1, 30), york).isoformat() == (
        "2026-11-01T01:30:00-04:00"
    )
    # Sydney falls back on 2027-04-04 at 03:00: 02:30 is the first (daylight) one
    assert local_start(dt.date(2027, 4, 4), dt.time(2, 30), sydney).isoformat() == (
        "2027-04-04T02:30:00+11:00"
    )


def test_offset_follows_daylight_saving_moscow_has_none() -> None:
    york = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), ZoneInfo("America/New_York"))
    offsets = {s.utcoffset() for s in slots(york, dt.date(2027, 1, 1), 104)}
    assert offsets == {dt.timedelta(hours=-5), dt.timedelta(hours=-4)}
    moscow = SeriesCalendar(CalendarKind.WORKDAYS, dt.time(19), ZoneInfo("Europe/Moscow"))
    assert {s.utcoffset() for s in slots(moscow, dt.date(2027, 1, 1), 260)} == {
        dt.timedelta(hours=3)
    }


def test_monthly_on_the_31st_uses_the_months_last_day() -> None:
    cal = SeriesCalendar(CalendarKind.MONTHLY, dt.time(12), ZoneInfo("Europe/Moscow"), day=31)
    days = [s.date().isoformat() for s in slots(cal, dt.date(2028, 1, 1), 12)]
    assert days[:6] == [
        "2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31", "2028-06-30"
    ]  # fmt: skip
    cal30 = SeriesCalendar(CalendarKind.MONTHLY, dt.time(12), ZoneInfo("UTC"), day=30)
    assert [s.day for s in slots(cal30, dt.date(2027, 2, 1), 2)] == [28, 30]
    # on or after --from: the 31st slot of January 2028 is skipped from the 31st's next day
    assert slots(cal, dt.date(2028, 2, 1), 1)[0].date() == dt.date(2028, 2, 29)


def test_a_day_the_zone_skips_has_no_slot() -> None:
    # Samoa crossed the date line: 30 December 2011 never happened in Pacific/Apia
    apia = SeriesCalendar(CalendarKind.WORKDAYS, dt.time(18), ZoneInfo("Pacific/Apia"))
    found = slots(apia, dt.date(2011, 12, 28), 4)
    assert [s.date().isoformat() for s in found] == [
        "2011-12-28", "2011-12-29", "2012-01-02", "2012-01-03"
    ]  # fmt: skip
    instants = [s.astimezone(UTC) for s in found]
    assert instants == sorted(set(instants))


def test_postponement_goes_to_the_next_slot() -> None:
    zone = ZoneInfo("Europe/Berlin")
    weekend = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone)
    saturday = dt.datetime(2026, 12, 5, 18, tzinfo=zone)
    assert postponed_start(weekend, saturday) == dt.datetime(2026, 12, 6, 18, tzinfo=zone)
    sunday = dt.datetime(2026, 12, 6, 18, tzinfo=zone)
    assert postponed_start(weekend, sunday) == dt.datetime(2026, 12, 12, 18, tzinfo=zone)
    weekly = SeriesCalendar(CalendarKind.WEEKLY, dt.time(18), zone, weekday=2)
    assert postponed_start(weekly, dt.datetime(2026, 12, 2, 18, tzinfo=zone)).day == 9
    monthly = SeriesCalendar(CalendarKind.MONTHLY, dt.time(18), zone, day=31)
    moved = postponed_start(monthly, dt.datetime(2027, 1, 31, 18, tzinfo=zone))
    assert moved.isoformat() == "2027-02-28T18:00:00+01:00"
    # a regular series has no slot: one day later at the same wall time, across DST
    regular = SeriesCalendar(CalendarKind.REGULAR, dt.time(18), zone)
    moved = postponed_start(regular, dt.datetime(2027, 3, 27, 20, 15, tzinfo=zone))
    assert moved.isoformat() == "2027-03-28T20:15:00+02:00"
    hours = postponed_start(
        regular, dt.datetime(2027, 3, 27, 20, tzinfo=zone), regular_delay=dt.timedelta(hours=30)
    )
    assert hours.astimezone(UTC) == dt.datetime(2027, 3, 29, 1, tzinfo=UTC)


def test_bad_calendars_and_requests_are_refused() -> None:
    zone = ZoneInfo("UTC")
    with pytest.raises(RuleError, match="weekly series needs its weekday"):
        SeriesCalendar(CalendarKind.WEEKLY, dt.time(18), zone)
    with pytest.raises(RuleError, match="only a monthly series has a day of the month"):
        SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone, day=3)
    with pytest.raises(RuleError, match="only a weekly series has a weekday"):
        SeriesCalendar(CalendarKind.MONTHLY, dt.time(18), zone, weekday=1, day=1)
    with pytest.raises(RuleError, match="day 32"):
        SeriesCalendar(CalendarKind.MONTHLY, dt.time(18), zone, day=32)
    with pytest.raises(RuleError, match="day 0"):
        SeriesCalendar(CalendarKind.MONTHLY, dt.time(18), zone, day=0)
    with pytest.raises(RuleError, match="wall-clock time"):
        SeriesCalendar(CalendarKind.WEEKEND, dt.time(18, tzinfo=UTC), zone)
    regular = SeriesCalendar(CalendarKind.REGULAR, dt.time(18), zone)
    with pytest.raises(RuleError, match="regular series has no calendar slots"):
        slots(regular, dt.date(2026, 1, 1), 3)
    weekend = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone)
    for count in (0, MAX_SLOTS + 1):
        with pytest.raises(RuleError, match=f"count {count}"):
            slots(weekend, dt.date(2026, 1, 1), count)
    for first in (dt.date(9998, 12, 1), dt.date(9999, 1, 1), dt.date(1, 1, 1)):
        with pytest.raises(RuleError, match="the calendar covers the years 1900 to 9998"):
            slots(weekend, first, 100)
    with pytest.raises(RuleError, match="covers the years 1900 to 9998"):
        next_slot(weekend, dt.datetime(1, 1, 1, tzinfo=UTC))
    assert slots(weekend, dt.date(9998, 12, 26), 2)[-1].year == 9998
    with pytest.raises(RuleError, match="needs its time zone"):
        next_slot(weekend, dt.datetime(2026, 1, 1))
    assert weekday_number("MON") == 0 and weekday_number("friday") == 4
    with pytest.raises(RuleError, match="weekday 'fr'"):
        weekday_number("fr")
    assert len(slots(weekend, dt.date(2026, 1, 1), MAX_SLOTS)) == MAX_SLOTS
