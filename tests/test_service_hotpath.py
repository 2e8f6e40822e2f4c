"""The fast path from a cold start: a service that holds no live table of a tournament
(a process that just started) reads one from a single snapshot and records even its
first result the fast way, with the same rows, standings and answers."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from test_service_support import (  # noqa: F401
    PG_URL,
    db_url,
    make_service,
    pg_schema_url,
    result_write,
    started,
    store,
)

from crosstable.service import Service
from crosstable.service import recording as recording_module
from crosstable.service.live import live_standings
from crosstable.store import Store, open_store
from crosstable.store.models import GameRow


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    tried: list[bool] = []
    original = recording_module.record_result

    def spy(*args: Any) -> bool:
        done = bool(original(*args))
        tried.append(done)
        return done

    monkeypatch.setattr(recording_module, "record_result", spy)
    return tried


def _check(service: Service, tid: int) -> None:
    """The stored standings are a recount; the table the service keeps is the database."""
    stored = dict(service.live_standings(tid) or {})
    assert stored.pop("revision") == service.history(tid)[-1].seq
    assert stored == live_standings(service.tournament(tid))
    assert service.verify(tid) == []
    table = service.live_tables.checkout(tid)
    assert table is not None
    service.live_tables.checkin(tid, table)
    with service.store.reading() as session:
        rows = session.scalars(select(GameRow).where(GameRow.tournament_id == tid)).all()
        held = {(g.round, g.board): (g.result, g.reason, g.version) for g in rows}
    kept = {spot: (g.result, g.reason, g.version) for spot, g in table.games.items()}
    assert kept == held
    assert table.revision == service.history(tid)[-1].seq


def test_the_first_result_of_a_fresh_service_is_fast(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = started(make_service(store), 6, tiebreaks=("DE", "SB", "WIN"))
    tried = _spy(monkeypatch)
    fresh = make_service(store)  # as in a process that just started: no live table
    change = fresh.record_result(tid, 1, 1, "1-0")
    assert tried == [True]
    assert fresh.history(tid)[-1].summary == change.summary
    _check(fresh, tid)
    again = make_service(store)
    assert again.record_result(tid, 1, 1, "1-0").replayed  # the same again: the
    assert tried == [True]  # ordinary path answers (the table says it has a result)
    _check(again, tid)


def test_a_change_while_the_table_is_read_is_not_mixed_in(
    db_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process commits between the reads of a cold load: the table is the
    snapshot before it, its write does not pass, and it catches up under the lock."""
    tid = started(make_service(store), 6)
    other = make_service(store)
    cold = make_service(store)
    tried = _spy(monkeypatch)
    load = cold.frame.load_live

    def interrupted(session: Any, row: Any) -> Any:
        other.record_result(tid, 1, 2, "0-1")  # commits after the revision was read
        return load(session, row)

    monkeypatch.setattr(cold.frame, "load_live", interrupted)
    cold.record_result(tid, 1, 1, "½-½")
    assert tried[-1] is False  # the table was one change behind: nothing written
    results = {(g.round, g.board): g.result for g in cold.overview(tid).games}
    assert (results[(1, 1)], results[(1, 2)]) == ("½-½", "0-1")
    _check(cold, tid)
    monkeypatch.setattr(cold.frame, "load_live", load)
    cold.record_result(tid, 1, 3, "1-0")  # the table it kept is right
    _check(cold, tid)


def test_a_tournament_not_running_is_left_to_the_ordinary_path(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store)
    tid = started(service, 4)
    for round_number in (1, 2, 3):
        for board in (1, 2):
            service.record_result(tid, round_number, board, "1-0")
    service.finish(tid)
    tried = _spy(monkeypatch)
    fresh = make_service(store)
    with pytest.raises(Exception, match="finished"):
        fresh.record_result(tid, 1, 1, "0-1")
    assert tried == []


# -- PostgreSQL: the hot path talks to libpq itself -----------------------------------------


@pytest.fixture
def pg_store() -> Iterator[tuple[Store, str]]:
    """A store on a fresh PostgreSQL schema, and its URL."""
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "h_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    url = pg_schema_url(PG_URL, schema)
    opened = open_store(url)
    try:
        yield opened, url
    finally:
        opened.close()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def test_a_server_error_is_raised_as_the_ordinary_path_raises_it(
    pg_store: tuple[Store, str],
) -> None:
    from sqlalchemy.exc import DataError

    from crosstable.store.hotpath import record_result

    store, _ = pg_store
    tid = started(make_service(store), 4)
    with pytest.raises(DataError, match="too long"):
        record_result(store, result_write(store, tid, result="a result code far too long"))
    assert record_result(store, result_write(store, tid)) is True  # the connection is fine


def test_a_lost_connection_fails_one_write_and_the_next_one_reconnects(
    pg_store: tuple[Store, str],
) -> None:
    store, db_url = pg_store
    import psycopg
    from sqlalchemy.exc import OperationalError

    from crosstable.store import hotpath

    service = make_service(store)
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")  # the hot path has a connection now
    kept = hotpath._kept_connections(store)
    pids = [hot.pgconn.backend_pid for hot in kept._idle]
    assert pids
    with psycopg.connect(db_url.replace("+psycopg", ""), autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(OperationalError):
        service.record_result(tid, 1, 2, "0-1")
    change = service.record_result(tid, 1, 2, "0-1")  # a new connection
    assert not change.replayed
    _check(service, tid)


def test_a_statement_dropped_on_the_server_is_prepared_again(
    pg_store: tuple[Store, str],
) -> None:
    store, _ = pg_store
    from crosstable.store import hotpath

    service = make_service(store)
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    for hot in hotpath._kept_connections(store)._idle:
        assert hot.prepared
        hot.run(b"DEALLOCATE ALL")
    tried = []
    original = hotpath._write_postgresql

    def spy(hot: Any, write: Any) -> bool:
        tried.append(original(hot, write))
        return tried[-1]

    hotpath._write_postgresql = spy  # type: ignore[assignment]
    try:
        service.record_result(tid, 1, 2, "½-½")
    finally:
        hotpath._write_postgresql = original  # type: ignore[assignment]
    assert tried == [True]
    _check(service, tid)
