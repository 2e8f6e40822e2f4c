"""Fixtures shared by the store and service tests: every test runs on SQLite and PostgreSQL.

SQLite is a real file in ``tmp_path``. PostgreSQL is the server named by
``CROSSTABLE_TEST_PG_URL`` (``scripts/postgres.sh`` starts one); each test gets a
schema of its own. Without that variable the PostgreSQL cases are skipped locally
(in CI a skip is a failure, see conftest.py).
"""

from __future__ import annotations

import atexit
import datetime as dt
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from crosstable.core.model import LotsMethod
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.store import Store, open_store
from crosstable.store.hotpath import ResultWrite
from crosstable.store.models import TournamentRow

PG_URL = os.environ.get("CROSSTABLE_TEST_PG_URL", "")
NAMES = ("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fyodor", "Gayane", "Hovhannes")


def pg_schema_url(base: str, schema: str) -> str:
    options = quote(f"-csearch_path={schema}")
    return base + ("&" if "?" in base else "?") + f"options={options}"


@contextmanager
def new_database(kind: str, folder: Path, name: str = "store") -> Iterator[str]:
    """A fresh, empty database of ``kind``: ``"sqlite"``, the file ``folder/name.db``;
    ``"postgresql"``, a schema of its own on the test server (dropped afterwards; under
    pytest-xdist that server's database is the worker's own, see tests/conftest.py)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder}/{name}.db"
        return
    if not PG_URL:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    schema = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield pg_schema_url(PG_URL, schema)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind; for a test that also asks for ``store`` or
    ``migrated_url``, a PostgreSQL database at the newest schema from the process's pool
    (see ``SchemaPool``)."""
    wanted = {"store", "migrated_url"} & set(request.fixturenames)
    if request.param == "postgresql" and PG_URL and wanted:
        with POOL.schema() as url:
            yield url
        return
    with new_database(request.param, tmp_path) as url:
        yield url


class Templates:
    """A migrated database of each kind, made once per process (per pytest-xdist worker):
    a fresh database gets the newest schema by a copy of it instead of running every
    migration again (a quarter of a second per test, over a thousand tests). The copy is
    the migrated database itself (SQLite: the file; PostgreSQL: the schema and its rows
    as ``pg_dump`` writes them), so the store opened on it is the one the migrations make;
    the migrations themselves are tested on empty databases (tests/test_store.py)."""

    def __init__(self) -> None:
        self.sqlite: bytes | None = None
        self.postgresql: str | None = None

    def sqlite_copy(self, path: Path) -> None:
        if self.sqlite is None:
            with tempfile.TemporaryDirectory(prefix="crosstable-template-") as folder:
                made = Path(folder) / "template.db"
                open_store(f"sqlite:///{made}").close()
                connection = sqlite3.connect(made)
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                connection.close()
                self.sqlite = made.read_bytes()
        path.write_bytes(self.sqlite)

    def postgresql_copy(self, schema: str) -> bool:
        """Fill the empty ``schema`` from the template; False when there is none (no
        ``pg_dump``, or one that cannot dump this server): the caller migrates instead."""
        import psycopg

        if self.postgresql is None:
            self.postgresql = self.dumped() or ""
        if not self.postgresql:
            return False
        with psycopg.connect(PG_URL) as connection:
            connection.execute(self.postgresql.replace("{schema}", schema).encode())
        return True

    def dumped(self) -> str | None:
        """A migrated schema as ``pg_dump`` writes it, its name written ``{schema}``."""
        import psycopg

        dump = shutil.which("pg_dump")
        if dump is None:
            return None
        template = "t_template_" + uuid.uuid4().hex[:16]
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {template}")
        try:
            open_store(pg_schema_url(PG_URL, template)).close()
            command = [dump, "--schema", template, "--no-owner", "--no-privileges", "--inserts"]
            made = subprocess.run([*command, "--dbname", PG_URL], capture_output=True, text=True)
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as connection:
                connection.execute(f"DROP SCHEMA {template} CASCADE")
        if made.returncode != 0:  # e.g. a pg_dump older than the server
            return None
        # psql's meta-commands (\restrict) and the schema itself (the test made it) go
        lines = [line for line in made.stdout.splitlines() if not line.startswith("\\")]
        text = re.sub(rf"^CREATE SCHEMA {template};$", "", "\n".join(lines), flags=re.M)
        return text.replace(template, "{schema}")


TEMPLATES = Templates()


