"""`crosstable series slots|groups|plan` (DESIGN.md command-line contract) and the
iCalendar feed of a series' slots, parsed back with the icalendar library."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import icalendar
import pytest

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.series.calendar import CalendarKind, SeriesCalendar, slots
from crosstable.formats.ical import series_feed, slot_uid


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


SLOTS = ("series", "slots", "--time", "18:00", "--tz", "Europe/Moscow", "--from", "2026-12-05")


def test_slots_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SLOTS, "--kind", "weekend", "--count", "4", "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "slots": [
            "2026-12-05T18:00:00+03:00",
            "2026-12-06T18:00:00+03:00",
            "2026-12-12T18:00:00+03:00",
            "2026-12-13T18:00:00+03:00",
        ]
    }


def test_slots_every_kind_and_dst(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "series", "slots", "--kind", "weekly", "--weekday", "sun", "--time", "02:30",
        "--tz", "Europe/Berlin", "--from", "2027-03-20", "--count", "3", "--format", "json",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out)["slots"] == [
        "2027-03-21T02:30:00+01:00",
        "2027-03-28T03:30:00+02:00",  # the gap: 02:30 does not exist, moved forward
        "2027-04-04T02:30:00+02:00",
    ]
    code, out, _ = run(
        capsys, "series", "slots", "--kind", "monthly", "--day", "31", "--time", "12:00",
        "--tz", "America/New_York", "--from", "2027-01-01", "--count", "4", "--format", "json",
    )  # fmt: skip
    assert json.loads(out)["slots"] == [
        "2027-01-31T12:00:00-05:00",
        "2027-02-28T12:00:00-05:00",
        "2027-03-31T12:00:00-04:00",
        "2027-04-30T12:00:00-04:00",
    ]
    code, out, _ = run(capsys, *SLOTS, "--kind", "workdays", "--count", "6", "--format", "json")
    days = [dt.datetime.fromisoformat(s).strftime("%a") for s in json.loads(out)["slots"]]
    assert days == ["Mon", "Tue", "Wed", "Thu", "Fri", "Mon"]


def test_slots_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *SLOTS, "--kind", "weekend", "--count", "2")
    assert code == 0
    assert "2026-12-05 18:00" in out and "+03:00" in out and "2026-12-05 15:00" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--kind", "weekend", "--count", "3", "--day", "3"), "--day: a weekend series has no day"),
        (
            ("--kind", "workdays", "--count", "3", "--weekday", "mon"),
            "--weekday: a workdays series",
        ),
        (("--kind", "weekly", "--count", "3"), "--weekday: a weekly series needs its weekday"),
        (("--kind", "weekly", "--weekday", "xyz", "--count", "3"), "--weekday: 'xyz' is not"),
        (("--kind", "monthly", "--count", "3"), "--day: a monthly series needs its day"),
        (("--kind", "monthly", "--day", "0", "--count", "3"), "--day: 0 is not a day of the month"),
        (("--kind", "monthly", "--day", "32", "--count", "3"), "--day: 32 is not a day"),
        (("--kind", "weekend", "--count", "0"), "--count: 0: between 1 and 1000"),
        (("--kind", "weekend", "--count", "1001"), "--count: 1001: between 1 and 1000"),
        (("--kind", "regular", "--count", "3"), "--kind: a regular series has no calendar slots"),
    ],
)
def test_slots_bad_options_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *SLOTS, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--tz", "Mars/Olympus", "--tz: unknown time zone 'Mars/Olympus'"),
        ("--tz", "../../etc/passwd", "--tz: '../../etc/passwd' is not a time zone name"),
        ("--time", "25:00", "--time: '25:00' is not a time HH:MM"),
        ("--time", "18", "--time: '18' is not a time HH:MM"),
        ("--from", "2026-02-30", "--from: '2026-02-30' is not a date YYYY-MM-DD"),
    ],
)
def test_slots_bad_values(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    args = {"--time": "18:00", "--tz": "Europe/Moscow", "--from": "2026-12-05", option: value}
    flat = [x for pair in args.items() for x in pair]
    code, out, err = run(capsys, "series", "slots", "--kind", "weekend", "--count", "2", *flat)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_groups_json_contract_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "series", "groups", "--players", "23", "--format", "json")
    assert (code, json.loads(out)) == (0, {"groups": [8, 8, 7]})
    code, out, _ = run(
        capsys, "series", "groups", "--players", "23", "--max-size", "6", "--format", "json"
    )
    assert json.loads(out) == {"groups": [6, 6, 6, 5]}
    code, out, _ = run(capsys, "series", "groups", "--players", "2000")
    assert code == 0 and "200" in out
    for args, message in [
        (("--players", "2"), "2 players: a group needs at least 3"),
        (("--players", "5", "--max-size", "4"), "5 players cannot be split into groups of 3 to 4"),
        (("--players", "20", "--max-size", "2"), "max group size 2: between 3 and 100"),
        (("--players", "-4"), "-4 players: a group needs at least 3"),
    ]:
        code, out, err = run(capsys, "series", "groups", *args)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1, err


def test_plan_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "series", "plan", "--players", "40", "--format", "json")
    stages = json.loads(out)["stages"]
    assert code == 0
    assert [(s["kind"], s["groups"], s["qualifiers"]) for s in stages] == [
        ("groups", [10, 10, 10, 10], 8),
        ("final", [8], 4),
        ("super-final", [4], 0),
    ]
    code, out, _ = run(capsys, "series", "plan", "--players", "40")
    assert code == 0 and "4×10" in out
    code, _, err = run(capsys, "series", "plan", "--players", "40", "--qualifiers", "9")
    assert code == 2 and "at most half of the largest group" in err


# -- the iCalendar feed ----------------------------------------------------------------

STAMP = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC)


def feed_events(data: bytes) -> list[icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(data)
    assert isinstance(calendar, icalendar.Calendar)
    return list(calendar.walk("VEVENT"))


def test_feed_parses_back_with_zones_and_stable_uids() -> None:
    zone = ZoneInfo("Europe/Berlin")
    cal = SeriesCalendar(CalendarKind.WEEKEND, dt.time(2, 30), zone)
    starts = slots(cal, dt.date(2027, 3, 20), 8)  # across the spring-forward night
    data = series_feed("Weekend blitz «Берлин»", starts, series_id="42", stamp=STAMP,
                       url="https://chess.example/series/42")  # fmt: skip
    events = feed_events(data)
    assert len(events) == len(starts)
    for event, start in zip(events, starts, strict=True):
        begin = event.decoded("dtstart")
        assert begin == start and begin.utcoffset() == start.utcoffset()
        assert event["dtstart"].params["TZID"] == "Europe/Berlin"
        assert event.decoded("dtend") - begin == dt.timedelta(hours=2)
        assert str(event["uid"]) == slot_uid("42", start)
        assert str(event["summary"]) == "Weekend blitz «Берлин»"
        assert str(event["url"]) == "https://chess.example/series/42"
    calendar = icalendar.Calendar.from_ical(data)
    assert isinstance(calendar, icalendar.Calendar)
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]
    # the same slots give the same UIDs on the next fetch; a later fetch drops the past ones
    again = feed_events(series_feed("x", starts[2:], series_id="42", stamp=STAMP))
    assert [str(e["uid"]) for e in again] == [str(e["uid"]) for e in events[2:]]
    assert len({str(e["uid"]) for e in events}) == len(events)


def test_feed_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "series", "slots", "--kind", "monthly", "--day", "31", "--time", "12:00",
        "--tz", "Australia/Sydney", "--from", "2027-01-01", "--count", "3", "--format", "ics",
        "--name", "Monthly open",
    )  # fmt: skip
    assert code == 0
    events = feed_events(out.encode())
    assert [e.decoded("dtstart").isoformat() for e in events] == [
        "2027-01-31T12:00:00+11:00",
        "2027-02-28T12:00:00+11:00",
        "2027-03-31T12:00:00+11:00",
    ]
    assert str(events[0]["uid"]).startswith("series-monthly-open-")


def test_feed_refuses_bad_input() -> None:
    with pytest.raises(RuleError, match="needs its time zone"):
        series_feed("x", [dt.datetime(2027, 1, 1)], series_id="1", stamp=STAMP)
    with pytest.raises(RuleError, match="positive time"):
        series_feed("x", [], series_id="1", stamp=STAMP, duration=dt.timedelta(0))
    assert feed_events(series_feed("x", [], series_id="1", stamp=STAMP)) == []


def test_the_calendar_ends_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    for first in ("0001-01-01", "9999-01-01"):
        code, out, err = run(
            capsys, "series", "slots", "--kind", "weekend", "--time", "00:30",
            "--tz", "Europe/Moscow", "--from", first, "--count", "2",
        )  # fmt: skip
        assert code == 2 and out == "" and "covers the years 1900 to 9998" in err
    code, out, _ = run(
        capsys, "series", "slots", "--kind", "monthly", "--day", "31", "--time", "23:00",
        "--tz", "Pacific/Kiritimati", "--from", "9998-12-01", "--count", "1", "--format", "ics",
    )  # fmt: skip
    assert code == 0
    assert feed_events(out.encode())[0].decoded("dtstart").year == 9998


def test_help_cites_no_requirement_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("slots", "groups", "plan"):
        code, out, _ = run(capsys, "series", command, "--help")
        assert code == 0 and "R-SE" not in out and "SPEC" not in out, out
