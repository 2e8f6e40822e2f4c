"""A year of a series' editions for each kind (SPEC R-SE-1, R-SE-3, R-X-16; issue 28
item 1), read as seed 002 says: a weekend edition on the series' Saturday (or Sunday)
and the next on the same day a week later, workdays Monday to Friday, weekly on the
chosen weekday, monthly on the chosen day (the last day of a shorter month), regular
as soon as the previous edition ends (at the series' time of day when it has one); a
postponed start moves to the next slot of the kind. In Europe/Moscow (no daylight
saving) and Europe/Berlin and America/New_York (two changes a year); the expected
days come from a day-by-day walk (test_series_calendar.allowed/check_slot), not from
the module. Then the service: the injected clock moved through editions with the
tick (what ``crosstable tick`` runs), and the CLI's ``series slots``."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import json
import random
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_series_calendar import allowed, check_slot
from test_series_cli import run
from test_series_service import current_groups, play_all
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import CalendarKind, SeriesCalendar, postponed_start
from crosstable.core.series.sequence import (
    edition_slots,
    next_edition_start,
    regular_start,
    with_weekend_day,
)
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import Store
from crosstable.store.series_models import SeriesRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

UTC = dt.UTC
ZONES = ("Europe/Moscow", "Europe/Berlin", "America/New_York")
#: an evening, and the times the spring gap and the autumn repeat touch (Sunday nights)
TIMES = (dt.time(18), dt.time(2, 30), dt.time(1, 30))
YEAR = [dt.date(2027, 1, 1) + dt.timedelta(days=k) for k in range(365)]
SAT, SUN = 5, 6


def run_year(cal: SeriesCalendar, postpone_every: int = 0) -> list[tuple[dt.datetime, bool]]:
    """Every edition's (actual start, postponed) over 2027: each next edition at the
    first edition slot after the previous one's actual start; every ``postpone_every``-th
    edition is short of players once and moves to the next slot (R-SE-3)."""
    found: list[tuple[dt.datetime, bool]] = []
    start = edition_slots(cal, YEAR[0], 1)[0]
    while start.astimezone(cal.zone).date() <= YEAR[-1]:
        postponed = bool(postpone_every) and len(found) % postpone_every == postpone_every - 1
        actual = postponed_start(cal, start) if postponed else start
        found.append((actual, postponed))
        start = next_edition_start(cal, actual)
    return found


def local_dates(starts: list[tuple[dt.datetime, bool]], zone: ZoneInfo) -> list[dt.date]:
    return [start.astimezone(zone).date() for start, _ in starts]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("time", TIMES)
@pytest.mark.parametrize("weekday", [SAT, SUN])
def test_r_se_1_a_weekend_series_plays_its_day_every_week(
    zone: str, time: dt.time, weekday: int
) -> None:
    tz = ZoneInfo(zone)
    cal = SeriesCalendar(CalendarKind.WEEKEND, time, tz, weekday)
    starts = run_year(cal)
    expected = [d for d in YEAR if d.weekday() == weekday]
    assert local_dates(starts, tz) == expected  # never the very next day
    assert len(expected) == 52 and not any(p for _, p in starts)
    for (start, _), day in zip(starts, expected, strict=True):
        check_slot(start, day, time, tz)


@pytest.mark.parametrize("zone", ZONES)
def test_r_se_3_a_postponed_weekend_start_moves_to_the_next_weekend_day(zone: str) -> None:
    tz = ZoneInfo(zone)
    for weekday, moved_to in ((SAT, SUN), (SUN, SAT)):
        cal = SeriesCalendar(CalendarKind.WEEKEND, dt.time(2, 30), tz, weekday)
        starts = run_year(cal, postpone_every=3)
        for start, postponed in starts:
            day = start.astimezone(tz).date()
            assert day.weekday() == (moved_to if postponed else weekday)
            check_slot(start, day, dt.time(2, 30), tz)
            # the next edition is again on the series' day, the first one after this start
            planned = next_edition_start(cal, start).astimezone(tz)
            assert planned.weekday() == weekday
            gap = (planned.date() - day).days
            assert gap == (7 if not postponed else 6 if weekday == SAT else 1)
        # a Saturday series postponed: Sunday, then Saturday; a Sunday one: Saturday, Sunday
        assert sum(p for _, p in starts) == len(starts) // 3


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("time", TIMES)
def test_r_se_1_workdays_weekly_and_monthly_over_a_year(zone: str, time: dt.time) -> None:
    tz = ZoneInfo(zone)
    kinds = [
        (CalendarKind.WORKDAYS, None, None),
        *((CalendarKind.WEEKLY, weekday, None) for weekday in (2, 6)),
        *((CalendarKind.MONTHLY, None, day) for day in (1, 29, 30, 31)),
    ]
    for kind, weekday, day in kinds:
        cal = SeriesCalendar(kind, time, tz, weekday, day)
        starts = run_year(cal)
        expected = [d for d in YEAR if allowed(kind, d, weekday, day)]
        assert local_dates(starts, tz) == expected, (kind, weekday, day)
        for (start, _), date in zip(starts, expected, strict=True):
            check_slot(start, date, time, tz)
    workdays = run_year(SeriesCalendar(CalendarKind.WORKDAYS, time, tz))
    assert len(workdays) == 261  # every Monday to Friday of 2027
    monthly = local_dates(run_year(SeriesCalendar(CalendarKind.MONTHLY, time, tz, day=29)), tz)
    assert monthly[1] == dt.date(2027, 2, 28) and len(monthly) == 12


@pytest.mark.parametrize("zone", ZONES)
def test_r_se_3_postponements_move_to_the_next_slot_of_the_kind(zone: str) -> None:
    tz = ZoneInfo(zone)
    for kind, weekday, day in (
        (CalendarKind.WORKDAYS, None, None),
        (CalendarKind.WEEKLY, 4, None),
        (CalendarKind.MONTHLY, None, 31),
    ):
        cal = SeriesCalendar(kind, dt.time(2, 30), tz, weekday, day)
        starts = run_year(cal, postpone_every=2)
        allowed_days = [d for d in YEAR if allowed(kind, d, weekday, day)]
        dates = local_dates(starts, tz)
        # every edition on a slot day of the kind; a postponed one a slot after its
        # planned day (the slot after its predecessor's), the next one the slot after it
        places = [allowed_days.index(d) for d in dates if d <= YEAR[-1]]
        steps = [b - a for a, b in zip([-1, *places], places, strict=False)]
        assert steps == [2 if p else 1 for _, p in starts[: len(places)]]
        assert sum(p for _, p in starts) == len(starts) // 2
        for (start, _), date in zip(starts, dates, strict=True):
            check_slot(start, date, dt.time(2, 30), tz)
    friday = SeriesCalendar(CalendarKind.WORKDAYS, dt.time(19), tz)
    moved = postponed_start(friday, dt.datetime(2027, 3, 26, 19, tzinfo=tz))
    assert moved.astimezone(tz).date() == dt.date(2027, 3, 29)  # Friday → Monday


def regular_year(
    cal: SeriesCalendar, lead: dt.timedelta, rng: random.Random
) -> list[tuple[dt.datetime, dt.datetime]]:
    """A year of a regular series: each edition lasts 1 to 60 hours; (end, next start)."""
    found = []
    start = regular_start(cal, dt.datetime(2027, 1, 1, 9, tzinfo=cal.zone), lead)
    while start.year == 2027:
        ended = start + dt.timedelta(minutes=rng.randint(60, 3600))
        start = regular_start(cal, ended, lead)
        found.append((ended, start))
    return found


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("time", [dt.time(19), dt.time(2, 30), dt.time(1, 30)])
def test_r_se_1_a_regular_series_with_a_time_of_day(zone: str, time: dt.time) -> None:
    tz = ZoneInfo(zone)
    cal = SeriesCalendar(CalendarKind.REGULAR, time, tz)
    lead = dt.timedelta(hours=1)
    pairs = regular_year(cal, lead, random.Random(zone + str(time)))
    assert len(pairs) > 100
    for ended, start in pairs:
        day = start.astimezone(tz).date()
        check_slot(start, day, time, tz)  # at the time of day, DST read as the slots are
        # registration open from the end until the deadline (instants: UTC)
        assert start.astimezone(UTC) - lead > ended.astimezone(UTC)
        # …and the soonest such: the time of day the day before was too early
        before = day - dt.timedelta(days=1)
        naive = dt.datetime.combine(before, time).replace(tzinfo=tz)
        assert naive.astimezone(UTC) - lead <= ended.astimezone(UTC)


@pytest.mark.parametrize("zone", ZONES)
def test_r_se_1_a_regular_series_without_a_time_of_day(zone: str) -> None:
    tz = ZoneInfo(zone)
    cal = SeriesCalendar(CalendarKind.REGULAR, None, tz)
    for lead in (dt.timedelta(0), dt.timedelta(hours=1), dt.timedelta(days=2)):
        pairs = regular_year(cal, lead, random.Random(zone))
        for ended, start in pairs:
            local_end, local_start = ended.astimezone(tz), start.astimezone(tz)
            if lead < dt.timedelta(days=1):  # a day later at the same wall-clock time
                assert local_start.date() == local_end.date() + dt.timedelta(days=1)
                moved = local_start.replace(tzinfo=None) != local_end.replace(tzinfo=None) + (
                    dt.timedelta(days=1)
                )
                assert not moved or local_start.utcoffset() != local_end.utcoffset()
            else:  # the deadline's lead and a minute
                assert start.astimezone(UTC) - ended.astimezone(UTC) == lead + dt.timedelta(
                    minutes=1
                )


def test_regular_and_weekend_rules_are_refused_where_they_do_not_apply() -> None:
    zone = ZoneInfo("Europe/Berlin")
    with pytest.raises(RuleError, match="a weekend series plays on Saturday"):
        SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone, 2)
    with pytest.raises(RuleError, match="a series needs its start time"):
        SeriesCalendar(CalendarKind.WEEKLY, None, zone, 2)
    with pytest.raises(RuleError, match="only a regular series"):
        regular_start(
            SeriesCalendar(CalendarKind.WORKDAYS, dt.time(18), zone), dt.datetime.now(UTC)
        )
    regular = SeriesCalendar(CalendarKind.REGULAR, dt.time(18), zone)
    with pytest.raises(RuleError, match="needs its time zone"):
        regular_start(regular, dt.datetime(2027, 1, 1))
    with pytest.raises(RuleError, match="deadline comes before the start"):
        regular_start(regular, dt.datetime(2027, 1, 1, tzinfo=UTC), -dt.timedelta(hours=1))
    with pytest.raises(RuleError, match="covers the years"):
        regular_start(regular, dt.datetime(9998, 12, 31, 20, tzinfo=UTC))
    weekend = SeriesCalendar(CalendarKind.WEEKEND, dt.time(18), zone)
    with pytest.raises(RuleError, match="starts on Saturday or on Sunday"):
        with_weekend_day(weekend, dt.datetime(2027, 1, 6, 18, tzinfo=zone))
    assert with_weekend_day(weekend, dt.datetime(2027, 1, 10, 18, tzinfo=zone)).weekday == SUN
    # a weekend series whose day is not fixed yet may start on either day
    assert [s.weekday() for s in edition_slots(weekend, dt.date(2027, 1, 1), 3)] == [5, 6, 5]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([SAT, SUN]),
    st.sampled_from((*ZONES, "Australia/Sydney", "UTC")),
    st.integers(0, 23),
    st.sampled_from([0, 30]),
    st.dates(dt.date(2020, 1, 1), dt.date(2035, 12, 31)),
)
def test_r_x_16_weekend_editions_are_a_week_apart_whatever_the_zone(
    weekday: int, zone: str, hour: int, minute: int, first: dt.date
) -> None:
    tz = ZoneInfo(zone)
    cal = SeriesCalendar(CalendarKind.WEEKEND, dt.time(hour, minute), tz, weekday)
    start = edition_slots(cal, first, 1)[0]
    for _ in range(53):
        after = next_edition_start(cal, start)
        assert (after.astimezone(tz).date() - start.astimezone(tz).date()).days == 7
        check_slot(after, after.astimezone(tz).date(), cal.time or dt.time(0), tz)
        start = after


# -- the service: the clock moves, the tick opens and postpones editions ------------------


def make(store: Store, now: dt.datetime, **values: object) -> tuple[Service, FixedClock, int]:
    clock = FixedClock(now)
    service = Service(store, clock=clock, random=random.Random(5))
    settings_ = {"name": "Weekend blitz", "kind": "weekend", "start_time": "18:00"} | values
    sid = service.create_series(
        SeriesSettings(  # type: ignore[arg-type]
            zone="Europe/Berlin", time_control="G/5", pre_registration=True, **settings_
        )
    )
    return service, clock, sid


def fill(service: Service, edition: int, count: int) -> None:
    for index in range(count):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + index)


def go_to(clock: FixedClock, moment: str, minutes: int = 1) -> None:
    clock.advance(dt.datetime.fromisoformat(moment) + dt.timedelta(minutes=minutes) - clock.now())


def local(moment: object) -> str:
    return dt.datetime.fromisoformat(str(moment)).astimezone(ZoneInfo("Europe/Berlin")).isoformat()


def test_r_se_1_the_tick_runs_a_weekend_series_on_saturdays_across_the_spring_change(
    store: Store,
) -> None:
    # Tuesday 16 March 2027; Berlin moves its clocks on Sunday 28 March
    service, clock, sid = make(store, dt.datetime(2027, 3, 16, 9, tzinfo=UTC))
    first = service.open_edition(sid)
    info = service.edition_info(first)
    assert local(info["planned_start"]) == "2027-03-20T18:00:00+01:00"
    with store.reading() as session:
        row = session.get(SeriesRow, sid)
        assert row is not None and row.weekday == SAT  # the day fixed when it starts
    fill(service, first, 15)
    go_to(clock, str(info["planned_start"]))
    done = service.tick()
    assert done[-1].startswith("series 1: edition 2 opened by itself")
    second = service.series_info(sid)["editions"][1]
    # the next Saturday, not the very next day (Sunday's deadline is still ahead)
    assert local(second["planned_start"]) == "2027-03-27T18:00:00+01:00"
    fill(service, second["id"], 9)  # too few: the start moves to the next weekend day
    go_to(clock, str(second["deadline"]))
    moved = service.tick()
    assert any("fewer than 15 — the start moves to 2027-03-28T18:00:00+02:00" in m for m in moved)
    second = service.edition_info(second["id"])
    assert local(second["planned_start"]) == "2027-03-28T18:00:00+02:00"  # summer time
    for index in range(9, 15):
        service.register_for_edition(second["id"], f"Player {index + 1:02d}")
    go_to(clock, str(second["planned_start"]))
    done = service.tick()
    assert done[-1].startswith("series 1: edition 3 opened by itself")
    third = service.series_info(sid)["editions"][2]
    assert local(third["planned_start"]) == "2027-04-03T18:00:00+02:00"  # Saturday again
    assert service.tick() == []  # once


def test_r_se_1_the_tick_runs_a_regular_series_at_its_time_of_day(store: Store) -> None:
    # one group of 15: stage 1 is the final, no super-final
    service, clock, sid = make(
        store,
        dt.datetime(2027, 10, 29, 9, tzinfo=UTC),
        kind="regular",
        start_time="19:00",
        max_group_size=15,
        super_final_players=0,
    )
    first = service.open_edition(sid)  # Friday 29 October, 19:00 (deadline 18:00 ahead)
    info = service.edition_info(first)
    assert local(info["planned_start"]) == "2027-10-29T19:00:00+02:00"
    fill(service, first, 15)
    go_to(clock, str(info["planned_start"]))
    service.tick()
    assert len(service.series_info(sid)["editions"]) == 1  # running: not yet
    _kind, tids = current_groups(store, first)
    play_all(service, tids, random.Random(2))
    go_to(clock, "2027-10-30T16:30:00+00:00", minutes=0)  # 18:30: today's deadline passed
    done = service.tick()
    assert done[0].endswith("the edition is finished")
    second = service.series_info(sid)["editions"][1]
    # Berlin falls back on Sunday 31 October: 19:00 that day is winter time
    assert local(second["planned_start"]) == "2027-10-31T19:00:00+01:00"
    assert local(second["deadline"]) == "2027-10-31T18:00:00+01:00"


def test_the_cli_shows_the_weekend_sequence(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("series", "slots", "--kind", "weekend", "--time", "02:30", "--tz", "Europe/Berlin")
    code, out, err = run(
        capsys, *base, "--weekday", "sun", "--from", "2027-03-20", "--count", "3", "-f", "json"
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["slots"] == [
        "2027-03-21T02:30:00+01:00",
        "2027-03-28T03:30:00+02:00",
        "2027-04-04T02:30:00+02:00",
    ]
    cal = SeriesCalendar(CalendarKind.WEEKEND, dt.time(2, 30), ZoneInfo("Europe/Berlin"), SUN)
    shown = [dt.datetime.fromisoformat(s) for s in json.loads(out)["slots"]]
    assert shown == list(edition_slots(cal, dt.date(2027, 3, 20), 3))
    code, out, err = run(capsys, *base, "--weekday", "mon", "--from", "2027-03-20", "-n", "3")
    assert code == 2
    assert "--weekday: a weekend series plays on sat or sun, not 'mon'" in err


def test_the_cli_creates_a_regular_series_without_a_time_of_day_and_a_sunday_series(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    db = f"{tmp_path}/series.db"
    common = ("--tz", "Europe/Berlin", "--db", db, "--now", "2027-10-29T11:00:00+02:00")
    code, out, err = run(
        capsys, "series", "create", "R", "--kind", "regular", "--time", "", *common
    )
    assert (code, err) == (0, "")
    assert "starts 2027-10-30T09:00:00+00:00" in out  # a day later, the same wall time
    code, out, err = run(
        capsys, "series", "create", "W", "--kind", "weekend", "--weekday", "sun",
        "--time", "18:00", *common,
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert "starts 2027-10-31T17:00:00+00:00" in out  # Sunday, not Saturday the 30th
    code, out, err = run(capsys, "series", "create", "X", "--kind", "weekly", "--weekday",
                         "sun", "--time", "", *common)  # fmt: skip
    assert code == 2 and "--time: '' is not a time HH:MM" in err


@pytest.mark.parametrize(
    ("values", "english", "russian"),
    [
        ({"weekday": 6}, "Every week on Sunday at 18:00", "воскресенье"),
        ({}, "On Saturday or Sunday at 18:00, then the same day a week later", "в тот же день"),
        (
            {"kind": "regular", "start_time": "19:00"},
            "Each edition starts at 19:00 once the previous one has ended",
            "после окончания предыдущего",
        ),
    ],
)
def test_r_x_16_the_series_page_says_the_calendar_as_it_runs(
    store: Store, values: dict[str, object], english: str, russian: str
) -> None:
    service, _clock, sid = make(store, dt.datetime(2027, 3, 1, 9, 0, tzinfo=dt.UTC), **values)
    client = TestClient(create_app(service=service, listen=False))
    assert english in client.get(f"/series/{sid}").text
    assert russian in client.get(f"/series/{sid}", headers={"accept-language": "ru"}).text
