"""A series' news as an Atom feed (RFC 4287), written by the
``feedgen`` library (kept, on PyPI since 2013: it escapes the text, orders the
elements and formats the dates as RFC 3339 the way feed readers expect, which a
hand-written template would have to get right itself).

Each news item is one ``<entry>`` whose ``<id>`` is a stable tag URI
(``tag:crosstable,2026:series-3-news-17``: the same item keeps its id in every fetch,
so a reader never shows it twice), its ``<updated>`` the moment it was published and
its link the series' news page. The feed's ``<updated>`` is the newest item's (or the
``stamp`` passed in when there is none: formats read no clock).

>>> import datetime as dt
>>> body = news_feed(
...     "Weekend blitz", 3, [{"id": 17, "title": "stage 1 is over",
...     "published_at": "2026-12-05T19:30:00+00:00", "summary": "A: Anna"}],
...     url="https://chess.example/series/3/news",
...     stamp=dt.datetime(2026, 12, 6, tzinfo=dt.UTC))
>>> b"tag:crosstable,2026:series-3-news-17" in body and b"<title>stage 1 is over</title>" in body
True
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from feedgen.feed import FeedGenerator  # type: ignore[import-untyped]


def entry_id(series_id: int, news_id: int, published: dt.datetime) -> str:
    """A news item's stable Atom id (a tag URI, RFC 4151)."""
    return f"tag:crosstable,{published.year}:series-{series_id}-news-{news_id}"


def news_feed(
    name: str,
    series_id: int,
    items: Sequence[dict[str, Any]],
    *,
    url: str,
    stamp: dt.datetime,
    language: str = "en",
) -> bytes:
    """The Atom feed of ``items`` (newest first: ``id``, ``title``, ``published_at``,
    ``summary``), as UTF-8 bytes."""
    feed = FeedGenerator()
    feed.id(f"tag:crosstable,{stamp.year}:series-{series_id}-news")
    feed.title(f"{name} — news")
    feed.link(href=url, rel="alternate")
    feed.language(language)
    feed.generator("crosstable")
    newest = stamp
    for item in reversed(list(items)):  # feedgen puts the last added first
        published = dt.datetime.fromisoformat(item["published_at"])
        entry = feed.add_entry()
        entry.id(entry_id(series_id, int(item["id"]), published))
        entry.title(item["title"])
        entry.updated(published)
        entry.published(published)
        entry.link(href=f"{url}#news-{item['id']}", rel="alternate")
        if item.get("summary"):
            entry.summary(item["summary"])
    if items:
        newest = max(dt.datetime.fromisoformat(i["published_at"]) for i in items)
    feed.updated(newest)
    body: bytes = feed.atom_str(pretty=True)
    return body
