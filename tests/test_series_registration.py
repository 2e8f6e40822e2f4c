"""Registration for a series' editions (SPEC R-SE-2, R-SE-3, R-SE-7; issue 11).

How "the last table" is read (docs/series.md): entries fill tables of the
maximum group size in registration order; the last table is the one the latest
entries are in. Registration of an edition without pre-registration is extended
while fewer than 60 % of its places are taken, by one week at most in all.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import CalendarKind, SeriesCalendar
from crosstable.core.series.registration import (
    LATER_STAGE_WINDOW,
    MAX_EXTENSION,
    RegistrationPhase,
    class_tournament_runs,
    last_table,
    last_table_short,
    later_stage_open,
    may_petition,
    may_withdraw,
    stage_one_registration,
    start_decision,
)

ZONE = ZoneInfo("Europe/Moscow")
DEADLINE = dt.datetime(2026, 12, 4, 17, tzinfo=ZONE)  # a Friday
HOUR = dt.timedelta(hours=1)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5000), st.integers(3, 40))
def test_last_table_is_the_one_the_latest_entries_fill(entries: int, size: int) -> None:
    taken, places = last_table(entries, size)
    assert places == size and 0 <= taken <= size
    # brute force: seat the entries one by one, a new table when the current one is full
    tables: list[int] = []
    for _ in range(entries):
        if not tables or tables[-1] == size:
            tables.append(0)
        tables[-1] += 1
    assert taken == (tables[-1] if tables else 0)
    assert last_table_short(entries, size) == (taken * 100 < 60 * size)


def test_the_sixty_percent_line() -> None:
    # tables of 10: 6 at the last table is 60 % — enough; 5 is short
    assert last_table(23, 10) == (3, 10) and last_table_short(23, 10)
    assert last_table(25, 10) == (5, 10) and last_table_short(25, 10)
    assert last_table(26, 10) == (6, 10) and not last_table_short(26, 10)
    assert last_table(30, 10) == (10, 10) and not last_table_short(30, 10)
    assert last_table(31, 10) == (1, 10) and last_table_short(31, 10)
    assert last_table_short(0, 10)
    # tables of 8: 60 % is 4.8 places, so 4 is short and 5 is not (exact, no rounding)
    assert last_table_short(12, 8) and not last_table_short(13, 8)
    with pytest.raises(RuleError, match="never negative"):
        last_table(-1, 10)


def test_before_the_deadline_open() -> None:
    state = stage_one_registration(DEADLINE - HOUR, DEADLINE, 3, pre_registration=True)
    assert state.phase is RegistrationPhase.OPEN and state.closes == DEADLINE
    assert state.is_open


def test_extended_while_the_last_table_is_short_at_most_a_week() -> None:
    # 23 entries: 3 of 10 at the last table — extended, until the deadline + one week
    after = DEADLINE + HOUR
    state = stage_one_registration(after, DEADLINE, 23, pre_registration=False)
    assert state.phase is RegistrationPhase.EXTENDED
    assert state.closes.astimezone(dt.UTC) == (DEADLINE + MAX_EXTENSION).astimezone(dt.UTC)
    # the 26th entry fills 60 %: closed
    state = stage_one_registration(after, DEADLINE, 26, pre_registration=False)
    assert state.phase is RegistrationPhase.CLOSED and not state.is_open
    # still short after the week: closed all the same
    late = DEADLINE + MAX_EXTENSION
    assert stage_one_registration(late, DEADLINE, 23, pre_registration=False).phase is (
        RegistrationPhase.CLOSED
    )
    just = late - dt.timedelta(seconds=1)
    assert stage_one_registration(just, DEADLINE, 23, pre_registration=False).is_open


def test_pre_registration_is_never_extended() -> None:
    state = stage_one_registration(DEADLINE + HOUR, DEADLINE, 3, pre_registration=True)
    assert state.phase is RegistrationPhase.CLOSED and state.closes == DEADLINE


def test_the_week_counts_from_the_first_deadline() -> None:
    # postponed: the new deadline is 3 days later, but only 4 days of extension are left
    moved = DEADLINE + dt.timedelta(days=3)
    state = stage_one_registration(
        moved + HOUR, moved, 13, pre_registration=False, first_deadline=DEADLINE
    )
    assert state.phase is RegistrationPhase.EXTENDED
    assert state.closes.astimezone(dt.UTC) == (DEADLINE + MAX_EXTENSION).astimezone(dt.UTC)
    # moved past the week: no extension at all
    far = DEADLINE + dt.timedelta(days=8)
    state = stage_one_registration(
        far + HOUR, far, 13, pre_registration=False, first_deadline=DEADLINE
    )
    assert state.phase is RegistrationPhase.CLOSED


def test_extension_across_a_daylight_saving_change_is_a_real_week() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    deadline = dt.datetime(2027, 3, 25, 12, tzinfo=berlin)  # the clocks go forward on the 28th
    state = stage_one_registration(deadline + HOUR, deadline, 3, pre_registration=False)
    assert state.closes.astimezone(dt.UTC) - deadline.astimezone(dt.UTC) == MAX_EXTENSION


def test_withdrawal_until_stage_one_starts_and_later_stage_window() -> None:
    start = DEADLINE + dt.timedelta(hours=2)
    assert may_withdraw(start - dt.timedelta(seconds=1), start)
    assert not may_withdraw(start, start)
    assert not later_stage_open(start - dt.timedelta(seconds=1), start)
    assert later_stage_open(start, start)
    assert later_stage_open(start + LATER_STAGE_WINDOW - dt.timedelta(seconds=1), start)
    assert not later_stage_open(start + LATER_STAGE_WINDOW, start)
    with pytest.raises(RuleError, match="needs its time zone"):
        later_stage_open(dt.datetime(2026, 12, 1), start)


def test_fewer_than_fifteen_move_the_start_to_the_next_slot() -> None:
    workdays = SeriesCalendar(CalendarKind.WORKDAYS, dt.time(19), ZONE)
    start = dt.datetime(2026, 12, 4, 19, tzinfo=ZONE)  # Friday
    decision = start_decision(14, start, DEADLINE, workdays)
    assert decision.postponed and not decision.starts
    assert decision.start == dt.datetime(2026, 12, 7, 19, tzinfo=ZONE)  # Monday
    assert decision.deadline == dt.datetime(2026, 12, 7, 17, tzinfo=ZONE)  # same lead
    go = start_decision(15, start, DEADLINE, workdays)
    assert go.starts and go.start == start and go.deadline == DEADLINE
    weekend = SeriesCalendar(CalendarKind.WEEKEND, dt.time(19), ZONE)
    saturday = dt.datetime(2026, 12, 5, 19, tzinfo=ZONE)
    moved = start_decision(0, saturday, saturday - HOUR, weekend)
    assert moved.start == dt.datetime(2026, 12, 6, 19, tzinfo=ZONE)
    # a lead of 24 real hours stays 24 hours across the spring-forward night
    berlin = ZoneInfo("Europe/Berlin")
    daily = SeriesCalendar(CalendarKind.WEEKEND, dt.time(19), berlin)
    sat = dt.datetime(2027, 3, 27, 19, tzinfo=berlin)
    moved = start_decision(3, sat, sat - dt.timedelta(hours=24), daily)
    assert moved.start.isoformat() == "2027-03-28T19:00:00+02:00"
    assert moved.start.astimezone(dt.UTC) - moved.deadline.astimezone(dt.UTC) == (
        dt.timedelta(hours=24)
    )
    with pytest.raises(RuleError, match="never negative"):
        start_decision(-1, start, DEADLINE, workdays)


def test_class_tournaments_need_eleven() -> None:
    assert not class_tournament_runs(10) and class_tournament_runs(11)
    assert not may_petition(10) and may_petition(11)
