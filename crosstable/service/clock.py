"""The clock the services read: injected, so tests and replays are exact.

>>> import datetime as dt
>>> clock = FixedClock(dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC), step=dt.timedelta(seconds=1))
>>> clock.now().isoformat(), clock.now().isoformat()
('2026-03-01T18:00:00+00:00', '2026-03-01T18:00:01+00:00')
"""

from __future__ import annotations

import datetime as dt
from typing import Protocol


class Clock(Protocol):
    def now(self) -> dt.datetime:
        """The current time, timezone-aware."""
        ...


class SystemClock:
    """The real time in UTC."""

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)


class FixedClock:
    """A clock for tests: starts at ``start`` and moves ``step`` at every reading."""

    def __init__(self, start: dt.datetime, step: dt.timedelta = dt.timedelta(0)) -> None:
        if start.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware start")
        self._now = start
        self._step = step

    def now(self) -> dt.datetime:
        current = self._now
        self._now = current + self._step
        return current

    def advance(self, delta: dt.timedelta) -> None:
        self._now += delta
