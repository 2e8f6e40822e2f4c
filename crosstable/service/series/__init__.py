"""A portal's series in the store, run by the clock (issue 11, R-SE-1…R-SE-7).

* :mod:`~crosstable.service.series.editions` — create and show a series, open its next
  edition on the calendar, register and withdraw;
* :mod:`~crosstable.service.series.tick` — :meth:`SeriesClock.tick`: one pass of every
  time-driven step (deadline, extension, postponement, stages, the edition's end);
* :mod:`~crosstable.service.series.outbox` — the series' history and the
  notifications outbox, written in the transaction of their cause.
"""

from __future__ import annotations

from crosstable.service.series.editions import SeriesEditions, SeriesSettings
from crosstable.service.series.tick import SeriesClock


class SeriesPlay(SeriesEditions, SeriesClock):
    """Every use case of a series."""


__all__ = ["SeriesPlay", "SeriesSettings"]
