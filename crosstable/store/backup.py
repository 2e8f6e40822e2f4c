"""Backups of a SQLite store: an online copy, checked, named, rotated and listed.

A backup is a copy taken with SQLite's backup API in one step, that is inside one read
transaction: it is the database as it was at one moment even while the web application
keeps writing (WAL mode lets the writers go on meanwhile). The copy is written to a
hidden partial file, turned into a one-file database (journal mode DELETE, no ``-wal``
beside it), checked (``PRAGMA integrity_check`` and the schema's revision read from
``alembic_version``), synced to the disk and only then given its name, so a backup that
is listed is always a whole, readable one.

Where: the folder ``<database file>.backups/`` beside the database (``club.db`` →
``club.db.backups/``), or ``CROSSTABLE_BACKUP_DIR``. Names: the UTC time and the reason,
``2026-12-03T09-40-12Z-manual.sqlite`` (a second one in the same second gets ``.2``
before the suffix). Rotation after every backup keeps the newest
``CROSSTABLE_BACKUP_KEEP`` (20) and the newest backup of each of the last
``CROSSTABLE_BACKUP_DAYS`` (14) days that have one; the others are deleted.

PostgreSQL is backed up with its own tools (``pg_dump``, docs/deploy.md):
:func:`pg_dump_command` is the command this module suggests.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

from crosstable.store.engine import BUSY_TIMEOUT_SECONDS, StoreError, resolve_url
from crosstable.store.migrations import HEAD

#: the folder the backups go to (default: beside the database, ``<file>.backups``)
DIR_ENV = "CROSSTABLE_BACKUP_DIR"
#: how many of the newest backups rotation keeps
KEEP_ENV = "CROSSTABLE_BACKUP_KEEP"
#: of how many days (before those) the newest backup of each day is kept
DAYS_ENV = "CROSSTABLE_BACKUP_DAYS"
#: ``0``/``off``: no automatic backup before a risky change (``crosstable backup`` still works)
AUTO_ENV = "CROSSTABLE_AUTO_BACKUP"
DEFAULT_KEEP = 20
DEFAULT_DAYS = 14
SUFFIX = ".sqlite"
MAGIC = b"SQLite format 3\x00"
#: a reason is a short word or words joined by hyphens: ``manual``, ``before-import``
REASON = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
NAME = re.compile(
    r"^(?P<at>\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)-(?P<reason>[a-z][a-z0-9-]*?)"
    r"(?:\.(?P<count>\d+))?\.sqlite$"
)
TIME_FORMAT = "%Y-%m-%dT%H-%M-%SZ"
VERSIONS = Path(__file__).parent / "migrations" / "versions"


class BackupError(StoreError):
    """A backup cannot be made, read or restored; the message says why."""


@dataclass(frozen=True, slots=True)
class BackupInfo:
    """One backup file: when, why, how big, which schema (None: unreadable)."""

    path: Path
    at: dt.datetime
    reason: str
    size: int
    revision: str | None

    def as_json(self) -> dict[str, str | int | None]:
        return {
            "file": str(self.path),
            "at": self.at.isoformat().replace("+00:00", "Z"),
            "reason": self.reason,
            "size": self.size,
            "revision": self.revision,
        }


def known_revisions() -> frozenset[str]:
    """The schema revisions this program knows (its migrations' numbers)."""
    return frozenset(p.name.split("_", 1)[0] for p in VERSIONS.glob("[0-9]*_*.py"))


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None: PostgreSQL, or a database in memory).

    >>> sqlite_path("sqlite:////data/club.db"), sqlite_path("sqlite:///:memory:")
    (PosixPath('/data/club.db'), None)
    >>> sqlite_path("postgresql+psycopg://u@h/chess") is None
    True
    """
    if not url.startswith("sqlite:///"):
        return None
    name = url[len("sqlite:///") :].split("?", 1)[0]
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def pg_dump_command(url: str, at: dt.datetime) -> str:
    """The command that backs a PostgreSQL database up (custom format, for pg_restore);
    a password in the URL is left out (pg_dump reads ``PGPASSWORD`` or ``~/.pgpass``).

    >>> at = dt.datetime(2026, 12, 3, tzinfo=dt.UTC)
    >>> pg_dump_command("postgresql+psycopg://arbiter:secret@db/chess", at)
    "pg_dump --format=custom --file=crosstable-2026-12-03T00-00-00Z.dump 'postgresql://arbiter@db/chess'"
    """
    given = make_url(url)
    plain = URL.create(
        "postgresql",
        username=given.username,
        host=given.host,
        port=given.port,
        database=given.database,
        query=given.query,
    ).render_as_string(hide_password=False)
    stamp = at.astimezone(dt.UTC).strftime(TIME_FORMAT)
    return f"pg_dump --format=custom --file=crosstable-{stamp}.dump '{plain}'"


def int_setting(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise BackupError("{name}={value}: a whole number of 0 or more", name=name, value=value)
    return int(value)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def check_file(path: Path, *, shown: str | None = None) -> str:
    """The schema revision of the SQLite database ``path``, after checking that it is one
    of crosstable's, whole and not newer than this program; else :class:`BackupError`.
    Opened read-only and as immutable: the file is never changed."""
    name = shown or str(path)
    try:
        with path.open("rb") as file:
            head = file.read(len(MAGIC))
    except OSError as error:
        raise BackupError("{file}: {problem}", file=name, problem=error.strerror or "") from None
    if head != MAGIC:
        raise BackupError("{file}: not a SQLite database", file=name)
    uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise BackupError(
            "{file}: cannot be opened ({problem})", file=name, problem=str(error)
        ) from None
    connection.text_factory = _text  # a garbled file's names and messages need not be UTF-8
    try:
        return _checked(connection, name)
    except (sqlite3.Error, ValueError) as error:
        raise BackupError(
            "{file}: damaged, it is not a whole SQLite database ({problem})",
            file=name,
            problem=str(error),
        ) from None
    finally:
        connection.close()


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _checked(connection: sqlite3.Connection, name: str) -> str:
    rows = [row[0] for row in connection.execute("PRAGMA integrity_check(5)")]
    if rows != ["ok"]:
        raise BackupError(
            "{file}: damaged, the integrity check fails ({problem})",
            file=name,
            problem="; ".join(str(r) for r in rows)[:300],
        )
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not {"alembic_version", "tournaments", "events"} <= tables:
        raise BackupError("{file}: not a crosstable database (no tournaments in it)", file=name)
    revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    if revision is None or not isinstance(revision[0], str):
        raise BackupError("{file}: its schema revision cannot be read", file=name)
    if revision[0] not in known_revisions():
        raise BackupError(
            "{file}: written by a newer crosstable (schema {revision}; this one knows up to "
            "{head}): upgrade crosstable first",
            file=name,
            revision=revision[0],
            head=HEAD,
        )
    return str(revision[0])


def revision_of(path: Path) -> str | None:
    """The schema revision of a backup, None when it cannot be read (for the listing)."""
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        connection = sqlite3.connect(uri, uri=True)
        connection.text_factory = _text
        try:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            connection.close()
    except (sqlite3.Error, ValueError):
        return None
    return None if row is None else str(row[0])


def fsync_path(path: Path, *, folder: bool = False) -> None:
    """Make ``path``'s content (or a folder's entries) durable."""
    descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if folder else 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class Backups:
    """The backups of one SQLite database file: make, list, rotate.

    ``now`` names the backups (the service's clock in ``crosstable serve``)."""

    def __init__(
        self,
        database: Path,
        *,
        folder: Path | None = None,
        keep: int | None = None,
        days: int | None = None,
        now: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.database = Path(database)
        configured = os.environ.get(DIR_ENV, "").strip()
        self.folder = folder or (
            Path(configured).expanduser()
            if configured
            else self.database.with_name(self.database.name + ".backups")
        )
        self.keep = max(1, keep if keep is not None else int_setting(KEEP_ENV, DEFAULT_KEEP))
        self.days = days if days is not None else int_setting(DAYS_ENV, DEFAULT_DAYS)
        self.now = now or _utc_now

    @classmethod
    def of(cls, db: str | Path | None, **options: Any) -> Backups:
        """The backups of the database ``db`` names (``--db``, ``CROSSTABLE_DB``, default);
        PostgreSQL and databases in memory are refused with what to do instead."""
        url = resolve_url(db)
        path = sqlite_path(url)
        if path is None:
            if url.startswith("postgresql"):
                raise BackupError(
                    "PostgreSQL is backed up with pg_dump, not by crosstable: {command} "
                    "(restore with pg_restore; see docs/deploy.md)",
                    command=pg_dump_command(url, _utc_now()),
                )
            raise BackupError("a database in memory has no file to back up")
        return cls(path, **options)

    # -- making one ----------------------------------------------------------------------

    def make(self, reason: str = "manual") -> BackupInfo:
        """Copy the database now (consistent while others write), check the copy, name it,
        rotate; the new backup."""
        if not REASON.match(reason):
            raise BackupError(
                "backup reason {reason}: use lowercase words and hyphens", reason=reason
            )
        if not self.database.is_file():
            raise BackupError("no database at {path}: nothing to back up", path=str(self.database))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BackupError(
                "backup folder {folder}: {problem}", folder=str(self.folder), problem=str(error)
            ) from None
        at = self.now().astimezone(dt.UTC).replace(microsecond=0)
        target = self._free_name(at, reason)
        partial = self.folder / f".{target.name}.partial"
        try:
            self._copy(partial)
            revision = check_file(partial, shown=str(self.database))
            fsync_path(partial)
            os.replace(partial, target)
            fsync_path(self.folder, folder=True)
        except sqlite3.Error as error:
            raise BackupError(
                "cannot back up {path}: {problem}", path=str(self.database), problem=str(error)
            ) from None
        except OSError as error:
            raise BackupError(
                "cannot back up {path}: {problem}", path=str(self.database), problem=str(error)
            ) from None
        finally:
            partial.unlink(missing_ok=True)
        self.rotate()
        return BackupInfo(target, at, reason, target.stat().st_size, revision)

    def _copy(self, partial: Path) -> None:
        partial.unlink(missing_ok=True)
        source = sqlite3.connect(self.database, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # every page in one step: one read transaction
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            finally:
                copy.close()
        finally:
            source.close()

    def _free_name(self, at: dt.datetime, reason: str) -> Path:
        stem = f"{at.strftime(TIME_FORMAT)}-{reason}"
        target = self.folder / f"{stem}{SUFFIX}"
        count = 1
        while target.exists():
            count += 1
            target = self.folder / f"{stem}.{count}{SUFFIX}"
        return target

    def before(self, reason: str) -> BackupInfo | None:
        """The automatic backup before a risky change (the service's safeguard hook):
        none when ``CROSSTABLE_AUTO_BACKUP`` is off or there is no file yet."""
        if os.environ.get(AUTO_ENV, "").strip().lower() in ("0", "off", "no", "false"):
            return None
        if not self.database.is_file():
            return None
        return self.make(reason)

    # -- listing and rotating ------------------------------------------------------------

    def files(self) -> list[tuple[Path, dt.datetime, str]]:
        """The backup files by their names, newest first (nothing is opened)."""
        if not self.folder.is_dir():
            return []
        found: list[tuple[Path, dt.datetime, tuple[int, int], str]] = []
        for path in self.folder.iterdir():
            match = NAME.match(path.name)
            if match is None or not path.is_file():
                continue
            at = dt.datetime.strptime(match["at"], TIME_FORMAT).replace(tzinfo=dt.UTC)
            # within one second: in the order they were written
            order = (int(match["count"] or 1), path.stat().st_mtime_ns)
            found.append((path, at, order, match["reason"]))
        found.sort(key=lambda item: (item[1], item[2]), reverse=True)
        return [(path, at, reason) for path, at, _order, reason in found]

    def listed(self) -> list[BackupInfo]:
        """Every backup, newest first, with its size and schema revision."""
        return [
            BackupInfo(path, at, reason, path.stat().st_size, revision_of(path))
            for path, at, reason in self.files()
        ]

    def rotate(self) -> list[Path]:
        """Delete the backups rotation does not keep; the files deleted."""
        files = self.files()
        kept = {path for path, _at, _reason in files[: self.keep]}
        days: set[dt.date] = set()
        for path, at, _reason in files:  # newest first: the first of a day is its newest
            if at.date() not in days and len(days) < self.days:
                days.add(at.date())
                kept.add(path)
        removed = [path for path, _at, _reason in files if path not in kept]
        for path in removed:
            path.unlink(missing_ok=True)
        return removed

    def fingerprint(self) -> int:
        """When the database was last written (nanoseconds; its file and its WAL)."""
        times = [0]
        for path in (self.database, self.database.with_name(self.database.name + "-wal")):
            try:
                times.append(path.stat().st_mtime_ns)
            except OSError:
                continue
        return max(times)
