"""A portal's series in the store, run by the clock.

* :mod:`~crosstable.service.series.editions` — create and show a series, open its next
  edition on the calendar, register and withdraw;
* :mod:`~crosstable.service.series.later_stages` — confirming a place in, and
  withdrawing from, stage 2 and later;
* :mod:`~crosstable.service.series.tick` — :meth:`SeriesClock.tick`: one pass of every
  time-driven step (deadline, extension, postponement, stages, the edition's end);
* :mod:`~crosstable.service.series.outbox` — the series' history and the
  notifications outbox, written in the transaction of their cause;
* :mod:`~crosstable.service.series.news` — what a finished stage publishes: the news
  item, the awards (places 1–3), the players' results; their reads;
* :mod:`~crosstable.service.series.season` — the season's standings over editions;
* :mod:`~crosstable.service.series.petitions` — players of one level ask for
  their own tournament, an administrator accepts or refuses.

:class:`SeriesPlay` shows the use cases of these parts as its own methods.
"""

from __future__ import annotations

from crosstable.service.forward import forward
from crosstable.service.frame import ChangeFrame
from crosstable.service.safeguard import Safeguard
from crosstable.service.series.editions import SeriesEditions
from crosstable.service.series.later_stages import StageRegistration
from crosstable.service.series.needs import Tournaments
from crosstable.service.series.news import SeriesNews
from crosstable.service.series.petitions import SeriesPetitions
from crosstable.service.series.season import SeriesSeason
from crosstable.service.series.shown import SeriesSettings
from crosstable.service.series.tick import SeriesClock


class SeriesPlay:
    """Every use case of a series, each done by one part; all the parts run in one
    change frame, and the tournaments of a series (a stage's groups, a petition's
    round robin) are made and played through ``tournaments``."""

    # editions.py: a series and its editions
    create_series = forward("editions", SeriesEditions.create_series)
    series_info = forward("editions", SeriesEditions.series_info)
    open_edition = forward("editions", SeriesEditions.open_edition)
    register_for_edition = forward("editions", SeriesEditions.register_for_edition)
    withdraw_from_edition = forward("editions", SeriesEditions.withdraw_from_edition)
    series_history = forward("editions", SeriesEditions.series_history)
    edition_info = forward("editions", SeriesEditions.edition_info)
    # later_stages.py: stage 2 and later
    stage_window = forward("later_stages", StageRegistration.stage_window)
    register_for_stage = forward("later_stages", StageRegistration.register_for_stage)
    withdraw_from_stage = forward("later_stages", StageRegistration.withdraw_from_stage)
    # tick.py: the clock's pass
    tick = forward("ticking", SeriesClock.tick)
    # news.py: what finished stages published
    series_news = forward("news", SeriesNews.series_news)
    news_page = forward("news", SeriesNews.news_page)
    awards_page = forward("news", SeriesNews.awards_page)
    news_item = forward("news", SeriesNews.news_item)
    series_awards = forward("news", SeriesNews.series_awards)
    badges = forward("news", SeriesNews.badges)
    award = forward("news", SeriesNews.award)
    # season.py: the season's standings
    season_standings = forward("season", SeriesSeason.season_standings)
    # petitions.py: class and level tournaments
    petition = forward("petitioning", SeriesPetitions.petition)
    petitions = forward("petitioning", SeriesPetitions.petitions)
    petition_info = forward("petitioning", SeriesPetitions.petition_info)
    accept_petition = forward("petitioning", SeriesPetitions.accept_petition)
    refuse_petition = forward("petitioning", SeriesPetitions.refuse_petition)

    def __init__(self, frame: ChangeFrame, tournaments: Tournaments) -> None:
        self.frame = frame
        self.editions = SeriesEditions(frame)
        self.later_stages = StageRegistration(frame, tournaments)
        self.ticking = SeriesClock(frame, tournaments)
        self.news = SeriesNews(frame)
        self.season = SeriesSeason(frame)
        self.petitioning = SeriesPetitions(frame, tournaments)

    @property
    def fast_path(self) -> bool:
        """The frame's choice of the fast path for results (the series record none)."""
        return self.frame.fast_path

    @property
    def safeguard(self) -> Safeguard | None:
        """The frame's backup before a risky change (the series ask for none)."""
        return self.frame.safeguard


__all__ = ["SeriesPlay", "SeriesSettings", "Tournaments"]
