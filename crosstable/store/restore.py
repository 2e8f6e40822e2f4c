"""Restoring a SQLite store from a backup: refused unless the file is whole and ours.

The file is first copied to a temporary file in the database's folder and checked there
(:func:`crosstable.store.backup.check_file`: a SQLite file, the integrity check passes,
crosstable's tables are in it, its schema is not newer than this program). Anything
wrong and the restore stops with the reason: the current database is not opened, let
alone changed. Otherwise the current database is backed up first (reason
``before-restore``), then overwritten from the checked copy with SQLite's backup API:
one write transaction through the database's own WAL, so there is never a half-restored
file, nor a stale ``-wal`` that would replay old pages over it. A database that does not
exist yet is put in place with ``os.replace`` after an fsync.

A running ``crosstable serve`` on the same file keeps tables it holds in memory (the live
standings, sessions): restart it after a restore.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from crosstable.store.backup import (
    BackupError,
    BackupInfo,
    Backups,
    check_file,
    fsync_path,
)
from crosstable.store.engine import BUSY_TIMEOUT_SECONDS


@dataclass(frozen=True, slots=True)
class Restored:
    """What a restore did: the file restored, its schema, the backup of what was there."""

    database: Path
    source: Path
    revision: str
    before: BackupInfo | None


def _page_size(path: Path) -> int:
    with path.open("rb") as file:
        header = file.read(18)
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size


def restore(backups: Backups, source: Path) -> Restored:
    """Replace ``backups.database`` by the backup ``source`` (checked first; the current
    database is backed up before it is replaced)."""
    database = backups.database
    if not source.is_file():
        raise BackupError("{file}: no such file", file=str(source))
    if database.exists() and source.resolve() == database.resolve():
        raise BackupError("{file} is the database itself", file=str(source))
    database.parent.mkdir(parents=True, exist_ok=True)
    staged = database.with_name(f".{database.name}.restore-{os.getpid()}.tmp")
    try:
        try:
            shutil.copyfile(source, staged)
        except OSError as error:
            raise BackupError(
                "{file}: {problem}", file=str(source), problem=error.strerror or ""
            ) from None
        revision = check_file(staged, shown=str(source))
        if not database.exists():
            _standalone(staged)
            fsync_path(staged)
            os.replace(staged, database)
            fsync_path(database.parent, folder=True)
            return Restored(database, source, revision, None)
        before = backups.make("before-restore")
        _overwrite(staged, database)
        return Restored(database, source, revision, before)
    finally:
        staged.unlink(missing_ok=True)
        Path(f"{staged}-journal").unlink(missing_ok=True)


def _standalone(staged: Path) -> None:
    """A copied file as a database of its own: rollback journal, no WAL to look for."""
    connection = sqlite3.connect(staged)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
    finally:
        connection.close()


def _overwrite(staged: Path, database: Path) -> None:
    """Every page of ``database`` replaced by ``staged``'s in one write transaction."""
    connection = sqlite3.connect(staged)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
        wanted = _page_size(database)
        if _page_size(staged) != wanted:  # a WAL database keeps its page size
            connection.execute(f"PRAGMA page_size={int(wanted)}")
            connection.execute("VACUUM")
        target = sqlite3.connect(database, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            connection.backup(target)
        finally:
            target.close()
    except sqlite3.Error as error:
        raise BackupError(
            "cannot restore into {path}: {problem}", path=str(database), problem=str(error)
        ) from None
    finally:
        connection.close()
