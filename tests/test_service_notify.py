"""Change notifications between processes (PostgreSQL): sent after the commit, and
never lost — a change whose notification never went out is still delivered by the
listeners' polling, once."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_service_support import make_service, pg_schema_url, started

from crosstable.service import EventBus, Notification, PostgresListener
from crosstable.service import frame as frame_module
from crosstable.service.bus import PostgresNotifier, channel_for, notifier_for
from crosstable.store import open_store

PG_URL = os.environ.get("CROSSTABLE_TEST_PG_URL", "")


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "n_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield pg_schema_url(PG_URL, schema)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def _wait(until: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        time.sleep(0.02)
    return until()


class _Silent:
    """A notifier that loses everything (as if the process died after its commits)."""

    def __init__(self) -> None:
        self.dropped: list[Notification] = []

    def send(self, notification: Notification) -> None:
        self.dropped.append(notification)


def _listening(url: str) -> Any:
    """A connection LISTENing on the channel of the schema ``url`` names."""
    import psycopg
    from psycopg import sql

    connection = psycopg.connect(url.replace("+psycopg", ""), autocommit=True)
    schema = connection.execute("SELECT current_schema()").fetchone()
    channel = channel_for(schema[0] if schema else None)
    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
    return connection


def _said(n: Notification) -> tuple[Any, ...]:
    return (n.tournament_id, n.seq, n.kind, n.summary, n.games)


def test_a_change_never_announced_is_delivered_by_polling(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(pg_url)
    try:
        service = make_service(store)
        tid = started(service, 4)
        service.record_result(tid, 1, 1, "1-0")  # the next result takes the fast path
        assert notifier_for(store).flush()  # (the changes so far are not the listener's)
        other = EventBus()  # another app process
        heard: list[Notification] = []
        other.subscribe(heard.append)
        with PostgresListener(pg_url, other, poll_interval=0.2):
            silent = _Silent()
            monkeypatch.setattr(frame_module, "notifier_for", lambda _store: silent)
            fast = service.record_result(tid, 1, 2, "½-½")  # fast path
            undone = service.undo(tid)  # ordinary path
            assert [n.seq for n in silent.dropped] == [fast.seq, undone.seq]
            assert _wait(lambda: len(heard) >= 2)
            time.sleep(1.0)  # several more polls: nothing is delivered twice
        assert [_said(n) for n in heard] == [_said(n) for n in silent.dropped]
        assert heard[0].games == ((1, 2),) and heard[1].kind == "undo"
    finally:
        store.close()


def test_a_change_committed_after_a_later_one_is_found_by_polling_too(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A poll reads the events since the highest id it saw (not every tournament): a
    transaction that took its id before another and committed after the poll that saw
    the other is still found (the id it skipped is looked for again)."""
    import psycopg

    store = open_store(pg_url)
    try:
        service = make_service(store)
        tid, late_tid = started(service, 4), started(service, 4)
        service.record_result(tid, 1, 1, "1-0")
        assert notifier_for(store).flush()
        other = EventBus()
        heard: list[Notification] = []
        other.subscribe(heard.append)
        with PostgresListener(pg_url, other, poll_interval=0.1):
            silent = _Silent()
            monkeypatch.setattr(frame_module, "notifier_for", lambda _store: silent)
            late = psycopg.connect(pg_url.replace("+psycopg", ""))
            try:
                seq = service.revision(late_tid) + 1
                late.execute(  # takes its event id now, commits later
                    "INSERT INTO events (tournament_id, seq, at, actor, kind, summary, "
                    "changes, data) VALUES (%s, %s, '2026-05-01T18:00:00', 'arbiter', "
                    "'note', 'late', '[]', '{}')",
                    (late_tid, seq),
                )
                fast = service.record_result(tid, 1, 2, "0-1")  # a later id, committed
                assert _wait(lambda: any(n.seq == fast.seq for n in heard))
                time.sleep(0.3)  # polls past the later id
                late.commit()
            finally:
                late.close()
            assert _wait(lambda: any(n.tournament_id == late_tid for n in heard))
            time.sleep(0.5)
        assert [(n.tournament_id, n.seq, n.summary) for n in heard] == [
            (tid, fast.seq, silent.dropped[0].summary),
            (late_tid, seq, "late"),
        ]
    finally:
        store.close()


