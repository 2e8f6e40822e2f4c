"""The tick's lock: one pass of :meth:`SeriesClock.tick` at a time per database.

On PostgreSQL a session advisory lock, taken with ``pg_try_advisory_lock`` (a second
process finds it taken and does nothing); on SQLite a lease row in the preferences
that holds for :data:`LEASE` if its process dies.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text

from crosstable.service.series.editions import iso, moment
from crosstable.service.series.needs import StoreAndClock
from crosstable.store.models import PreferenceRow

#: the PostgreSQL advisory lock of the tick: ("seri" in ASCII, the schema's hash).
#: Advisory locks are per database, not per schema: with the schema in the key, two
#: sites (or test runs) in schemas of one database do not take each other's lock
TICK_LOCK = 0x73657269
LOCK_ARGS = "(:key, hashtext(current_schema()))"
#: SQLite: how long a tick's lease holds if its process dies
LEASE = dt.timedelta(minutes=10)
LEASE_KEY = "series.tick.lease"


@contextmanager
def tick_lock(service: StoreAndClock) -> Iterator[bool]:
    """True inside when this pass holds the lock (False: another pass is under way)."""
    if service.store.dialect == "postgresql":
        with service.store.engine.connect() as connection:
            got = connection.execute(
                text("SELECT pg_try_advisory_lock" + LOCK_ARGS), {"key": TICK_LOCK}
            ).scalar()
            connection.commit()
            try:
                yield bool(got)
            finally:
                if got:
                    connection.execute(
                        text("SELECT pg_advisory_unlock" + LOCK_ARGS), {"key": TICK_LOCK}
                    )
                    connection.commit()
        return
    now = service.clock.now()
    with service.store.transaction() as session:
        lease = session.get(PreferenceRow, LEASE_KEY)
        if lease is not None and moment(lease.value) > now:
            got = False
        else:
            got = True
            if lease is None:
                session.add(PreferenceRow(key=LEASE_KEY, value=iso(now + LEASE)))
            else:
                lease.value = iso(now + LEASE)
    try:
        yield got
    finally:
        if got:
            with service.store.transaction() as session:
                lease = session.get(PreferenceRow, LEASE_KEY)
                if lease is not None:
                    session.delete(lease)
