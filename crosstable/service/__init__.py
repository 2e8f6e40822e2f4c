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

from crosstable.service.base import Change
from crosstable.service.battle import Battle
from crosstable.service.bus import EventBus, Notification, PostgresListener
from crosstable.service.checkin import CheckIn
from crosstable.service.clock import Clock, FixedClock, SystemClock
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.exchange import Exchange
from crosstable.service.history import History, HistoryItem
from crosstable.service.knockout import KnockoutPlay
from crosstable.service.pgn import PgnPlay
from crosstable.service.play import Play, parse_result
from crosstable.service.queries import Queries
from crosstable.service.registration import PlayerInfo, Registration, Regulations
from crosstable.service.series import SeriesPlay
from crosstable.service.stage_view import StageView
from crosstable.service.stages import StagePlay
from crosstable.service.swiss import SwissPlay
from crosstable.service.tie_lots import TieLots


class UseCases(
    Registration,  # before the first round: regulations, players, lots (registration.py)
    Play,  # from the start to the finish: results, withdrawals, the finish (play.py)
    SwissPlay,  # a Swiss's rounds: propose and publish each pairing (swiss/)
    KnockoutPlay,  # a knockout's bracket: the next games and rounds (knockout/)
    StagePlay,  # a group stage + knockout event: the knockout stage (stages.py)
    History,  # the event log: history, undo, revert (history.py)
    Exchange,  # TRF and JSON export and import (exchange.py)
    PgnPlay,  # the games' moves: PGN per game, per round, the tournament's PGN (pgn.py)
    Queries,  # the reads: a consistent snapshot each, never blocking a writer (queries.py)
    SeriesPlay,  # series: editions, the clock's ticks, news, the season (series/)
    CheckIn,  # the hall's check-in before a round, byes for the absent (checkin.py)
):
    """The use cases of a tournament and of a series, one part per job: each public
    method is defined in exactly one part (tests/test_service_parts.py). Every part is
    a :class:`~crosstable.service.base.ServiceBase`: it runs its changes in the one
    change frame (``_change``, or ``_creating`` for a new tournament)."""


class Service(
    Battle,  # battle chess (docs/battle.md): its checks around the ordinary use cases
    TieLots,  # the regulations' ``ties`` detail, checked when regulations are written
    UseCases,
):
    """Every use case of a tournament, over one store, clock, random source and bus.

    The :class:`UseCases` do the work; the two parts before them only wrap some of
    those use cases (each wrapper checks or completes its input, then calls the use
    case it wraps with ``super()``), so a variant's rules sit in one place and the
    ordinary use cases know nothing of it."""


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
    "UseCases",
    "parse_result",
]
