"""Scheduled backups of a SQLite store while ``crosstable serve`` runs.

Every ``CROSSTABLE_BACKUP_EVERY`` minutes (60; ``0`` turns it off) a backup with the
reason ``scheduled`` is made, but only when the database was written since the newest
backup (any backup counts: one made before an import restarts the wait). Time is the
injected clock's, so tests move the clock instead of sleeping; a background thread only
asks every ``check_seconds`` whether a backup is due, like the series' ticker
(:mod:`crosstable.service.series.ticker`). A failing backup is logged and tried again at
the next check: the thread never dies of it.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading

from crosstable.store.backup import BackupError, BackupInfo, Backups, int_setting

log = logging.getLogger("crosstable.backup")

#: minutes between scheduled backups (0: none)
EVERY_ENV = "CROSSTABLE_BACKUP_EVERY"
DEFAULT_EVERY_MINUTES = 60


def every_setting() -> dt.timedelta | None:
    """The interval ``CROSSTABLE_BACKUP_EVERY`` sets (None: scheduled backups are off)."""
    minutes = int_setting(EVERY_ENV, DEFAULT_EVERY_MINUTES)
    return dt.timedelta(minutes=minutes) if minutes > 0 else None


class BackupSchedule:
    """Makes a ``scheduled`` backup when one is due and the database changed."""

    def __init__(
        self, backups: Backups, *, every: dt.timedelta, check_seconds: float = 30.0
    ) -> None:
        if every <= dt.timedelta(0):
            raise ValueError("the backup interval is a positive time")
        self.backups = backups
        self.every = every
        self.check_seconds = check_seconds
        #: the database's fingerprint when this schedule last backed it up
        self._seen: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def changed(self) -> bool:
        """Was the database written since the newest backup?"""
        files = self.backups.files()
        now = self.backups.fingerprint()
        if self._seen is not None:
            return now != self._seen
        if not files:
            return True
        return now > files[0][0].stat().st_mtime_ns

    def due(self) -> bool:
        files = self.backups.files()
        if files and self.backups.now() - files[0][1] < self.every:
            return False
        return self.changed()

    def pass_once(self) -> BackupInfo | None:
        """A scheduled backup if one is due now (None: not due, or nothing changed)."""
        try:
            if not self.backups.database.is_file() or not self.due():
                return None
            seen = self.backups.fingerprint()
            info = self.backups.make("scheduled")
        except (BackupError, OSError):
            log.exception("the scheduled backup failed; it is tried again later")
            return None
        self._seen = seen
        log.info("backup: %s", info.path)
        return info

    def run(self) -> None:
        while not self._stop.is_set():
            self.pass_once()
            self._stop.wait(self.check_seconds)

    def start(self) -> BackupSchedule:
        """Start the background thread (a daemon: it never holds the process up)."""
        self._thread = threading.Thread(target=self.run, name="crosstable-backup", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
