"""The hot path of recording a game result: plain SQL on the driver's own connection.

The service (:mod:`crosstable.service.recording`) knows the game and the
tournament from its live table, built at some revision; it prepares the event
and the standings in memory and hands them here. One write transaction does
the rest, with conditions that make it succeed only if the database is still
exactly what the table says:

1. ``UPDATE tournaments SET revision = n + 1 WHERE id = … AND revision = n AND
   created_at = … AND status = 'running'`` — the revision check, the bump, and
   the tournament's write lock (on PostgreSQL the row lock that every change of
   the tournament takes first, so changes of one tournament still take turns);
2. ``UPDATE games … WHERE … AND result IS NULL AND reason = … AND version = …``
   — the row exactly as the event's ``before`` says;
3. ``INSERT INTO events`` — the event (a repeated idempotency key violates the
   unique index);
4. the live standings row (SQLite: an upsert; PostgreSQL: an update — the row is
   there whenever a live table is, written by the same change that made the table).

SQLite runs these as four statements between ``BEGIN IMMEDIATE`` and
``COMMIT`` (in-process calls: cheap). PostgreSQL runs them as one statement
(data-modifying ``WITH`` steps, each taking its rows from the one before) that
is its own transaction: one round trip, one commit, and psycopg prepares it on
the server after a few executions. Any condition not met, or a repeated
idempotency key, rolls everything back and :func:`record_result` answers False:
the caller then takes the ordinary path, which reads the database and answers
as always (a conflict, a replay, …). The change notification is the caller's
business, after the commit (:mod:`crosstable.service.bus`).

On PostgreSQL the hot path keeps a few driver connections of its own, taken out
of the engine's pool (no check-out, reset and check-in around every result) and
closed when the store is closed.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError

from crosstable.store.engine import Store

_T = TypeVar("_T")

_BUMP = (
    "UPDATE tournaments SET revision = ? "
    "WHERE id = ? AND revision = ? AND created_at = ? AND status = 'running'"
)
_GAME = (
    "UPDATE games SET result = ?, reason = ?, version = ? WHERE tournament_id = ? "
    "AND round = ? AND board = ? AND result IS NULL AND reason = ? AND version = ?"
)
_EVENT = (
    "INSERT INTO events (tournament_id, seq, at, actor, kind, summary, changes, data, "
    "idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_STANDINGS = (
    "INSERT INTO live_standings (tournament_id, revision, body) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament_id) DO UPDATE SET revision = excluded.revision, "
    "body = excluded.body"
)

#: PostgreSQL: the four writes chained in one statement (server-side parameters
#: ``$n``, see ``_write_postgresql``). If a step writes nothing, the last line fails (a
#: run-time cast of a text that is no number: the only way to abort a lone statement)
#: and the whole of it rolls back.
_PG_ALL = """
WITH bump AS (
    UPDATE tournaments SET revision = $1::integer
    WHERE id = $2::integer AND revision = $3::integer
      AND created_at = $4::varchar AND status = 'running'
    RETURNING id
), game AS (
    UPDATE games SET result = $5::varchar, reason = $6::varchar,
        version = $7::integer + 1
    WHERE tournament_id IN (SELECT id FROM bump) AND round = $8::integer
      AND board = $9::integer AND result IS NULL
      AND reason = $10::varchar AND version = $7::integer
    RETURNING tournament_id
), event AS (
    INSERT INTO events (tournament_id, seq, at, actor, kind, summary, changes, data,
        idempotency_key)
    SELECT tournament_id, $1::integer, $11::varchar, $12::varchar,
        $13::varchar, $14::text, $15::json, $16::json,
        $17::varchar
    FROM game
    RETURNING tournament_id
), standings AS (
    UPDATE live_standings SET revision = $1::integer, body = $18::json
    WHERE tournament_id IN (SELECT tournament_id FROM event)
    RETURNING tournament_id
)
SELECT CASE WHEN count(*) = 1 THEN 1
    ELSE ('crosstable: stale live table, nothing written (' || count(*) || ')')::integer
    END
