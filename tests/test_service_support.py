"""Fixtures shared by the store and service tests: every test runs on SQLite and PostgreSQL.

SQLite is a real file in ``tmp_path``. PostgreSQL is the server named by
``CROSSTABLE_TEST_PG_URL`` (``scripts/postgres.sh`` starts one); each test gets a
schema of its own. Without that variable the PostgreSQL cases are skipped locally
(in CI a skip is a failure, see conftest.py).
"""

from __future__ import annotations

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
    """A fresh, empty database of each kind."""
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


def migrated(url: str) -> str:
    """The fresh, empty database at ``url`` (from ``new_database``) brought to the newest
    schema from the process's template; returns ``url``."""
    if url.startswith("sqlite:///"):
        TEMPLATES.sqlite_copy(Path(url.removeprefix("sqlite:///")))
        return url
    schema = re.search(r"search_path%3D(\w+)", url)
    if schema is None or not TEMPLATES.postgresql_copy(schema.group(1)):
        open_store(url).close()
    return url


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
