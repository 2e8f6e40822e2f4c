"""A tournament's start at a preset time, a knockout's fixed field and its daily rounds.

The settings are regulations' details (text, like every detail), read and checked here:

* ``starts_at`` — when the tournament starts by itself (every system): an ISO 8601 date
  and time, with its UTC offset or read in ``time_zone``; ``crosstable tick`` (and the
  ticker of ``crosstable serve``) draws the lots and starts it once that moment has come;
* ``time_zone`` — the zone of ``starts_at`` without an offset and of ``round_time``
  (an IANA name, UTC by default);
* ``capacity`` — a knockout's field, a power of two from 2 to 512: registration closes
  by itself when it is full, and the start waits for a full field;
* ``if_short`` — what happens when the moment comes and the field is short (a knockout
  under its capacity, or any tournament that cannot start yet): ``postpone`` moves the
  start a day on and tells the players and the organiser; ``wait`` keeps the start
  waiting, tells the organiser once, and starts it at the first tick after the field is
  complete. A knockout with a capacity and a class or level tournament postpone by
  default, everything else waits;
* ``round_time`` — a knockout plays one round a day at this time of day (``HH:MM``):
  the next round is paired at the first such time on a later day than the round before,
  once every match of that round is decided; a round's results are due by the next
  round's time.

The random order of a knockout started by the clock comes from :func:`derived_seed`: a
seed made from the tournament itself (its id and the moment it was created), so the
same tournament always gets the same order and anyone can check it; it is written into
the regulations (``lots_seed``) and shown in the start's line.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.details import Details
from crosstable.service.levels import LEVEL_DETAIL
from crosstable.service.read_views import JsonObject
from crosstable.store.models import TournamentRow

STARTS_AT = "starts_at"
TIME_ZONE = "time_zone"
CAPACITY = "capacity"
IF_SHORT = "if_short"
ROUND_TIME = "round_time"
#: every detail this module reads
KEYS = (STARTS_AT, TIME_ZONE, CAPACITY, IF_SHORT, ROUND_TIME)
SHORT_CHOICES = ("postpone", "wait")
#: the largest knockout field (the knockout's own cap)
MOST = 512
#: how far a postponed start moves
POSTPONE = dt.timedelta(days=1)


@dataclass(frozen=True)
class TimedStart:
    """The timed-start settings of one tournament, checked."""

    starts_at: dt.datetime | None = None
    zone: str = "UTC"
    capacity: int | None = None
    if_short: str = "wait"
    round_time: dt.time | None = None

    def as_json(self) -> JsonObject:
        return {
            STARTS_AT: self.starts_at.isoformat() if self.starts_at else None,
            TIME_ZONE: self.zone,
            CAPACITY: self.capacity,
            IF_SHORT: self.if_short,
            ROUND_TIME: self.round_time.strftime("%H:%M") if self.round_time else None,
        }

    def next_slot(self, after: dt.datetime) -> dt.datetime:
        """The first daily round time on a later (local) day than ``after``."""
        assert self.round_time is not None
        zone = ZoneInfo(self.zone)
        day = after.astimezone(zone).date() + dt.timedelta(days=1)
        return dt.datetime.combine(day, self.round_time, tzinfo=zone)


def _text(details: Details, key: str) -> str:
    return str(details.get(key) or "").strip()


def timed_start(system: System | str, details: Details | None) -> TimedStart:
    """The settings from the regulations' details; RuleError naming the detail that is
    wrong (a capacity that is not a power of two, a time that is not one…)."""
    details = details or {}
    system = System(system)
    knockout = system is System.KNOCKOUT
    zone = _text(details, TIME_ZONE) or "UTC"
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise RuleError(
            "regulations, time_zone {value}: not a time zone (use a name such as Europe/Moscow)",
            value=repr(zone[:60]),
        ) from None
    starts_at = None
    given = _text(details, STARTS_AT)
    if given:
        try:
            starts_at = dt.datetime.fromisoformat(given)
        except ValueError:
            raise RuleError(
                "regulations, starts_at {value}: not a date and time (write it as "
                "2026-12-07T18:00, with a UTC offset or in the time zone)",
                value=repr(given[:60]),
            ) from None
        if starts_at.tzinfo is None:
            starts_at = starts_at.replace(tzinfo=tz)
    capacity = None
    given = _text(details, CAPACITY)
    if given:
        if not knockout:
            raise RuleError("regulations, capacity: only a knockout has a fixed field of 2ⁿ")
        number = int(given) if given.isdigit() and len(given) <= 4 else 0
        if number < 2 or number > MOST or number & (number - 1):
            raise RuleError(
                "regulations, capacity {value}: a knockout's field is a power of two "
                "(2, 4, 8 … {most})",
                value=repr(given[:20]),
                most=MOST,
            )
        capacity = number
    # a knockout with a capacity, and a class or level tournament (its 11 players), are
    # postponed by default, as a series' stage short of players is
    short = "postpone" if capacity or _text(details, LEVEL_DETAIL) else "wait"
    if_short = _text(details, IF_SHORT).lower() or short
    if if_short not in SHORT_CHOICES:
        raise RuleError(
            "regulations, if_short {value}: use postpone or wait",
            value=repr(_text(details, IF_SHORT)[:40]),
        )
    round_time = None
    given = _text(details, ROUND_TIME)
    if given:
        if not knockout:
            raise RuleError("regulations, round_time: only a knockout plays one round a day")
        try:
            round_time = dt.time.fromisoformat(given)
        except ValueError:
            raise RuleError(
                "regulations, round_time {value}: a time of day such as 18:00",
                value=repr(given[:20]),
            ) from None
        if len(given) < 4 or round_time.tzinfo is not None:
            raise RuleError(
                "regulations, round_time {value}: a time of day such as 18:00",
                value=repr(given[:20]),
            )
    return TimedStart(starts_at, zone, capacity, if_short, round_time)


def check_start_settings(system: System | str, details: Details | None) -> None:
    """Refuse a bad timed-start setting (the creation's and the regulations' check)."""
    timed_start(system, details)


def check_capacity(system: System | str, details: Details | None, players: int) -> None:
    """Refuse a knockout created with more players than its capacity (the creation's
    check, before anything is stored)."""
    capacity = timed_start(system, details).capacity
    if capacity is not None and players > capacity:
        raise RuleError(
            "regulations, capacity {capacity}: {players} players are more than the field",
            capacity=capacity,
            players=players,
        )


def check_room(row: TournamentRow, players: int) -> None:
    """Refuse the entry that would take a knockout past its capacity: the field is full
    and registration closed by itself."""
    try:
        settings = timed_start(row.system, row.regulations)
    except RuleError:  # (a setting stored before it was checked: no capacity read)
        return
    if settings.capacity is not None and players > settings.capacity:
        raise RuleError(
            "the field is full: {capacity} players have registered, and registration "
            "closed by itself",
            capacity=settings.capacity,
        )


def derived_seed(row: TournamentRow) -> int:
    """The seed of a clock-made random order: from the tournament's id and creation
    moment, so it is the same at every start and anyone can recompute it."""
    digest = hashlib.sha256(f"crosstable:{row.id}:{row.created_at}".encode()).hexdigest()
    return int(digest[:12], 16) % 10**9 or 1