#: what the schema of a migrated PostgreSQL schema is made of, in one text: its tables,
#: columns, indexes, sequences, constraints, triggers, functions and migration version
#: (``{schema}`` is the schema's name)
SHAPE = """
SELECT concat_ws('|',
  (SELECT string_agg(concat_ws(':', c.relname, c.relkind, a.attnum, a.attname, a.atttypid,
                               a.attnotnull, a.atthasdef, a.attisdropped), ','
                     ORDER BY c.relname, a.attnum)
     FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
    WHERE c.relnamespace = '{schema}'::regnamespace),
  (SELECT string_agg(concat_ws(':', conname, contype, pg_get_constraintdef(oid)), ','
                     ORDER BY conname)
     FROM pg_constraint WHERE connamespace = '{schema}'::regnamespace),
  (SELECT string_agg(concat_ws(':', t.tgname, t.tgenabled), ',' ORDER BY t.tgname)
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = '{schema}'::regnamespace),
  (SELECT string_agg(concat_ws(':', proname, md5(prosrc)), ',' ORDER BY proname)
     FROM pg_proc WHERE pronamespace = '{schema}'::regnamespace),
  (SELECT string_agg(version_num, ',') FROM {schema}.alembic_version)),
  (SELECT array_agg(relname::text) FROM pg_class
    WHERE relnamespace = '{schema}'::regnamespace AND relkind = 'r'
      AND relname <> 'alembic_version' AND pg_relation_size(oid) > 0)
"""


#: the URLs of the schemas lent out now (``migrated`` leaves them as they are)
LENT: set[str] = set()


class SchemaPool:
    """Migrated PostgreSQL schemas of this process (a pytest-xdist worker), each lent to
    one test at a time: a test that uses the ``store`` fixture on PostgreSQL gets one
    instead of a new schema filled from the template and dropped after it (41 tables with
    their indexes made and dropped for every test: three to four times the server's
    work and time of emptying them).

    When the test ends its schema is checked and emptied: if its shape (``SHAPE``:
    tables, columns, constraints, triggers, functions, the migration version) is not the
    template's — a test downgraded it, say — it is dropped. Otherwise every table a row
    was ever written to (a heap of a block or more) is emptied back to no block at all
    (``emptied``), every sequence starts again at 1, and the schema is renamed: its
    notification channel and its advisory locks (both named after the schema) are new,
    so a connection or thread a test left behind cannot hear or block the next test. An
    emptied table has no block, as in a new schema, so rows come back in the order they
    were written."""

    def __init__(self) -> None:
        self.free: list[str] = []
        self.shape: str | None = None

    @contextmanager
    def schema(self) -> Iterator[str]:
        import psycopg

        if self.free:
            schema = self.free.pop()
        else:
            schema = "t_" + uuid.uuid4().hex[:16]
            with psycopg.connect(PG_URL, autocommit=True) as connection:
                connection.execute(f"CREATE SCHEMA {schema}")
            url = migrated(pg_schema_url(PG_URL, schema))
            if self.shape is None:
                self.shape = self.looked_at(schema)[0]
        url = pg_schema_url(PG_URL, schema)
        LENT.add(url)
        try:
            yield url
        finally:
            LENT.discard(url)
            self.take_back(schema)

    def looked_at(self, schema: str) -> tuple[str, list[str]]:
        """The schema's shape and the tables written to."""
        import psycopg

        with psycopg.connect(PG_URL, autocommit=True) as connection:
            row = connection.execute(SHAPE.replace("{schema}", schema).encode()).fetchone()
        assert row is not None
        # a foreign key's definition names its table with the schema (the connection's
        # search path does not hold it): the shape is compared without the name
        return row[0].replace(schema, "{schema}"), row[1] or []

    def take_back(self, schema: str) -> None:
        import psycopg

        try:
            shape, written = self.looked_at(schema)
        except psycopg.Error:  # e.g. its migration version table gone
            shape, written = "", []
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            # a test's leftover transaction must not hold the next test up for long
            connection.execute("SET lock_timeout = '20s'")
            if shape != self.shape:
                connection.execute(f"DROP SCHEMA {schema} CASCADE")
                return
            renamed = "t_" + uuid.uuid4().hex[:16]
            try:
                with connection.transaction():
                    # the rows go without their triggers (foreign keys, the product's own)
                    connection.execute("SET LOCAL session_replication_role = replica")
                    for table in written:
                        connection.execute(f"DELETE FROM {schema}.{table}")
                    connection.execute(
                        "SELECT setval(oid, 1, false) FROM pg_class"
                        f" WHERE relnamespace = '{schema}'::regnamespace AND relkind = 'S'"
                    )
                    connection.execute(f"ALTER SCHEMA {schema} RENAME TO {renamed}")
                self.emptied(connection, renamed, written)
            except psycopg.errors.LockNotAvailable:
                # still in use by something the test left: not lent again (dropping it
                # would wait on the same lock; the worker's database goes at the end)
                return
        self.free.append(renamed)

    @staticmethod
    def emptied(connection: Any, schema: str, written: list[str]) -> None:
        """Gives the tables whose rows were deleted their new, empty file back, as a
        new schema has: a vacuum cuts a table whose rows are all gone to no block at
        all (a fifth of the server's time of ``TRUNCATE … CASCADE``, which makes new
        files for every table that refers to one, and their indexes); a table it could
        not cut (a transaction the test left open still sees its rows) is truncated.
        The planner is then told, as of a new table, that it was never counted."""
        if not written:
            return
        tables = [f"{schema}.{table}" for table in written]
        connection.execute(f"VACUUM {', '.join(tables)}")
        kept = [
            name
            for (name,) in connection.execute(
                "SELECT oid::regclass::text FROM pg_class"
                f" WHERE relnamespace = '{schema}'::regnamespace AND relkind = 'r'"
                " AND relname = ANY(%s) AND pg_relation_size(oid) > 0",
                [written],
            )
        ]
        if kept:
            connection.execute(f"TRUNCATE {', '.join(kept)} CASCADE")
        connection.execute(
            "UPDATE pg_class SET reltuples = -1, relpages = 0, relallvisible = 0"
            f" WHERE relnamespace = '{schema}'::regnamespace AND relname = ANY(%s)",
            [written],
        )

    def close(self) -> None:
        """Drops the schemas not lent out (at the end of the process)."""
        import psycopg

        if not self.free:
            return
        try:
            with psycopg.connect(PG_URL, autocommit=True) as connection:
                for schema in self.free:
                    connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        except psycopg.OperationalError:
            pass  # a pytest-xdist worker's database, schemas and all, went before this
        self.free.clear()


