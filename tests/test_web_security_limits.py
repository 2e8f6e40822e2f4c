"""Sign-in counters and session rows in the store (issue 13 items 7 and 11), on SQLite and
PostgreSQL: two services on one database share the counters, counters expire with their
window and the table keeps only the current one, and migration 0004 builds exactly the
tables the models describe."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import datetime as dt

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select
from test_service_support import db_url, store  # noqa: F401

from crosstable.service import FixedClock
from crosstable.service.sessions import SignInLimits
from crosstable.store import Store, open_store
from crosstable.store.accounts_models import SessionRow, SignInCounterRow
from crosstable.store.models import Base

START = dt.datetime(2026, 5, 1, 18, 0, 0, tzinfo=dt.UTC)


def _rows(store: Store) -> list[tuple[str, int, int]]:
    with store.reading() as session:
        found = session.execute(
            select(
                SignInCounterRow.key, SignInCounterRow.window_start, SignInCounterRow.attempts
            ).order_by(SignInCounterRow.key)
        ).all()
        return [(key, start, attempts) for key, start, attempts in found]


def test_two_services_on_one_database_share_the_counters(db_url: str) -> None:
    clock = FixedClock(START)
    one, two = open_store(db_url), open_store(db_url)
    try:
        first = SignInLimits(one, clock=clock)
        second = SignInLimits(two, clock=clock)
        for index in range(10):
            (first if index % 2 else second).failed(f"10.0.0.{index}", "ann")
        assert first.refused("10.0.0.99", "ann") == 600
        assert second.refused("10.0.0.98", "ANN ") == 600
        assert first.refused("10.0.0.99", "bob") is None
        for index in range(20):
            (first if index % 2 else second).failed("192.0.2.7", f"name{index}")
        assert second.refused("192.0.2.7", "carol") == 600  # the address's limit
        assert first.refused("192.0.2.8", "carol") is None
    finally:
        one.close()
        two.close()


def test_counters_expire_with_their_window_and_the_table_stays_small(store: Store) -> None:
    clock = FixedClock(START + dt.timedelta(seconds=150))
    limits = SignInLimits(store, clock=clock, per_account=3, window=600)
    for _ in range(3):
        limits.failed("10.0.0.1", "ann")
    assert limits.refused("10.0.0.2", "ann") == 450  # seconds to the window's end
    assert [attempts for _key, _start, attempts in _rows(store)] == [3, 3]
    clock.advance(dt.timedelta(seconds=450))
    assert limits.refused("10.0.0.2", "ann") is None
    limits.failed("10.0.0.3", "bob")  # counting in a new window deletes the old windows
    rows = _rows(store)
    assert len(rows) == 2 and {start for _key, start, _n in rows} == {
        int((START + dt.timedelta(seconds=600)).timestamp())
    }
    # names and addresses are not stored, only their digests (fixed size, whatever is sent)
    limits.failed("x" * 10_000, "y" * 10_000)
    assert all(len(key) <= 100 and "x" not in key.split(":")[1] for key, _s, _n in _rows(store))


def test_sign_ups_are_counted_per_address(store: Store) -> None:
    limits = SignInLimits(store, clock=FixedClock(START), signups=2)
    assert [limits.signup("10.0.0.1") for _ in range(3)] == [None, None, 600]
    assert limits.signup("10.0.0.2") is None


def test_migration_0004_builds_the_models_tables(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        ours = {SessionRow.__tablename__, SignInCounterRow.__tablename__}
        diffs = [d for d in compare_metadata(context, Base.metadata) if _table_of(d) in ours]
        assert diffs == []
        with store.reading() as session:
            assert session.scalar(select(func.count()).select_from(SessionRow)) == 0


def _table_of(diff: object) -> str:
    if isinstance(diff, list):  # column changes come as a list of tuples
        return _table_of(diff[0])
    assert isinstance(diff, tuple)
    for item in diff[1:]:
        name = getattr(item, "name", None) if not isinstance(item, str) else item
        table = getattr(item, "table", None)
        if table is not None:
            return str(table.name)
        if name in (SessionRow.__tablename__, SignInCounterRow.__tablename__):
            return str(name)
    return ""
