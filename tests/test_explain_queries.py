"""Every query a tournament page, the live table and a result run, EXPLAINed on a
PostgreSQL database with thousands of tournaments (issue 17 item 3).

The queries are the ones the code really sends: a listener on the store's engine
records each statement (and its parameters) while a tournament's page, its standings
and live fragment are served and two results are recorded through the JSON API (the
first, a helper's, builds the live table; the second, a game server's batch, reads
its token's grant, counts it in the shared limit and goes the fast way); the fast way's own
statements (crosstable/store/hotpath.py, its own connections) are EXPLAINed as
prepared statements. Each plan is read twice, with 300 and with 3 000 copies of the
tournament (bench/portal_fill.py, then ANALYZE): a test fails on a sequential scan
of a table that grows with the number of tournaments, and on an estimated cost that
grows with it (more than half as much again at ten times the tournaments).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from crosstable.service import FixedClock, Service, bus
from crosstable.service.accounts import Accounts
from crosstable.store import Store, hotpath, open_store
from tests.test_service_support import PG_URL, pg_schema_url, started

pytest.importorskip("fastapi")
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from portal_fill import analyze, clone_tournaments

#: tables whose rows grow with the number of tournaments (a seq scan of one is refused)
BIG = {
    "tournaments",
    "entries",
    "rounds",
    "games",
    "byes",
    "events",
    "live_standings",
    "tournament_staff",
    "tournament_access",
    "entry_accounts",
    "api_token_grants",
}


@pytest.fixture()
def pg_store() -> Iterator[Store]:
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "x_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    store = open_store(pg_schema_url(PG_URL, schema))
    try:
        yield store
    finally:
        store.close()
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _explain(store: Store, statement: str, parameters: Any) -> dict[str, Any]:
    """The plan of ``statement``; a read is run too (``ANALYZE, BUFFERS``: the pages it
    really touched), a write only planned. Rolled back either way."""
    reads = statement.lstrip().upper().startswith("SELECT")
    options = "ANALYZE, BUFFERS, FORMAT JSON" if reads else "FORMAT JSON"
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(f"EXPLAIN ({options}) " + statement, parameters)
        found = cursor.fetchone()[0]
        raw.rollback()
    finally:
        raw.close()
    plan = found if isinstance(found, list) else json.loads(found)
    return dict(plan[0]["Plan"])


def _pages(plan: dict[str, Any]) -> int:
    """The buffers a run read (shared hits and reads; 0 for a plan that was not run)."""
    return int(plan.get("Shared Hit Blocks", 0)) + int(plan.get("Shared Read Blocks", 0))


def _explain_prepared(store: Store, statement: str, values: list[str | None]) -> dict[str, Any]:
    """A fast-way statement (``$n`` text parameters), as the server plans it when run."""
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute("SET plan_cache_mode = force_custom_plan")
        cursor.execute("PREPARE probe AS " + statement)
        args = ", ".join("NULL" if v is None else "'" + v.replace("'", "''") + "'" for v in values)
        cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE probe({args})")
        found = cursor.fetchone()[0]
        raw.rollback()
        cursor.execute("DEALLOCATE probe")
        cursor.execute("RESET plan_cache_mode")
        raw.commit()
    finally:
        raw.close()
    plan = found if isinstance(found, list) else json.loads(found)
    return dict(plan[0]["Plan"])


def _seq_scans(plan: dict[str, Any], big: set[str]) -> list[str]:
    return [
        str(node.get("Relation Name"))
        for node in _nodes(plan)
        if node.get("Node Type") == "Seq Scan" and node.get("Relation Name") in big
    ]


def _big_tables(store: Store) -> set[str]:
    """The tables of BIG that hold more than 1 000 rows now (a scan of a small one is
    the planner's right choice)."""
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples > 1000 "
            "AND relnamespace = current_schema()::regnamespace"
        )
        found = {str(name) for (name,) in cursor.fetchall()}
        raw.rollback()
    finally:
        raw.close()
    return found & BIG


