"""Change notifications: an in-process event bus, and PostgreSQL LISTEN/NOTIFY between processes.

Every committed change publishes one :class:`Notification` on the service's
:class:`EventBus`. On PostgreSQL the same notification also goes to the other
app processes: after the commit, a :class:`PostgresNotifier` (one per store, a
thread of its own) sends the notifications waiting in its process with
``pg_notify``, several in one statement; a :class:`PostgresListener` in every
other app process turns them back into local publications.

Sending after the commit keeps ``pg_notify`` out of the change's transaction:
PostgreSQL serialises every transaction that notifies on one cluster-wide lock
held until its commit is on disk, so notifying inside the change would make all
writers wait for each other's disk flushes. The price is a notification that
is never sent when a process dies between its commit and the send (or loses its
connection). Listeners therefore also poll: every ``poll_interval`` seconds they
read each tournament's revision, and a change that was committed before the
previous poll and not heard since is read from the event log and published like
a notification. A lost notification delays an update by at most two poll
intervals (1 s by default); it never loses one.

>>> bus = EventBus()
>>> seen = []
>>> stop = bus.subscribe(seen.append)
>>> bus.publish(Notification(tournament_id=1, seq=4, kind="result", summary="R1 B1 1-0"))
>>> seen[0].seq
4
>>> stop()
>>> bus.publish(Notification(tournament_id=1, seq=5, kind="undo", summary="undo #4"))
>>> len(seen)
1
"""

from __future__ import annotations

import atexit
import json
import logging
import math
import os
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from crosstable.core.row_changes import RowChange, read_changes

log = logging.getLogger(__name__)

#: the PostgreSQL channel the services notify on (for the tables in the schema
#: ``public``; see :func:`channel_for`)
CHANNEL = "crosstable_changes"


def channel_for(schema: str | None) -> str:
    """The channel of the tables in ``schema``: NOTIFY is per database, so two sets of
    tables in one database (schemas) keep their notifications apart.

    >>> channel_for("public"), channel_for("club")
    ('crosstable_changes', 'crosstable_changes.club')
    """
    if not schema or schema == "public":
        return CHANNEL
    name = f"{CHANNEL}.{schema}"
    if len(name.encode()) > 63:  # PostgreSQL's longest name
        import hashlib

        name = f"{CHANNEL}.{hashlib.sha256(schema.encode()).hexdigest()[:32]}"
    return name


def _channel(connection: Any) -> str:
    """The channel of the tables this connection sees (its current schema)."""
    row = connection.execute("SELECT current_schema()").fetchone()
    return channel_for(None if row is None else row[0])


