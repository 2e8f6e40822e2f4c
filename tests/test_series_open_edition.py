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
