"""What every process on one database shares: request counters, and
settings made once (the site's secret).

:func:`kept_setting` stores a value unless one is there, in one statement, and answers
what is stored: two processes starting at once on an empty database agree on one
secret (a read-then-write let each keep its own, so a cookie signed by one process
was a stranger's to the other).

One ``serve`` process on a SQLite file keeps its rate limits in memory
(:class:`crosstable.web.security.RateLimiter`); several processes behind one nginx on
one PostgreSQL database must count together, or N processes let N times the limit
through. :class:`RateCounters` counts in fixed windows of :data:`WINDOW` seconds in
the ``rate_counters`` table: one ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` per
request (the row of the key and the current window), refused when the count passes
the limit. Rows of past windows are deleted when a process first counts in a new
window, so the table holds about one row per active key.

A fixed window lets at most twice the limit through around a window's end (the
in-memory limiter's sliding window does not); the limits are meant against runaway
clients, and the shared count is what keeps N processes at one limit.

>>> import datetime as dt
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock
>>> clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, 10, tzinfo=dt.UTC))
>>> counters = RateCounters(open_store("sqlite:///:memory:"), clock=clock)
>>> [counters.hit("results:user:7", 2) for _ in range(3)]  # None: go on; else seconds to wait
[None, None, 50]
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from crosstable.service.clock import Clock, SystemClock
from crosstable.store import Store
from crosstable.store.accounts_models import RateCounterRow
from crosstable.store.models import PreferenceRow

#: the length of a counting window, seconds
WINDOW = 60


class RateCounters:
    """Requests per key and fixed window, in the database."""

    def __init__(self, store: Store, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self._purged = -1  # the window whose predecessors this process deleted
        self._lock = threading.Lock()

    def hit(self, key: str, limit: int, count: int = 1) -> int | None:
        """Count ``count`` requests of ``key``; None if they are within ``limit`` this
        window, else the seconds until the next window (the refused ones count too:
        a client that keeps trying waits as long)."""
        now = int(self.clock.now().timestamp())
        start = now - now % WINDOW
        insert: Any = pg_insert if self.store.dialect == "postgresql" else sqlite_insert
        statement = (
            insert(RateCounterRow)
            .values(key=key[:100], window_start=start, hits=count)
            .on_conflict_do_update(
                index_elements=["key", "window_start"],
                set_={"hits": RateCounterRow.hits + count},
            )
            .returning(RateCounterRow.hits)
        )
        with self._lock:
            purge, self._purged = self._purged != start, start
        with self.store.transaction() as session:
            if purge:
                session.execute(delete(RateCounterRow).where(RateCounterRow.window_start < start))
            hits = int(session.execute(statement).scalar_one())
        return None if hits <= limit else max(1, start + WINDOW - now)


def kept_setting(store: Store, key: str, value: str) -> str:
    """The stored setting ``key``; ``value`` is stored first if there is none (one
    ``INSERT … ON CONFLICT DO NOTHING``, so every process gets the same one).

    >>> from crosstable.store import open_store
    >>> store = open_store("sqlite:///:memory:")
    >>> kept_setting(store, "web.secret", "a"), kept_setting(store, "web.secret", "b")
    ('a', 'a')
    """
    insert: Any = pg_insert if store.dialect == "postgresql" else sqlite_insert
    with store.transaction() as session:
        session.execute(insert(PreferenceRow).values(key=key, value=value).on_conflict_do_nothing())
    with store.reading() as session:
        row = session.get(PreferenceRow, key)
        return value if row is None else row.value


__all__ = ["WINDOW", "RateCounters", "kept_setting"]