@dataclass(frozen=True, slots=True)
class Notification:
    """One committed change of one tournament."""

    tournament_id: int
    seq: int
    kind: str
    summary: str
    #: (round, board) of the games the change touched
    games: tuple[tuple[int, int], ...] = ()
    #: the bus that made the change (a process does not hear its own echo)
    origin: str = ""
    #: the live standings after the change as stored, JSON text (in-process only; too
    #: large for NOTIFY); :attr:`standings` decodes it
    standings_text: str | None = field(default=None, compare=False, repr=False)

    @property
    def standings(self) -> dict[str, object] | None:
        """The live standings after the change (None: not known here)."""
        if self.standings_text is None:
            return None
        body: dict[str, object] = json.loads(self.standings_text)
        return body

    def to_json(self) -> str:
        """The NOTIFY payload (PostgreSQL allows 8000 bytes: no standings, few games)."""
        games = [list(g) for g in self.games[:50]]
        body = {
            "t": self.tournament_id,
            "seq": self.seq,
            "kind": self.kind,
            "summary": self.summary[:500],
            "games": games,
            "origin": self.origin,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Notification:
        body = json.loads(text)
        return cls(
            tournament_id=int(body["t"]),
            seq=int(body["seq"]),
            kind=str(body["kind"]),
            summary=str(body["summary"]),
            games=tuple((int(r), int(b)) for r, b in body.get("games", [])),
            origin=str(body.get("origin", "")),
        )


def games_of(changes: Iterable[RowChange]) -> tuple[tuple[int, int], ...]:
    """(round, board) of the games an event's row changes touch, in order, each once."""
    spots: list[tuple[int, int]] = []
    for change in changes:
        spot = change.game
        if spot is not None and spot not in spots:
            spots.append(spot)
    return tuple(spots)


Subscriber = Callable[[Notification], None]


class EventBus:
    """Publish/subscribe within one process; thread-safe."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex
        self._subscribers: list[tuple[Subscriber, int | None]] = []
        self._lock = threading.Lock()

    def subscribe(
        self, callback: Subscriber, tournament_id: int | None = None
    ) -> Callable[[], None]:
        """Call ``callback`` for every change (or one tournament's); returns the unsubscriber."""
        entry = (callback, tournament_id)
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)

        return unsubscribe

    def publish(self, notification: Notification) -> None:
        with self._lock:
            targets = list(self._subscribers)
        for callback, wanted in targets:
            if wanted is not None and wanted != notification.tournament_id:
                continue
            try:
                callback(notification)
            except Exception:  # a broken subscriber must not break the change
                log.exception("change subscriber failed")


def plain_url(url: str) -> str:
    """A libpq URL from a SQLAlchemy one (the ``+psycopg`` driver suffix removed)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresNotifier:
    """Sends committed changes' notifications to the other processes (``pg_notify``).

    :meth:`send` only queues (the change has committed; its caller does not wait);
    a thread of its own sends what is waiting, all of it in one statement. It sends
    at once when it sent nothing during the last ``interval`` seconds (a change now
    and then is heard at once); otherwise what comes meanwhile waits for the rest
    of the interval and goes out together — one short transaction (and one disk
    flush: NOTIFY makes the transaction durable) for many changes. A batch that
    cannot be sent (the server went away) is dropped with a warning: the
    listeners' polling delivers those changes instead. :meth:`close` sends what is
    left; so does the end of the process (``atexit``).
    """

    #: seconds between two sends at least (a bound on the extra delay of a notification)
    interval = 0.05
    #: notifications in one statement at most
    batch = 500

    def __init__(self, url: str) -> None:
        self.url = plain_url(url)
        #: the channel (known once connected: it depends on the schema)
        self.channel = CHANNEL
        self._pending: list[Notification] = []
        self._wake = threading.Condition()
        self._closed = False
        self._closing = False
        self._idle = False
        self._pid = os.getpid()
        self._sending = False
        self._thread = threading.Thread(target=self._run, name="crosstable-notify", daemon=True)
        self._thread.start()
        _NOTIFIERS.add(self)

    @property
    def usable(self) -> bool:
        """Open (a forked child forgets its parent's notifiers: see ``_forget``)."""
        return not self._closed

    def send(self, notification: Notification) -> None:
        with self._wake:
            if self._closed:
                return
            self._pending.append(notification)  # (encoded by the thread, off the change's way)
            # wake the thread only when it waits for work (or the batch is full): not
            # for every change while it gathers
            if self._idle or len(self._pending) >= self.batch:
                self._idle = False
                self._wake.notify()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far has been sent (or given up); True if so."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while (self._pending or self._sending) and self._thread.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.05))
        return True

    def close(self, timeout: float = 5.0) -> None:
        """Send what is waiting at once, then stop (no new notifications are taken)."""
        if os.getpid() != self._pid:  # a forked copy: the thread is the parent's
            return
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self.flush(timeout)
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        self._thread.join(timeout)
        _NOTIFIERS.discard(self)

    def _run(self) -> None:
        connection: Any = None
        last = -math.inf  # when the last batch went out
        try:
            while True:
                with self._wake:
                    while not self._pending and not self._closed:
                        self._idle = True
                        self._wake.wait()
                    self._idle = False
                    if not self._pending:
                        return  # closed, nothing left
                    self._sending = True
                    # not before the interval since the last send is over: let more
                    # gather meanwhile (one transaction for them all), unless closing
                    due = last + self.interval
                    while not self._closing and len(self._pending) < self.batch:
                        left = due - time.monotonic()
                        if left <= 0:
                            break
                        self._wake.wait(left)
                    taken = self._pending[: self.batch]
                    del self._pending[: self.batch]
                payloads = [notification.to_json() for notification in taken]
                last = time.monotonic()
                connection = self._send(connection, payloads)
                with self._wake:
                    self._sending = False
                    self._wake.notify_all()
        finally:
            if connection is not None:
                connection.close()

    def _send(self, connection: Any, payloads: list[str]) -> Any:
        import psycopg

        try:
            if connection is None or connection.closed:
                connection = psycopg.connect(self.url, autocommit=True)
                self.channel = _channel(connection)
            connection.execute(
                "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (self.channel, payloads)
            )
        except Exception:
            log.warning(
                "could not send %d change notification(s); other processes' listeners "
                "will find those changes by polling",
                len(payloads),
                exc_info=True,
            )
            if connection is not None:
                connection.close()
            return None
        return connection


_NOTIFIERS: weakref.WeakSet[PostgresNotifier] = weakref.WeakSet()
_BY_STORE: weakref.WeakKeyDictionary[Any, PostgresNotifier] = weakref.WeakKeyDictionary()
_BY_STORE_LOCK = threading.Lock()


def notifier_for(store: Any) -> PostgresNotifier:
    """The notifier of a PostgreSQL store (a :class:`~crosstable.store.Store`): made on
    first use, shared by every service on that store, closed with it (after sending
    what is left)."""
    found = _BY_STORE.get(store)
    if found is not None and found.usable:
        return found
    with _BY_STORE_LOCK:
        found = _BY_STORE.get(store)
        if found is None or not found.usable:
            found = PostgresNotifier(store.url)
            _BY_STORE[store] = found
            closing = found

            def close(_engine: Any) -> None:
                closing.close()

            from sqlalchemy import event

            event.listen(store.engine, "engine_disposed", close)
        return found


def _forget() -> None:
    """In a forked child: the notifiers and their threads are the parent's."""
    _NOTIFIERS.clear()
    _BY_STORE.clear()


os.register_at_fork(after_in_child=_forget)


@atexit.register
def _send_the_rest() -> None:
    for notifier in list(_NOTIFIERS):
        notifier.close(timeout=2.0)


#: seconds an event id a poll skipped is looked for again (a transaction that had taken
#: its id and not committed: a change is one short transaction)
HOLE_WINDOW = 60.0
#: skipped ids kept at most
HOLES_MOST = 10_000
#: a listener's polls (tests/test_explain_queries.py EXPLAINs them): the newest ids at
#: the first, the events since (and the skipped ids) at the others, and the changes missed
POLL_FIRST = "SELECT id FROM events ORDER BY id DESC LIMIT %s"
POLL_SINCE = (
    "SELECT id, tournament_id, seq FROM events WHERE id > %s OR id = ANY(%s::integer[]) "
    "ORDER BY id LIMIT %s"
)
#: events a poll reads at most (after a long disconnection the next polls read the rest;
#: more than HOLES_MOST, so that a poll always gets past the skipped ids)
POLL_MOST = 20_000
POLL_EVENTS = (
    "SELECT e.tournament_id, e.seq, e.kind, e.summary, e.changes FROM events AS e "
    "JOIN unnest(%s::integer[], %s::integer[]) AS m(t, s) "
    "ON e.tournament_id = m.t AND e.seq = m.s "
    "ORDER BY e.tournament_id, e.seq"
)


class PostgresListener:
    """LISTENs on PostgreSQL and republishes other processes' changes on ``bus``.

    ``url`` is a ``postgresql://`` URL (the ``+psycopg`` driver suffix is accepted).
    Besides listening it polls every ``poll_interval`` seconds: a change committed
    before the previous poll that no notification (and no publication on ``bus``)
    announced is read from the event log and published — so a notification lost
    on the way (its process died after the commit) delays that change by at most
    two poll intervals. When a later change of the same tournament was heard
    meanwhile, listeners are already past it and nothing is published for it. A poll
    reads only the events since the previous one (by id), so it costs the same with
    ten or ten thousand tournaments; an id it skipped (a transaction not committed
    yet) is looked for again for :data:`HOLE_WINDOW` seconds.
    """

    def __init__(self, url: str, bus: EventBus, *, poll_interval: float = 0.5) -> None:
        self.url = plain_url(url)
        self.bus = bus
        self.poll_interval = poll_interval
        #: the channel listened to (known once connected: it depends on the schema)
        self.channel = CHANNEL
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        #: tournament → the newest change heard of (published on ``bus``)
        self._heard: dict[int, int] = {}
        #: the highest event id a poll found (None: no poll yet)
        self._last_id: int | None = None
        #: ids below it not found yet (a transaction had its id and had not committed, or
        #: rolled back) → when first missed: looked for again for HOLE_WINDOW seconds
        self._holes: dict[int, float] = {}
        #: (tournament, change) found by the previous poll
        self._found: list[tuple[int, int]] = []
        #: changes the poll published (a late notification of one is not published again)
        self._polled: dict[tuple[int, int], None] = {}
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> PostgresListener:
        self._unsubscribe = self.bus.subscribe(self._heard_of)
        self._thread = threading.Thread(target=self._run, name="crosstable-listen", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def __enter__(self) -> PostgresListener:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _heard_of(self, notification: Notification) -> None:
        with self._lock:
            tid = notification.tournament_id
            if notification.seq > self._heard.get(tid, 0):
                self._heard[tid] = notification.seq

    def _run(self) -> None:
        import psycopg
        from psycopg import sql

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    self.channel = _channel(connection)
                    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._poll(connection)  # what is there now (and, after a reconnect,
                    self._ready.set()  # what was missed meanwhile: the next poll sends it)
                    due = time.monotonic() + self.poll_interval
                    while not self._stop.is_set():
                        wait = max(0.0, min(0.2, due - time.monotonic()))
                        for message in connection.notifies(timeout=wait):
                            self._deliver(message.payload)
                        if time.monotonic() >= due:
                            self._poll(connection)
                            due = time.monotonic() + self.poll_interval
            except Exception:  # reconnect after a lost connection
                log.exception("LISTEN connection lost; reconnecting")
                self._ready.set()
                self._stop.wait(1)

    def _skipped(self, present: set[int], low: int, high: int) -> None:
        """Keep the ids between ``low`` and ``high`` not ``present`` as holes (and let
        those older than HOLE_WINDOW go: a rolled-back transaction's)."""
        now = time.monotonic()
        for event_id in range(max(low + 1, high - HOLES_MOST), high):
            if event_id not in present:
                self._holes.setdefault(event_id, now)
        for event_id, when in list(self._holes.items()):
            if now - when > HOLE_WINDOW or len(self._holes) > HOLES_MOST:
                del self._holes[event_id]

    def _deliver(self, payload: str) -> None:
        try:
            notification = Notification.from_json(payload)
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed change notification: %r", payload[:200])
            return
        if notification.origin == self.bus.origin:
            return
        with self._lock:
            if (notification.tournament_id, notification.seq) in self._polled:
                return  # the poll published it already
        self.bus.publish(notification)

    def _poll(self, connection: Any) -> None:
        """Publish the changes committed before the previous poll that nobody announced.

        A poll reads the events added since the one before (by their ids: the primary
        key, so its cost is that of the changes since, not of the tournaments in the
        database), and the ids it skipped that have come since.
        """
        if self._last_id is None:  # the first poll: everything so far counts as heard
            recent = [int(row[0]) for row in connection.execute(POLL_FIRST, (HOLES_MOST,))]
            self._last_id = recent[0] if recent else 0
            self._skipped(set(recent), min(recent, default=0), self._last_id)
            return
        rows = connection.execute(
            POLL_SINCE, (self._last_id, list(self._holes), POLL_MOST)
        ).fetchall()
        newer = set()
        found = []
        for event_id, tid, seq in rows:
            self._holes.pop(event_id, None)
            if event_id > self._last_id:
                newer.add(event_id)
            found.append((int(tid), int(seq)))
        if newer:
            top = max(newer)
            self._skipped(newer, self._last_id, top)
            self._last_id = top
        with self._lock:
            missed = sorted((tid, seq) for tid, seq in self._found if seq > self._heard.get(tid, 0))
            self._found = [(tid, seq) for tid, seq in found if seq > self._heard.get(tid, 0)]
        if not missed:
            return
        rows = connection.execute(
            POLL_EVENTS, ([t for t, _ in missed], [q for _, q in missed])
        ).fetchall()
        for tid, seq, kind, summary, stored in rows:
            changes = read_changes(stored)
            with self._lock:
                if seq <= self._heard.get(tid, 0):
                    continue  # heard meanwhile
                self._polled[(tid, seq)] = None
                while len(self._polled) > 10_000:
                    del self._polled[next(iter(self._polled))]
            log.info(
                "change %s of tournament %s was not announced: published from the log", seq, tid
            )
            self.bus.publish(Notification(tid, seq, kind, summary, games_of(changes), origin=""))