def test_an_announced_change_is_heard_once(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        service = make_service(store)
        tid = started(service, 4)
        assert notifier_for(store).flush()
        other = EventBus()
        heard: list[Notification] = []
        other.subscribe(heard.append)
        with PostgresListener(pg_url, other, poll_interval=0.1):
            changes = [service.record_result(tid, 1, board, "1-0") for board in (1, 2)]
            assert _wait(lambda: len(heard) >= 2)
            time.sleep(0.6)  # polls after the notifications: no second delivery
        assert [(n.seq, n.origin) for n in heard] == [
            (change.seq, service.bus.origin) for change in changes
        ]
    finally:
        store.close()


def test_a_listener_does_not_republish_changes_made_in_its_own_process(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        service = make_service(store)
        tid = started(service, 4)
        heard: list[Notification] = []
        service.bus.subscribe(heard.append)
        with PostgresListener(pg_url, service.bus, poll_interval=0.1):
            change = service.record_result(tid, 1, 1, "0-1")
            time.sleep(0.8)
        assert [n.seq for n in heard] == [change.seq]
    finally:
        store.close()


def test_closing_the_store_sends_what_is_waiting(pg_url: str) -> None:
    """The command line records one result and exits: the notification still goes out
    (at once, not by the next poll)."""

    store = open_store(pg_url)
    service = make_service(store)
    tid = started(service, 4)
    with _listening(pg_url) as listening:
        notifier = notifier_for(store)
        assert notifier.flush()  # the changes so far went out: the next one would wait
        notifier.interval = 3600.0  # an hour to gather more, but for the close
        change = service.record_result(tid, 1, 1, "1-0")
        store.close()
        payloads = [m.payload for m in listening.notifies(timeout=2.0, stop_after=50)]
    said = [Notification.from_json(p) for p in payloads]
    assert (tid, change.seq, service.bus.origin) in [
        (n.tournament_id, n.seq, n.origin) for n in said
    ]
    assert not notifier.usable  # closed with the store


def test_the_notifier_sends_many_in_one_statement_and_survives_a_lost_server(
    pg_url: str,
) -> None:
    import psycopg

    name = "notifier_" + uuid.uuid4().hex[:12]
    notifier = PostgresNotifier(f"{pg_url}&application_name={name}")
    try:
        with _listening(pg_url) as listening:
            sent = [Notification(10**9, seq, "result", f"#{seq}") for seq in range(1, 31)]
            for notification in sent:
                notifier.send(notification)
            assert notifier.flush()
            got = [Notification.from_json(m.payload) for m in listening.notifies(timeout=2.0)]
            mine = [n for n in got if n.tournament_id == 10**9]
            assert [n.seq for n in mine] == list(range(1, 31))
            # the server drops the notifier's connection: that batch is lost (the
            # listeners' polling covers it), the next one goes out on a new connection
            with psycopg.connect(PG_URL, autocommit=True) as admin:
                ended = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s",
                    (name,),
                ).fetchall()
            assert ended == [(True,)]
            notifier.send(Notification(10**9, 31, "result", "#31"))
            notifier.flush()
            notifier.send(Notification(10**9, 32, "result", "#32"))
            assert notifier.flush()
            late = [Notification.from_json(m.payload) for m in listening.notifies(timeout=2.0)]
            assert 32 in [n.seq for n in late if n.tournament_id == 10**9]
    finally:
        notifier.close()


def test_tables_in_another_schema_are_another_channel(pg_url: str) -> None:
    """Two sets of tables in one database (schemas) do not hear each other's changes
    (their tournament numbers are the same)."""
    import psycopg

    schema = "n_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    here, there = open_store(pg_url), open_store(pg_schema_url(PG_URL, schema))
    try:
        one, two = make_service(here), make_service(there)
        tid = started(one, 4)
        assert started(two, 4) == tid
        for store in (here, there):
            assert notifier_for(store).flush()
        heard: list[Notification] = []
        bus = EventBus()
        bus.subscribe(heard.append)
        with PostgresListener(pg_url, bus, poll_interval=0.1):
            two.record_result(tid, 1, 1, "1-0")
            change = one.record_result(tid, 1, 2, "0-1")
            assert _wait(lambda: bool(heard))
            assert notifier_for(there).flush()
            time.sleep(0.5)
        assert [(n.seq, n.origin) for n in heard] == [(change.seq, one.bus.origin)]
    finally:
        here.close()
        there.close()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
