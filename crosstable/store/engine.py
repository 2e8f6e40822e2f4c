"""Opening the store: which database, with which settings, migrated to the newest schema.

``--db`` / ``CROSSTABLE_DB`` name the database: a file path (SQLite), a
``sqlite:///…`` URL or a ``postgresql://…`` URL (PostgreSQL through psycopg 3).
Without either, a per-user file is used (``$XDG_DATA_HOME/crosstable/crosstable.db``,
by default ``~/.local/share/crosstable/crosstable.db``).

SQLite runs in WAL mode with foreign keys on, a 30 s busy timeout and
``synchronous=NORMAL``: with WAL that never loses an acknowledged commit when the
process dies (tested with SIGKILL) and never corrupts the file; only a power cut
or an OS crash may lose the last commits before a checkpoint. Set
``CROSSTABLE_SQLITE_SYNCHRONOUS=FULL`` to sync every commit to the disk too
(slower: one fsync per change). Every write transaction starts with ``BEGIN IMMEDIATE``,
so writers queue up instead of failing half-way. PostgreSQL keeps its default
durability (``synchronous_commit=on``); writers serialise per tournament with
``SELECT … FOR UPDATE`` on the tournament row (see :mod:`crosstable.service`).

>>> resolve_url("club.db").startswith("sqlite:///")
True
>>> resolve_url("postgresql://arbiter@localhost/chess")
'postgresql+psycopg://arbiter@localhost/chess'
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Executable, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from crosstable.core.errors import CrosstableError
from crosstable.store.migrations import HEAD


class StoreError(CrosstableError):
    """The database cannot be opened or used (bad URL, unreachable server…)."""


#: how long a SQLite writer waits for another one before giving up
BUSY_TIMEOUT_SECONDS = 30


def default_db_path() -> Path:
    """The per-user SQLite file used when neither ``--db`` nor ``CROSSTABLE_DB`` is given."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "crosstable" / "crosstable.db"


def resolve_url(db: str | Path | None = None) -> str:
    """The SQLAlchemy URL for ``db`` (a path or URL), ``CROSSTABLE_DB`` or the default file."""
    if db is None or str(db) == "":
        db = os.environ.get("CROSSTABLE_DB") or default_db_path()
    name = str(db)
    for prefix in ("postgresql://", "postgres://"):
        if name.startswith(prefix):
            return "postgresql+psycopg://" + name[len(prefix) :]
    if name.startswith(("postgresql+", "sqlite:")):
        return name
    if "://" in name:
        raise StoreError(f"database {name!r}: use a file path, sqlite:/// or postgresql://")
    path = Path(name).expanduser().resolve()
    return f"sqlite:///{path}"


def make_engine(url: str) -> Engine:
    """An engine with the product's connection settings for SQLite or PostgreSQL."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    if url.startswith("postgresql"):
        try:
            return create_engine(url, pool_size=5, max_overflow=20, pool_recycle=3600)
        except ImportError as error:  # pragma: no cover - depends on the installation
            raise StoreError(
                f"PostgreSQL needs psycopg 3: pip install 'crosstable[postgres]' ({error})"
            ) from None
    raise StoreError(f"database URL {url!r}: only SQLite and PostgreSQL are supported")


def _sqlite_engine(url: str) -> Engine:
    database = url.split("sqlite:///", 1)[-1]
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take over transaction control from the sqlite3 module (it would BEGIN lazily
        # and DEFERRED); pragmas must run outside a transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_SECONDS * 1000}")
        cursor.execute(f"PRAGMA synchronous={_synchronous()}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        write = connection.get_execution_options().get("crosstable_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _synchronous() -> str:
    value = os.environ.get("CROSSTABLE_SQLITE_SYNCHRONOUS", "NORMAL").strip().upper()
    if value not in ("NORMAL", "FULL", "EXTRA"):
        raise StoreError(
            f"CROSSTABLE_SQLITE_SYNCHRONOUS={value}: use NORMAL, FULL or EXTRA "
            "(turning syncing off is not offered)"
        )
    return value


class Store:
    """An open database: transactions for the services, migrated to the newest schema."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        self._writer = engine.execution_options(crosstable_write=True)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One write transaction: committed at the end, rolled back on any error."""
        session = Session(self._writer, expire_on_commit=False, autoflush=False)
        with session, session.begin():
            yield session

    @contextmanager
    def raw_transaction(self) -> Iterator[Any]:
        """One write transaction on the driver's own connection (sqlite3 or psycopg),
        from the engine's pool: no ORM, no SQL compilation — the hot path for results
        (:mod:`crosstable.store.hotpath`). SQLite begins with ``BEGIN IMMEDIATE`` like
        every other write; committed at the end, rolled back on any error."""
        raw = self.engine.raw_connection()
        try:
            connection: Any = raw.driver_connection
            sqlite = self.dialect == "sqlite"
            if sqlite:
                connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                if sqlite:
                    connection.execute("COMMIT")
                else:
                    connection.commit()
            except BaseException:
                try:
                    if not sqlite:
                        connection.rollback()
                    elif connection.in_transaction:
                        connection.execute("ROLLBACK")
                except Exception:  # the connection is broken: never reuse it
                    raw.invalidate()
                raise
        finally:
            raw.close()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A read-only transaction (a consistent snapshot; never blocks writers).

        It ends with COMMIT, not ROLLBACK, after dropping anything pending in the
        session (so nothing is ever written): psycopg forgets its prepared statements
        at every ROLLBACK, which would keep the hot path's statement from being
        prepared on a server that also answers readers."""
        session = Session(self.engine, expire_on_commit=False, autoflush=False)
        with session:
            yield session
            session.expunge_all()
            session.commit()

    def first(self, statement: Executable, parameters: Mapping[str, object] | None = None) -> Any:
        """The first row of one small read, or None, on a plain connection (no ORM
        session: a third of the time of :meth:`reading` for the reads asked before most
        changes and after every publication). It ends with COMMIT too."""
        with self.engine.connect() as connection:
            row = connection.execute(statement, parameters or {}).first()
            connection.commit()
        return row

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.engine.url.render_as_string(hide_password=True)!r})"


def open_store(db: str | Path | None = None, *, migrate: bool = True) -> Store:
    """Open the database named by ``db``, ``CROSSTABLE_DB`` or the default; create or upgrade it."""
    url = resolve_url(db)
    store = Store(url, make_engine(url))
    if migrate:
        try:
            upgrade(store)
        except CrosstableError:
            store.close()
            raise
        except Exception as error:
            store.close()
            raise StoreError(
                f"cannot open the database {_shown(url)}: {_first_line(error)}"
            ) from None
    return store


def upgrade(store: Store) -> None:
    """Run the migrations up to the newest schema (a no-op when already there).

    Several processes may start at once: SQLite's ``BEGIN IMMEDIATE`` and a
    PostgreSQL advisory lock make them take turns, so each migration runs once.
    """
    # Alembic takes about 0.2 s to import: deferred to here, off every command's start-up.
    from alembic import command
    from alembic.config import Config

    with store._writer.connect() as connection, connection.begin():
        if store.dialect == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(7340171)"))
        if inspect(connection).has_table("alembic_version"):
            current = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            if current == HEAD:
                return
        config = Config()
        config.set_main_option("script_location", "crosstable.store:migrations")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _shown(url: str) -> str:
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :]
    return make_url(url).render_as_string(hide_password=True)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
