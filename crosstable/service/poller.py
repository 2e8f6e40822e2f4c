"""Changes other processes commit to a SQLite file, published on this process's bus.

PostgreSQL tells the other app processes about a change by NOTIFY
(:class:`crosstable.service.bus.PostgresListener`); SQLite has nothing of the kind, so a
result entered on the command line (``crosstable result 1 2 1-0``), by a script or by a
second ``serve`` on the same file never reached the pages open in this one. A
:class:`ChangePoller` reads the event log every ``poll_interval`` seconds, from the id it
saw last (the primary key: a poll costs the changes since the previous one, however many
tournaments the file holds), and publishes each change that this process did not make nor
hear of, the way a notification from another process is published.

A change this process made is published on its bus right after the commit; so that the
poll does not publish it a second time when it reads the row in between, a change found
by a poll is published at the next poll if nobody announced it meanwhile: an open page
hears of another writer's change after one to two poll intervals (1 s by default).
SQLite has one writer at a time, so event ids are committed in order and a poll never
skips one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from crosstable.core.row_changes import read_changes
from crosstable.service.bus import EventBus, Notification, games_of

log = logging.getLogger(__name__)

#: events a poll reads at most (after a long pause the next polls read the rest)
POLL_MOST = 20_000
NEWEST = text("SELECT max(id) FROM events")
SINCE = text(
    "SELECT id, tournament_id, seq, kind, summary, changes FROM events "
    "WHERE id > :last ORDER BY id LIMIT :most"
)


class ChangePoller:
    """Publishes on ``bus`` the changes that other processes commit to ``store``."""

    def __init__(self, store: Any, bus: EventBus, *, poll_interval: float = 0.5) -> None:
        self.store = store
        self.bus = bus
        self.poll_interval = poll_interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: tournament → the newest change published on ``bus`` (by anyone)
        self._heard: dict[int, int] = {}
        #: the highest event id read so far (None: not read yet)
        self._last_id: int | None = None
        #: notifications found by the previous poll, published now unless heard meanwhile
        self._found: list[Notification] = []
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> ChangePoller:
        self._unsubscribe = self.bus.subscribe(self._heard_of)
        self.poll()  # what is there now counts as known
        self._thread = threading.Thread(target=self._run, name="crosstable-poll", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _heard_of(self, notification: Notification) -> None:
        with self._lock:
            tid = notification.tournament_id
            if notification.seq > self._heard.get(tid, 0):
                self._heard[tid] = notification.seq

    def _run(self) -> None:
        while not self._stop.wait(self.poll_interval):
            try:
                self.poll()
            except Exception:  # a busy or vanished file: try again at the next poll
                log.exception("reading the event log for other processes' changes failed")

    def poll(self) -> list[Notification]:
        """One poll: publish what the previous poll found and nobody announced since, then
        read the events committed since; returns what it published."""
        with self.store.engine.connect() as connection:
            if self._last_id is None:
                self._last_id = int(connection.execute(NEWEST).scalar() or 0)
                return []
            rows = connection.execute(SINCE, {"last": self._last_id, "most": POLL_MOST}).all()
        found = []
        for event_id, tid, seq, kind, summary, changes in rows:
            self._last_id = max(self._last_id, int(event_id))
            games = games_of(read_changes(changes or []))
            found.append(Notification(int(tid), int(seq), kind, summary, games, origin=""))
        with self._lock:
            due = [n for n in self._found if n.seq > self._heard.get(n.tournament_id, 0)]
            self._found = [n for n in found if n.seq > self._heard.get(n.tournament_id, 0)]
        for notification in due:
            with self._lock:  # heard of between the check and now: the page has it
                if notification.seq <= self._heard.get(notification.tournament_id, 0):
                    continue
            self.bus.publish(notification)
        return due
