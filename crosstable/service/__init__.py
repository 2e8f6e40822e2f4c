"""Use cases that tie the core and the store together; one transaction each.

>>> import datetime as dt, random
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock, Regulations, Service
>>> service = Service(
...     open_store("sqlite:///:memory:"),
...     clock=FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC)),
...     random=random.Random(7),
... )
>>> str(service.create_tournament(Regulations(name="Club championship")).summary)
'tournament 1 “Club championship” created (round-robin; 1-0.5-0)'
"""

from __future__ import annotations

from crosstable.service.bus import EventBus, Notification, PostgresListener
from crosstable.service.clock import Clock, FixedClock, SystemClock
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.facade import Service
from crosstable.service.frame import Change
from crosstable.service.history import HistoryItem
from crosstable.service.play import parse_result
from crosstable.service.registration import PlayerInfo, Regulations
from crosstable.service.stage_view import StageView

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
