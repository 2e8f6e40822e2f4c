"""Importing a rating list without blocking other writes.

The list is read as a stream (:mod:`crosstable.formats.rating_list`) and written as
a new *generation* of ``rating_list_players`` in batches of at most :data:`BATCH` rows
(fewer when a batch holds the lock longer than :data:`TARGET`), each its own short
write transaction: the file is parsed between them, outside any
transaction, so a result posted meanwhile waits for one batch at most (SQLite has one
writer at a time). Readers keep reading the current generation until the new one is
complete; then one small transaction makes it current (a compare-and-set: if another
import finished meanwhile, this one is refused and removed). The players of the old
generation that the new list does not name are carried over first (batches by FIDE
id), and the old generation's rows are deleted afterwards, again in batches. An
import that fails deletes what it wrote; one whose process died is cleaned up by the
next import (an ``importing`` row not heard of for :data:`STALE`).

Memory stays bounded: one batch of rows and the reader's one line at a time.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text

from crosstable.service.errors import ConflictError
from crosstable.store.engine import Store

#: rows written per transaction at most (SQLite: ~50 ms a batch on a 2-core machine)
BATCH = 5_000
#: a batch's transaction should hold the write lock about this long (seconds): the size
#: halves when one took longer (a busy disk, a large WAL), doubles up to BATCH when short
TARGET = 0.1
#: SQLite: the write lock is left free this long between two of the import's
#: transactions (seconds). A writer waiting for it sleeps at most 100 ms between tries
#: (SQLite's busy handler), so a gap this long lets every waiting writer in, instead of
#: the import taking the lock again at once, batch after batch (measured: results
#: waited 0.85 s behind back-to-back batches of 0.1 s; PostgreSQL needs no gap)
GAP = 0.1
#: an import not heard of for this long belongs to a process that died
STALE = dt.timedelta(hours=1)

COLUMNS = (
    "fide_id",
    "name",
    "folded",
    "federation",
    "sex",
    "title",
    "birth_year",
    "standard",
    "rapid",
    "blitz",
    "list_name",
    "list_date",
)
_ALL = ", ".join(COLUMNS)
_UPDATES = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:])


def _execute(connection: Any, statement: str, params: tuple[Any, ...]) -> int:
    """One statement; the rows it changed."""
    return int(connection.execute(statement, params).rowcount)


class GenerationWriter:
    """Writes one import's generation: :meth:`begin`, :meth:`write` the rows,
    :meth:`complete` (carry over, make current, drop the old); :meth:`abandon` on failure."""

    def __init__(self, store: Store, now: Callable[[], dt.datetime]) -> None:
        self.store = store
        self.now = now
        self.sqlite = store.dialect == "sqlite"
        self.p = "?" if self.sqlite else "%s"
        self.generation = 0
        self.base = 0
        #: the short write transactions run so far, and the longest of each step (s)
        self.batches = 0
        self.longest: dict[str, float] = {}
        #: rows in the next batch (adapted to keep each transaction near TARGET)
        self.size = BATCH
        self.gap = GAP if self.sqlite else 0.0
        self._last = 0.0
        #: how long the last transaction took (s)
        self.took = 0.0

    # -- transactions --------------------------------------------------------------------

    def _run(self, body: Callable[..., Any], *args: Any) -> Any:
        """``body(connection, *args)`` in one short write transaction, at least
        :data:`GAP` after the previous one ended (the file is parsed meanwhile, so the
        pause is often already over)."""
        pause = self.gap - (time.perf_counter() - self._last)
        if pause > 0:
            time.sleep(pause)
        started = time.perf_counter()
        try:
            with self.store.raw_transaction() as connection:
                return body(connection, *args)
        finally:
            self._last = time.perf_counter()
            self.took = self._last - started

    def _batch(self, step: str, body: Callable[..., Any], *args: Any) -> Any:
        """One batch of ``step`` in its own transaction, timed; the next batch's size
        adapted to keep each near :data:`TARGET`."""
        answer = self._run(body, *args)
        took = self.took  # the transaction only, not the pause before it
        self.batches += 1
        self.longest[step] = max(self.longest.get(step, 0.0), took)
        if took > TARGET:
            self.size = max(min(100, BATCH), self.size // 2)
        elif took < TARGET / 4:
            self.size = min(BATCH, self.size * 2)
        return answer

    def _one(self, connection: Any, statement: str, params: tuple[Any, ...] = ()) -> Any:
        row = connection.execute(statement, params).fetchone()
        return None if row is None else row[0]

    def current(self, connection: Any) -> int:
        found = self._one(connection, "SELECT id FROM rating_list_imports WHERE state = 'current'")
        return 0 if found is None else int(found)

    # -- the steps -----------------------------------------------------------------------

    def begin(self, name: str) -> int:
        """Clean up what dead or failed imports left, then open a new generation."""
        self.sweep()
        stamp = self.now().isoformat()
        p = self.p

        def body(connection: Any) -> int:
            self.base = self.current(connection)
            found = self._one(
                connection,
                "INSERT INTO rating_list_imports (name, state, started, heartbeat, players) "
                f"VALUES ({p}, 'importing', {p}, {p}, 0) RETURNING id",
                (name[:200], stamp, stamp),
            )
            return int(found)

        self.generation = int(self._run(body))
        return self.generation

    def write(self, rows: Iterable[tuple[Any, ...]]) -> None:
        """The list's rows, in batches (a FIDE id twice: its last line wins)."""
        stream = iter(rows)
        while batch := list(itertools.islice(stream, self.size)):
            self._batch("write", self._write_batch, batch)

    def _write_batch(self, connection: Any, batch: list[tuple[Any, ...]]) -> None:
        p, g = self.p, self.generation
        if self.sqlite:
            connection.executemany(
                f"INSERT INTO rating_list_players (generation, {_ALL}) "
                f"VALUES ({g}, {', '.join('?' * len(COLUMNS))}) "
                f"ON CONFLICT (generation, fide_id) DO UPDATE SET {_UPDATES}",
                batch,
            )
        else:
            with connection.cursor() as cursor:
                cursor.execute(
                    "CREATE TEMPORARY TABLE rating_list_batch "
                    "(LIKE rating_list_players INCLUDING DEFAULTS, seq bigint) ON COMMIT DROP"
                )
                with cursor.copy(f"COPY rating_list_batch ({_ALL}, seq) FROM STDIN") as copy:
                    for seq, row in enumerate(batch):
                        copy.write_row((*row, seq))
                cursor.execute(
                    f"INSERT INTO rating_list_players (generation, {_ALL}) "
                    f"SELECT DISTINCT ON (fide_id) {g}, {_ALL} FROM rating_list_batch "
                    "ORDER BY fide_id, seq DESC "
                    f"ON CONFLICT (generation, fide_id) DO UPDATE SET {_UPDATES}"
                )
        alive = connection.execute(
            f"UPDATE rating_list_imports SET heartbeat = {p} WHERE id = {p} "
            "AND state = 'importing'",
            (self.now().isoformat(), g),
        ).rowcount
        if alive != 1:  # swept as dead by another import (this one stalled for an hour)
            raise ConflictError("the rating list import was stopped; import the list again")

    def complete(self) -> int:
        """Carry the old generation's other players over, make the new one current, and
        delete the old one's rows; the players the lists now hold."""
        self._carry_over()
        p, g, base = self.p, self.generation, self.base

        # counted before the flip (a read: no lock); nobody else writes this generation
        with self.store.engine.connect() as reading:
            players = int(
                reading.execute(
                    text("SELECT count(*) FROM rating_list_players WHERE generation = :g"),
                    {"g": g},
                ).scalar()
                or 0
            )
            reading.commit()

        def flip(connection: Any) -> int:
            if self.current(connection) != base:
                raise ConflictError(
                    "another rating list was imported meanwhile; import this one again"
                )
            state = self._one(
                connection, f"SELECT state FROM rating_list_imports WHERE id = {p}", (g,)
            )
            if state != "importing":
                raise ConflictError("the rating list import was stopped; import the list again")
            connection.execute(
                "UPDATE rating_list_imports SET state = 'old' WHERE state = 'current'"
            )
            connection.execute(
                f"UPDATE rating_list_imports SET state = 'current', players = {p} WHERE id = {p}",
                (players, g),
            )
            return players

        self._run(flip)
        self.drop(base)
        return players

    def _carry_over(self) -> None:
        p, g, base = self.p, self.generation, self.base
        after = -1
        while True:
            upper = self._run(
                self._one,
                f"SELECT fide_id FROM rating_list_players WHERE generation = {p} "
                f"AND fide_id > {p} ORDER BY fide_id LIMIT 1 OFFSET {self.size - 1}",
                (base, after),
            )
            bound = "" if upper is None else f" AND fide_id <= {int(upper)}"
            self._batch(
                "carry over",
                _execute,
                f"INSERT INTO rating_list_players (generation, {_ALL}) "
                f"SELECT {g}, {_ALL} FROM rating_list_players "
                f"WHERE generation = {p} AND fide_id > {p}{bound} "
                "ON CONFLICT (generation, fide_id) DO NOTHING",
                (base, after),
            )
            if upper is None:
                return
            after = int(upper)

    def abandon(self) -> None:
        """An import that failed: its rows and its row go."""
        if self.generation:
            self.drop(self.generation)

    def drop(self, generation: int) -> None:
        """Delete a generation that is not current, in batches, then its import row
        (marked failed first, so that it can never become current)."""
        p = self.p
        self._run(
            _execute,
            f"UPDATE rating_list_imports SET state = 'failed' WHERE id = {p} "
            "AND state <> 'current'",
            (generation,),
        )
        while True:
            statement = (
                f"DELETE FROM rating_list_players WHERE generation = {p} AND fide_id IN "
                f"(SELECT fide_id FROM rating_list_players WHERE generation = {p} "
                f"ORDER BY fide_id LIMIT {self.size})"
            )
            deleted = self._batch("drop", _execute, statement, (generation, generation))
            if not deleted:
                break
        self._run(
            _execute,
            f"DELETE FROM rating_list_imports WHERE id = {p} AND state <> 'current'",
            (generation,),
        )

    def sweep(self) -> None:
        """Drop the generations nobody reads or writes: old, failed, or an import whose
        process died (not heard of for :data:`STALE`); rows of no import at all."""
        stale = (self.now() - STALE).isoformat()
        with self.store.engine.connect() as connection:
            # the rows first: an import's row is written before its rows, so every
            # generation seen here is known to the reads below (PostgreSQL reads each
            # statement's own snapshot)
            ours = set(
                connection.execute(
                    text("SELECT DISTINCT generation FROM rating_list_players")
                ).scalars()
            )
            current = connection.execute(
                text("SELECT id FROM rating_list_imports WHERE state = 'current'")
            ).scalar()
            live = set(
                connection.execute(
                    text(
                        "SELECT id FROM rating_list_imports WHERE state = 'importing' "
                        "AND heartbeat >= :stale"
                    ),
                    {"stale": stale},
                ).scalars()
            )
            known = set(connection.execute(text("SELECT id FROM rating_list_imports")).scalars())
            connection.commit()
        for generation in sorted((ours | known) - live - {current or 0}):
            self.drop(int(generation))