FROM standings
"""


@dataclass(slots=True)
class ResultWrite:
    """Everything one recorded result writes (JSON columns already encoded; not frozen:
    made once per result, and a frozen dataclass is slow to make)."""

    tournament_id: int
    #: the revision the caller's table is at; the event becomes ``revision + 1``
    revision: int
    #: the tournament's creation time (with the id, its identity)
    created_at: str
    round: int
    board: int
    result: str
    reason: str
    #: the game row as the caller knows it
    old_reason: str
    old_version: int
    at: str
    actor: str
    kind: str
    summary: str
    changes: str
    data: str
    idempotency_key: str | None
    #: the live standings' JSON text
    standings: str


#: what the locked try reads before it writes: (revision, created_at, status) and the
#: events after the caller's revision as (seq, row changes)
Current = tuple[int, str, str]
Events = list[tuple[int, Any]]
Build = Callable[[Current, Events], "ResultWrite | None"]

_CURRENT = "SELECT revision, created_at, status FROM tournaments WHERE id = ?"
_SINCE = "SELECT seq, changes FROM events WHERE tournament_id = ? AND seq > ? ORDER BY seq"


def record_result(store: Store, write: ResultWrite) -> bool:
    """Write one result in one transaction; False (nothing written) when the database is
    not at ``write.revision`` or the game row is not as expected."""
    return _translated(store, _record_postgresql if _postgres(store) else _record_sqlite, write)


def record_result_locked(store: Store, tournament_id: int, after: int, build: Build) -> bool:
    """Take the tournament's write lock first, then read its revision and the events
    after ``after``, let ``build`` make the write from them (None: write nothing), and
    write it in the same transaction: nobody can get in between, so it only fails if
    ``build`` declines or the request repeats an idempotency key (False)."""
    chosen = _locked_postgresql if _postgres(store) else _locked_sqlite
    return _translated(store, chosen, tournament_id, after, build)


# -- SQLite ------------------------------------------------------------------------------


def _record_sqlite(store: Store, write: ResultWrite) -> bool:
    try:
        with store.raw_transaction() as connection:  # BEGIN IMMEDIATE … COMMIT
            _write_sqlite(connection, write)
    except _StaleError:
        return False
    return True


def _locked_sqlite(store: Store, tournament_id: int, after: int, build: Build) -> bool:
    try:
        with store.raw_transaction() as connection:  # BEGIN IMMEDIATE: the lock
            current = connection.execute(_CURRENT, (tournament_id,)).fetchone()
            if current is None:
                raise _StaleError
            events = _decoded(connection.execute(_SINCE, (tournament_id, after)).fetchall())
            write = build(tuple(current), events)
            if write is None:
                raise _StaleError
            _write_sqlite(connection, write)
    except _StaleError:
        return False
    return True


def _write_sqlite(connection: Any, write: ResultWrite) -> None:
    import sqlite3

    seq = write.revision + 1
    tid = write.tournament_id
    bump = (seq, tid, write.revision, write.created_at)
    if connection.execute(_BUMP, bump).rowcount != 1:
        raise _StaleError
    game = (
        write.result,
        write.reason,
        write.old_version + 1,
        tid,
        write.round,
        write.board,
        write.old_reason,
        write.old_version,
    )
    if connection.execute(_GAME, game).rowcount != 1:
        raise _StaleError
    event = (
        tid,
        seq,
        write.at,
        write.actor,
        write.kind,
        write.summary,
        write.changes,
        write.data,
        write.idempotency_key,
    )
    try:
        connection.execute(_EVENT, event)
    except sqlite3.IntegrityError:  # a repeated idempotency key
        raise _StaleError from None
    connection.execute(_STANDINGS, (tid, seq, write.standings))


# -- PostgreSQL --------------------------------------------------------------------------


def _record_postgresql(store: Store, write: ResultWrite) -> bool:
    with _pg_connection(store) as hot:  # autocommit: the statement is its own transaction
        return _write_postgresql(hot, write)


def _locked_postgresql(store: Store, tournament_id: int, after: int, build: Build) -> bool:
    with _pg_connection(store) as hot:
        hot.prepare()  # (not inside the transaction: a failure there could not be retried)
        hot.run(b"BEGIN")
        try:
            found = hot.run(_pg_numbered(_CURRENT + " FOR UPDATE"), (tournament_id,))
            current = None
            if found.ntuples:
                revision, created_at, status = (found.get_value(0, i) for i in range(3))
                current = (int(revision), hot.text(created_at), hot.text(status))
            since = hot.run(_pg_numbered(_SINCE), (tournament_id, after))
            events = _decoded(
                [(since.get_value(i, 0), since.get_value(i, 1)) for i in range(since.ntuples)]
            )
            write = None if current is None else build(current, events)
            if write is None or not _write_postgresql(hot, write):
                hot.run(b"ROLLBACK")
                return False
            hot.run(b"COMMIT")
            return True
        except BaseException:
            if hot.usable:
                hot.run(b"ROLLBACK")
            raise


def _write_postgresql(hot: _Hot, write: ResultWrite) -> bool:
    enc = hot.encoding
    key = write.idempotency_key
    params = [  # $1…$18 as text (see _PG_ALL)
        str(write.revision + 1).encode(),
        str(write.tournament_id).encode(),
        str(write.revision).encode(),
        write.created_at.encode(enc),
        write.result.encode(enc),
        write.reason.encode(enc),
        str(write.old_version).encode(),
        str(write.round).encode(),
        str(write.board).encode(),
        write.old_reason.encode(enc),
        write.at.encode(enc),
        write.actor.encode(enc),
        write.kind.encode(enc),
        write.summary.encode(enc),
        write.changes.encode(enc),
        write.data.encode(enc),
        None if key is None else key.encode(enc),
        write.standings.encode(enc),
    ]
    try:
        hot.run_prepared(params)
    except _RefusedError as refused:
        if refused.sqlstate == _UNIQUE_VIOLATION:  # a repeated idempotency key
            return False
        if refused.sqlstate == _INVALID_TEXT and b"crosstable: stale" in refused.message:
            return False
        raise refused.error() from None
    return True


@contextmanager
def _pg_connection(store: Store) -> Iterator[_Hot]:
    """A psycopg connection of the hot path's own, in autocommit mode (taken out of the
    engine's pool once and kept); one that failed on the way is
    closed, never reused."""
    import psycopg

    kept = _kept_connections(store)
    hot = kept.take()
    try:
        yield hot
    except psycopg.OperationalError:  # e.g. the server went away
        hot.connection.close()
        raise
    finally:
        kept.give_back(hot)


class _Hot:
    """A kept connection, used through libpq itself (psycopg's ``pgconn``): the hot
    statement is prepared on it under a name of ours, its parameters go as text, and
    nothing of psycopg's cursor machinery runs per result (it cost as much client
    CPU as everything else of the write)."""

    __slots__ = ("connection", "encoding", "pgconn", "prepared")

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.pgconn = connection.pgconn
        self.encoding: str = connection.info.encoding
        self.prepared = False

    @property
    def usable(self) -> bool:
        return not self.connection.closed and self.pgconn.status == _CONNECTION_OK

    def text(self, value: bytes | None) -> str:
        return "" if value is None else value.decode(self.encoding)

    def run(self, sql: bytes, params: tuple[object, ...] = ()) -> Any:
        """One statement (parameters ``$1``…); its result, or the error raised."""
        if params:
            result = self.pgconn.exec_params(sql, [self._param(v) for v in params])
        else:
            result = self.pgconn.exec_(sql)
        return self._checked(result)

    def prepare(self) -> None:
        """Prepare the hot statement on this connection (once)."""
        if not self.prepared:
            self._checked(self.pgconn.prepare(_PG_NAME, _PG_ALL.encode()))
            self.prepared = True

    def run_prepared(self, values: list[bytes | None]) -> Any:
        """The hot statement (prepared on this connection at its first run), its
        parameters already text."""
        self.prepare()
        try:
            return self._checked(self.pgconn.exec_prepared(_PG_NAME, values))
        except _RefusedError as refused:
            # prepared statements were dropped (DEALLOCATE ALL, DISCARD): once more
            if refused.sqlstate != _NO_SUCH_STATEMENT or self.pgconn.transaction_status:
                raise
            self._checked(self.pgconn.prepare(_PG_NAME, _PG_ALL.encode()))
            return self._checked(self.pgconn.exec_prepared(_PG_NAME, values))

    def _param(self, value: object) -> bytes | None:
        if value is None:
            return None
        if isinstance(value, str):
            return value.encode(self.encoding)
        return str(value).encode()

    def _checked(self, result: Any) -> Any:
        import psycopg

        if result.status in _OK:
            return result
        if self.pgconn.status != _CONNECTION_OK:  # the server went away
            message = self.pgconn.error_message.decode(self.encoding, "replace")
            raise psycopg.OperationalError(message.strip() or "the connection was lost")
        raise _RefusedError(
            result.error_field(_SQLSTATE) or b"",
            result.error_message or b"",
            self.encoding,
        )


class _RefusedError(Exception):
    """The server refused a statement (SQLSTATE and message as sent)."""

    def __init__(self, sqlstate: bytes, message: bytes, encoding: str) -> None:
        super().__init__(sqlstate, message)
        self.sqlstate = sqlstate
        self.message = message
        self.encoding = encoding

    def error(self) -> Exception:
        """The psycopg exception of that SQLSTATE (as psycopg itself would raise)."""
        import psycopg

        text = self.message.decode(self.encoding, "replace").strip()
        try:
            kind: type[Exception] = psycopg.errors.lookup(self.sqlstate.decode())
        except KeyError:
            kind = psycopg.DatabaseError
        return kind(text)


#: the hot statement's name on the connections (psycopg names its own ``_pg3_…``)
_PG_NAME = b"crosstable_record_result"
#: libpq: result statuses COMMAND_OK and TUPLES_OK, CONNECTION_OK, the SQLSTATE field
_OK = (1, 2)
_CONNECTION_OK = 0
_SQLSTATE = ord("C")
_UNIQUE_VIOLATION = b"23505"
_INVALID_TEXT = b"22P02"
_NO_SUCH_STATEMENT = b"26000"


class _Connections:
    """The idle hot-path connections of one PostgreSQL store (at most ``keep``)."""

    keep = 4

    def __init__(self, store: Store) -> None:
        self._engine = store.engine
        self._idle: list[_Hot] = []
        self._lock = threading.Lock()
        self._closed = False

    def take(self) -> _Hot:
        with self._lock:
            while self._idle:
                hot = self._idle.pop()
                if not hot.connection.closed:
                    return hot
        raw = self._engine.raw_connection()
        fresh: Any = raw.driver_connection
        raw.detach()  # ours now: the pool opens another one when it needs it
        fresh.autocommit = True
        return _Hot(fresh)

    def give_back(self, hot: _Hot) -> None:
        connection = hot.connection
        if connection.closed:
            return
        if connection.pgconn.transaction_status != _IDLE:
            connection.close()  # interrupted half-way: never reuse
            return
        with self._lock:
            if not self._closed and len(self._idle) < self.keep:
                self._idle.append(hot)
                return
        connection.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for hot in idle:
            hot.connection.close()


#: libpq's transaction status "idle" (no transaction open)
_IDLE = 0
_CONNECTIONS: weakref.WeakKeyDictionary[Store, _Connections] = weakref.WeakKeyDictionary()
_CONNECTIONS_LOCK = threading.Lock()


def _kept_connections(store: Store) -> _Connections:
    kept = _CONNECTIONS.get(store)
    if kept is not None and not kept._closed:
        return kept
    with _CONNECTIONS_LOCK:
        kept = _CONNECTIONS.get(store)
        if kept is None or kept._closed:
            kept = _CONNECTIONS[store] = _Connections(store)
            closing = kept

            def close(_engine: Any) -> None:
                closing.close()

            event.listen(store.engine, "engine_disposed", close)
        return kept


def _forget_connections() -> None:
    """In a forked child: the kept connections are the parent's; never touch them."""
    _CONNECTIONS.clear()


os.register_at_fork(after_in_child=_forget_connections)


# -- both --------------------------------------------------------------------------------


def _postgres(store: Store) -> bool:
    return store.dialect == "postgresql"


def _pg_numbered(sql: str) -> bytes:
    """A ``?`` statement with PostgreSQL's ``$1``, ``$2``… (libpq's parameters)."""
    parts = sql.split("?")
    out = parts[0]
    for number, part in enumerate(parts[1:], 1):
        out += f"${number}{part}"
    return out.encode()


def _decoded(rows: list[Any]) -> Events:
    import json

    return [
        (int(seq), json.loads(changes) if isinstance(changes, str | bytes) else changes)
        for seq, changes in rows
    ]


def _translated(store: Store, call: Callable[..., _T], *args: Any) -> _T:
    """``call(store, *args)``, the driver's errors raised as SQLAlchemy's (as the ORM path
    raises them)."""
    dbapi = store.engine.dialect.loaded_dbapi
    try:
        return call(store, *args)
    except dbapi.Error as error:
        raise DBAPIError.instance(None, None, error, dbapi.Error) from error


class _StaleError(Exception):
    """The database is not what the caller's table says: roll back."""
