"""Change notifications: an in-process event bus, and PostgreSQL LISTEN/NOTIFY between processes.

Every committed change publishes one :class:`Notification` on the service's
:class:`EventBus`. On PostgreSQL the same notification is also sent with
``pg_notify`` inside the change's transaction (so it is delivered only if the
change commits); a :class:`PostgresListener` in every other app process turns
those back into local publications, so several processes stay in step.

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

import json
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: the PostgreSQL channel the services notify on
CHANNEL = "crosstable_changes"


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
    #: the live standings after the change (in-process only; too large for NOTIFY)
    standings: dict[str, Any] | None = field(default=None, compare=False)

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


class PostgresListener:
    """LISTENs on PostgreSQL and republishes other processes' changes on ``bus``.

    ``url`` is a ``postgresql://`` URL (the ``+psycopg`` driver suffix is accepted).
    """

    def __init__(self, url: str, bus: EventBus) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.bus = bus
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> PostgresListener:
        self._thread = threading.Thread(target=self._run, name="crosstable-listen", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> PostgresListener:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    while not self._stop.is_set():
                        for message in connection.notifies(timeout=0.2):
                            self._deliver(message.payload)
            except Exception:  # reconnect after a lost connection
                log.exception("LISTEN connection lost; reconnecting")
                self._ready.set()
                self._stop.wait(1)

    def _deliver(self, payload: str) -> None:
        try:
            notification = Notification.from_json(payload)
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed change notification: %r", payload[:200])
            return
        if notification.origin != self.bus.origin:
            self.bus.publish(notification)