POOL = SchemaPool()
atexit.register(POOL.close)


def migrated(url: str) -> str:
    """The fresh, empty database at ``url`` (from ``new_database``, or an SQLite file not
    made yet) brought to the newest schema from the process's template; returns ``url``.
    A schema lent by the pool is at the newest schema already; an SQLite file that has
    rows is migrated in place, as ``open_store`` would."""
    if url in LENT:
        return url
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if "?" in url or (path.exists() and path.stat().st_size):  # not a fresh file
            open_store(url).close()
        else:
            TEMPLATES.sqlite_copy(path)
        return url
    schema = re.search(r"search_path%3D(\w+)", url)
    if schema is None or not TEMPLATES.postgresql_copy(schema.group(1)):
        open_store(url).close()
    return url


@pytest.fixture
def migrated_url(db_url: str) -> str:
    """A database of each kind at the newest schema, no store opened on it (for tests that
    open their own, or several)."""
    return migrated(db_url)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(migrated(db_url))
    try:
        yield opened
    finally:
        opened.close()


def make_service(store: Store, seed: int = 1) -> Service:
    clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC), dt.timedelta(seconds=1))
    return Service(store, clock=clock, random=random.Random(seed))


@pytest.fixture
def service(store: Store) -> Service:
    return make_service(store)


def registered(service: Service, players: int = 5, **regulations: object) -> int:
    """A tournament with ``players`` players registered (numbers 1…players); its id."""
    created = service.create_tournament(Regulations(name="Club", **regulations))  # type: ignore[arg-type]
    tid = created.tournament_id
    for index in range(players):
        name = NAMES[index] if index < len(NAMES) else f"Player {index + 1}"
        service.add_player(tid, PlayerInfo(name, rating=2000 + index))
    return tid


def started(service: Service, players: int = 5, **regulations: object) -> int:
    """A started round robin; starting number = registration number."""
    tid = registered(service, players, **regulations)
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, players + 1)))
    service.start(tid)
    return tid


def result_write(store: Store, tid: int, **changes: Any) -> ResultWrite:
    """A hot-path write of round 1 board 1 (1-0) at the tournament's revision; ``changes``
    override any field."""
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        values: dict[str, Any] = {
            "tournament_id": tid,
            "revision": row.revision,
            "created_at": row.created_at,
            "round": 1,
            "board": 1,
            "result": "10",
            "reason": "normal",
            "old_reason": "normal",
            "old_version": 1,
            "at": "2026-05-01T18:00:00.000000+00:00",
            "actor": "",
            "kind": "result",
            "summary": "round 1 board 1: 1-0",
            "changes": json.dumps([]),
            "data": json.dumps({}),
            "idempotency_key": None,
            "standings": json.dumps({"rows": []}),
        }
    values.update(changes)
    return ResultWrite(**values)
