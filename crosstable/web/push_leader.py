"""Who publishes the changes nobody announced: the one app
process that holds the PostgreSQL advisory lock ``crosstable.push`` (see
:mod:`crosstable.web.push`; the lock goes with a dead process's connection).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from crosstable.service.bus import plain_url

log = logging.getLogger(__name__)


class Leadership:
    """Holds the PostgreSQL advisory lock ``crosstable.push`` (per schema) while it can:
    the one process that publishes changes nobody announced (see the module's text)."""

    def __init__(self, url: str, *, every: float = 0.5) -> None:
        self.url = plain_url(url)
        self.every = every
        self.leader = False
        #: tries to take the lock so far
        self.attempts = 0
        self.on_taken: Callable[[], None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Leadership:
        self._thread = threading.Thread(target=self._run, name="crosstable-push-lead", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        # deferred: psycopg comes with the postgres extra, and only a PostgreSQL site runs this
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    while not self._stop.is_set():
                        if not self.leader:
                            self.attempts += 1
                            row = connection.execute(
                                "SELECT pg_try_advisory_lock("
                                "hashtext('crosstable.push.' || current_schema()))"
                            ).fetchone()
                            if row is not None and row[0]:
                                self.leader = True
                                log.info("this process publishes unannounced changes")
                                if self.on_taken is not None:
                                    self.on_taken()
                        else:
                            connection.execute("SELECT 1")
                        self._stop.wait(self.every)
            except Exception:
                log.warning("push leadership: connection lost; retrying", exc_info=True)
            self.leader = False
            self._stop.wait(1)
