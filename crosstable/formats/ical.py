"""An iCalendar (RFC 5545) feed of a series' upcoming starts.

One ``VEVENT`` per slot, its ``DTSTART`` in the series' own zone (``TZID=…``,
with the zone's ``VTIMEZONE`` covering the slots, so a calendar shows each start
at the right moment across daylight-saving changes) and a ``UID`` made of the
series' id and the slot's UTC instant: the same slot keeps the same UID in every
fetch of the feed, so a subscribed calendar updates instead of doubling it. The
feed is written by the ``icalendar`` library; this module only lays the values
out. ``stamp`` (``DTSTAMP``) is passed in: formats read no clock.

>>> import datetime as dt
>>> from zoneinfo import ZoneInfo
>>> start = dt.datetime(2026, 12, 5, 18, tzinfo=ZoneInfo("Europe/Moscow"))
>>> text = series_feed("Weekend blitz", [start], series_id="7",
...                    stamp=dt.datetime(2026, 12, 1, tzinfo=dt.UTC)).decode()
>>> "DTSTART;TZID=Europe/Moscow:20261205T180000" in text
True
>>> "UID:series-7-20261205T150000Z@crosstable" in text
True
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import icalendar

from crosstable.core.errors import RuleError

#: the product identifier of the feed (RFC 5545 PRODID)
PRODID = "-//crosstable//series calendar//EN"
#: how long one slot is shown in a calendar unless the series says otherwise
DEFAULT_DURATION = dt.timedelta(hours=2)
#: the last day a VTIMEZONE may cover (icalendar adds the zone's offset past it)
_LAST_ZONE_DATE = dt.date(9998, 12, 31)
#: the most events one feed carries
MAX_EVENTS = 1000


def slot_uid(series_id: str, start: dt.datetime, domain: str = "crosstable") -> str:
    """The stable UID of one slot: series id + the slot's UTC instant.

    >>> from zoneinfo import ZoneInfo
    >>> slot_uid("12", dt.datetime(2027, 3, 28, 18, tzinfo=ZoneInfo("Europe/Berlin")))
    'series-12-20270328T160000Z@crosstable'
    """
    if start.tzinfo is None or start.utcoffset() is None:
        raise RuleError(f"slot {start.isoformat()}: a start needs its time zone")
    return f"series-{series_id}-{start.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}@{domain}"


def series_feed(
    name: str,
    starts: Sequence[dt.datetime],
    *,
    series_id: str,
    stamp: dt.datetime,
    duration: dt.timedelta = DEFAULT_DURATION,
    url: str | None = None,
    description: str = "",
    domain: str = "crosstable",
) -> bytes:
    """The feed of ``starts`` (aware datetimes in the series' zone) as iCalendar bytes."""
    if len(starts) > MAX_EVENTS:
        raise RuleError(f"{len(starts)} slots: a feed carries at most {MAX_EVENTS}")
    if duration <= dt.timedelta(0):
        raise RuleError("a slot lasts a positive time")
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for start in starts:
        event = icalendar.Event()
        event.add("uid", slot_uid(series_id, start, domain))
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("dtstart", start)
        event.add("dtend", (start.astimezone(dt.UTC) + duration).astimezone(start.tzinfo))
        event.add("summary", name)
        if description:
            event.add("description", description)
        if url:
            event.add("url", url)
        calendar.add_component(event)
    if starts:
        first = min(s.date() for s in starts) - dt.timedelta(days=366)
        latest = max(s.date() for s in starts)
        room = max(_LAST_ZONE_DATE - latest, dt.timedelta(0))
        last = latest + min(dt.timedelta(days=366), room)
        calendar.add_missing_timezones(first_date=first, last_date=last)
    return bytes(calendar.to_ical())
