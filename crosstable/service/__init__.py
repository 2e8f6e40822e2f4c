"""Use cases that tie the core and the store together; one transaction each.

>>> import datetime as dt, random
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock, Regulations, Service
>>> service = Service(
...     open_store("sqlite:///:memory:"),
...     clock=FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC)),
...     random=random.Random(7),
... )
>>> service.create_tournament(Regulations(name="Club championship")).summary
'tournament 1 “Club championship” created (round-robin; 1-0.5-0)'
"""

from __future__ import annotations

from crosstable.service.base import Change
from crosstable.service.battle import Battle
from crosstable.service.bus import EventBus, Notification, PostgresListener
from crosstable.service.clock import Clock, FixedClock, SystemClock
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.exchange import Exchange
from crosstable.service.history import History, HistoryItem
from crosstable.service.knockout import KnockoutPlay
from crosstable.service.play import Play, parse_result
from crosstable.service.queries import Queries
from crosstable.service.registration import PlayerInfo, Registration, Regulations
from crosstable.service.series import SeriesPlay
from crosstable.service.stage_view import StageView
from crosstable.service.stages import StagePlay
from crosstable.service.swiss import SwissPlay
from crosstable.service.tie_lots import TieLots


class Service(
    Battle,
    TieLots,
    Registration,
    Play,
    SwissPlay,
    KnockoutPlay,
    StagePlay,
    History,
    Exchange,
    Queries,
    SeriesPlay,
):
    """Every use case of a tournament, over one store, clock, random source and bus."""


__all__ = [
    "Change",
    "Clock",
    "ConflictError",
    "EventBus",
    "FixedClock",
    "HistoryItem",
    "NotFoundError",
    "Notification",
    "PlayerInfo",
    "PostgresListener",
    "Regulations",
    "Service",
    "StageView",
    "SystemClock",
    "parse_result",
]
