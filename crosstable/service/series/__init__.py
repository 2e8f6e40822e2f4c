"""A portal's series in the store, run by the clock (issue 11, R-SE-1…R-SE-7).

* :mod:`~crosstable.service.series.editions` — create and show a series, open its next
  edition on the calendar, register and withdraw;
* :mod:`~crosstable.service.series.tick` — :meth:`SeriesClock.tick`: one pass of every
  time-driven step (deadline, extension, postponement, stages, the edition's end);
* :mod:`~crosstable.service.series.outbox` — the series' history and the
  notifications outbox, written in the transaction of their cause;
* :mod:`~crosstable.service.series.news` — what a finished stage publishes: the news
  item, the awards (places 1–3), the players' results; their reads;
* :mod:`~crosstable.service.series.season` — the season's standings over editions;
* :mod:`~crosstable.service.series.petitions` — R-SE-7: players of one level ask for
  their own tournament, an administrator accepts or refuses.
"""

from __future__ import annotations

from crosstable.service.series.editions import SeriesEditions, SeriesSettings
from crosstable.service.series.later_stages import StageRegistration
from crosstable.service.series.news import SeriesNews
from crosstable.service.series.petitions import SeriesPetitions
from crosstable.service.series.season import SeriesSeason
from crosstable.service.series.tick import SeriesClock


class SeriesPlay(
    SeriesEditions, StageRegistration, SeriesClock, SeriesNews, SeriesSeason, SeriesPetitions
):
    """Every use case of a series."""


__all__ = ["SeriesPlay", "SeriesSettings"]