def _numbered(sql: str) -> str:
    parts = sql.split("?")
    return "".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts))


_QUERIES = ("SELECT", "UPDATE", "INSERT", "DELETE", "WITH")


class World:
    """A tournament page, its live table and two results, with their SQL recorded."""

    def __init__(self, store: Store) -> None:
        clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC), dt.timedelta(seconds=1))
        self.store = store
        self.service = Service(store, clock=clock, random=random.Random(1))
        accounts = Accounts(store, clock=clock)
        admin = accounts.create_user("arbiter", "correct horse battery", is_admin=True)
        helper = accounts.create_user("helper", "correct horse battery")
        self.token = accounts.create_token(helper.id)  # (a helper's role is read from the rows)
        self.source = started(self.service, 8)
        accounts.claim(self.source, admin)
        accounts.set_staff(self.source, helper.id, "helper")
        for number in range(1, 9):  # the players' accounts
            player = accounts.create_user(f"player{number}", "correct horse battery")
            accounts.link_entry(self.source, number, player.id)
        server = accounts.create_user("bridge", "correct horse battery")
        _id, self.server = accounts.create_game_server(server.id, tournaments=[self.source])
        self.service.record_result(self.source, 1, 1, "1-0", actor="arbiter")
        self.copies: list[int] = []

    def grow(self, copies: int) -> int:
        raw = self.store.engine.raw_connection()
        try:
            made = clone_tournaments(raw.driver_connection, self.source, copies)
            analyze(raw.driver_connection)
            # the visibility map as autovacuum leaves it on a live server: without it an
            # index-only scan (the listener's first poll) reads the heap too, and how much
            # depends on whether autovacuum came by, not on the query
            raw.driver_connection.autocommit = True
            try:
                raw.driver_connection.execute("VACUUM events")
            finally:
                raw.driver_connection.autocommit = False
        finally:
            raw.close()
        self.copies.extend(made)
        return made[len(made) // 2]

    def statements(self, tid: int) -> list[tuple[str, Any]]:
        """What the page, the standings, the live fragment and two results send."""
        seen: list[tuple[str, Any]] = []

        def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            if statement.lstrip().split(" ", 1)[0].upper() in _QUERIES:
                seen.append((statement, parameters))

        app = create_app(service=self.service, listen=False)
        auth = {"Authorization": f"Bearer {self.token}"}
        event.listen(self.store.engine, "before_cursor_execute", record)
        try:
            with TestClient(app) as client:
                for path in (f"/t/{tid}", f"/t/{tid}/standings", f"/t/{tid}/live"):
                    assert client.get(path).status_code == 200, path
                answer = client.post(
                    f"/api/v1/tournaments/{tid}/rounds/1/boards/2/result",
                    json={"result": "1-0"},
                    headers=auth,
                )
                assert answer.status_code == 200, answer.text
                # a game server's batch (its grant and the shared limit are read too)
                item = {"tournament": tid, "round": 1, "board": 3, "result": "0-1"}
                answer = client.post(
                    "/api/v1/results",
                    json={"results": [item]},
                    headers={"Authorization": f"Bearer {self.server}"},
                )
                assert answer.json()["accepted"] == 1, answer.text
        finally:
            event.remove(self.store.engine, "before_cursor_execute", record)
        unique: dict[str, Any] = {}
        for statement, parameters in seen:
            unique.setdefault(statement, parameters)
        return list(unique.items())

    def listener(self, tid: int) -> list[tuple[str, Any]]:
        """A listener's polls (crosstable/service/bus.py), as after a few changes."""
        raw = self.store.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("SELECT max(id) FROM events")
            top = int(cursor.fetchone()[0])
            raw.rollback()
        finally:
            raw.close()
        return [
            (bus.POLL_FIRST, (bus.HOLES_MOST,)),
            (bus.POLL_SINCE, (top - 3, [top - 5, top - 4], bus.POLL_MOST)),
            (bus.POLL_EVENTS, ([tid, tid], [1, 2])),
        ]

    def series_tick(self, tid: int) -> list[tuple[str, Any]]:
        """The series' tick's look-up of a group's round robin by its title."""
        from sqlalchemy.dialects.postgresql import psycopg

        from crosstable.service.series.tick import BY_TITLE

        sql = str(BY_TITLE.compile(dialect=psycopg.dialect()))
        # (a group's title: no copy of the tournament here has it)
        return [(sql, {"title": f"Series {tid}: edition 1, stage 1, group A"})]

    def fast_way(self, tid: int) -> list[tuple[str, list[str | None]]]:
        """The hot path's statements with values of a real tournament."""
        values: list[str | None] = [
            "3", str(tid), "2", "2026-05-01", "10", "normal", "0", "1", "4", "normal",
            "2026-05-01", "arbiter", "result", "x", "[]", "{}", None, "{}",
        ]  # fmt: skip
        return [
            (hotpath._PG_ALL, values),
            (_numbered(hotpath._CURRENT), [str(tid)]),
            (_numbered(hotpath._SINCE), [str(tid), "1"]),
        ]


def test_no_query_of_a_page_or_a_result_grows_with_the_number_of_tournaments(
    pg_store: Store,
) -> None:
    world = World(pg_store)
    pages: list[dict[str, int]] = []
    problems: list[str] = []
    for copies in (300, 2700):
        tid = world.grow(copies)
        # (seq scans are looked for at the larger size: at 300 rows a scan of a small
        # table can be the planner's right choice)
        big = _big_tables(pg_store) if copies > 1000 else set()
        assert not big or {"games", "events", "entries", "tournaments"} <= big
        measured: dict[str, int] = {}
        looked = world.statements(tid) + world.listener(tid) + world.series_tick(tid)
        for statement, parameters in looked:
            plan = _explain(pg_store, statement, parameters)
            measured[statement] = _pages(plan)
            problems += [f"seq scan of {t}: {statement}" for t in _seq_scans(plan, big)]
        for statement, values in world.fast_way(tid):
            plan = _explain_prepared(pg_store, statement, values)
            problems += [f"seq scan of {t}: {statement}" for t in _seq_scans(plan, big)]
        pages.append(measured)
    small, large = pages
    assert len(small) >= 10  # the page, the live table and the results ran their queries
    assert any("api_token_grants" in q for q in small) and any("rate_counters" in q for q in small)
    for statement, read in large.items():
        if statement == bus.POLL_FIRST:
            continue  # bounded by its LIMIT instead: below
        if statement in small and read > 1.5 * small[statement] + 4:
            problems.append(f"{small[statement]} → {read} pages: {statement}")
    # the listener's first poll reads the newest HOLES_MOST ids whatever the size: it
    # grows until the events reach that many, then stays (how many heap pages it visits
    # besides depends on whether VACUUM could set the visibility map, which other
    # transactions on a shared server decide, not the query); it walks the primary key
    # backwards, never sorts
    first = _explain(pg_store, bus.POLL_FIRST, (bus.HOLES_MOST,))
    kinds = {node["Node Type"] for node in _nodes(first)}
    assert first["Node Type"] == "Limit" and "Sort" not in kinds, kinds
    assert kinds & {"Index Scan", "Index Only Scan"}, kinds
    assert int(first["Actual Rows"]) <= bus.HOLES_MOST
    assert not problems, "\n".join(sorted(set(problems)))


def test_a_sequential_scan_is_caught(pg_store: Store) -> None:
    """The check can fail: a query on a column without an index scans the table."""
    world = World(pg_store)
    world.grow(2000)
    plan = _explain(pg_store, "SELECT round FROM games WHERE white = %(w)s", {"w": 3})
    assert _seq_scans(plan, _big_tables(pg_store)) == ["games"]
    assert _pages(plan) > 100  # (and reads every page of it)
