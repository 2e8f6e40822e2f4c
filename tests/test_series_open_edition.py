"""An edition opens at the first slot whose registration deadline is still ahead (R-SE-2):
opened at 18:44 in Moscow on a workday, a workdays series at 19:00 with a deadline an
hour before must not take today's slot (its deadline has passed, nobody could register —
the series demo broke on such days). Checked for any moment of two weeks, any lead."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.service import Service
from crosstable.service.series import SeriesSettings
from crosstable.store import open_store
from crosstable.web.demo_series import DemoClock

START = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
CALENDARS = {
    "workdays": {},
    "weekend": {},
    "weekly": {"weekday": 2},
    "monthly": {"day": 31},
    "regular": {},
}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Service, DemoClock]:
    path: Path = tmp_path_factory.mktemp("open") / "series.sqlite"
    clock = DemoClock(START)
    return Service(open_store(path), clock=clock, random=random.Random(1)), clock


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    minutes=st.integers(0, 14 * 24 * 60),
    kind=st.sampled_from(sorted(CALENDARS)),
    lead=st.sampled_from([0, 30, 60, 24 * 60, 3 * 24 * 60]),
)
def test_a_new_edition_can_always_be_registered_for(
    shared: tuple[Service, DemoClock], minutes: int, kind: str, lead: int
) -> None:
    service, clock = shared
    now = START + dt.timedelta(minutes=minutes)
    clock.moment = now
    sid = service.create_series(
        SeriesSettings(
            "Blitz",
            kind,
            "19:00",
            "Europe/Moscow",
            time_control="3+2",
            deadline_minutes=lead,
            **CALENDARS[kind],  # type: ignore[arg-type]
        ),
        actor="t",
    )
    edition = service.open_edition(sid, actor="t")
    info = service.edition_info(edition)
    assert dt.datetime.fromisoformat(info["deadline"]) > now
    assert dt.datetime.fromisoformat(info["planned_start"]) > now
    service.register_for_edition(edition, "Анна Смирнова", rating=1800)


@pytest.mark.parametrize(
    "now",
    [
        "2026-12-04T15:44:00+00:00",  # Friday 18:44 in Moscow: that day's deadline passed
        "2026-12-05T09:00:00+00:00",  # Saturday: no slot until Monday
        "2026-12-06T20:59:00+00:00",  # Sunday 23:59 in Moscow
        "2027-03-28T01:30:00+00:00",  # the night Europe changes to summer time
    ],
)
def test_the_series_demo_works_at_any_moment(tmp_path: Path, now: str) -> None:
    """The demo relies on the next edition opening by itself (issue 11 item 1): whatever
    the real ``now``, the season's three editions are played and the fourth is open for
    registration at a slot whose deadline is still ahead."""
    from crosstable.web.demo_series import build_series_demo

    moment = dt.datetime.fromisoformat(now)
    clock = DemoClock(moment)
    service = Service(open_store(tmp_path / "demo.sqlite"), clock=clock, random=random.Random(1))
    made = build_series_demo(service, clock, now=moment)
    editions = service.series_info(made["series"])["editions"]
    assert [e["state"] for e in editions] == ["finished"] * 3 + ["registration"]
    history = service.series_history(made["series"])
    opened = [h for h in history if h["kind"] == "edition"]
    assert [h["actor"] for h in opened] == ["demo", "tick", "tick", "tick"]  # 1 by hand
    assert dt.datetime.fromisoformat(editions[3]["deadline"]) > moment
    service.register_for_edition(editions[3]["id"], "Гость Сайта", rating=1600)
