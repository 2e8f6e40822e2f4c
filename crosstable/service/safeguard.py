"""A copy of the database before a risky change: the hook the services call.

Importing a tournament, undoing or reverting, importing a rating list change much at
once; before each, a service with a ``safeguard`` asks it for a backup with the change's
reason (``before-import``, ``before-undo``, ``before-revert``, ``before-rating-list``).
The command line and ``crosstable serve`` give a SQLite database's services one
(:class:`crosstable.store.backup.Backups`); a service without one (PostgreSQL, a
database in memory, tests) just goes on. When the backup cannot be made the change is
not made either: the message says why and how to turn the automatic backups off.
"""

from __future__ import annotations

from typing import Protocol

from crosstable.core.errors import CrosstableError


class Safeguard(Protocol):
    def before(self, reason: str) -> object:
        """Back the database up before the change ``reason`` names."""
        ...


class BackupFailedError(CrosstableError):
    """The backup before a risky change failed; the change was not made."""


def before_risky(safeguard: Safeguard | None, reason: str) -> None:
    """Ask ``safeguard`` (when there is one) for a backup before the change ``reason``."""
    if safeguard is None:
        return
    try:
        safeguard.before(reason)
    except CrosstableError as error:
        raise BackupFailedError(
            "nothing changed: the backup before this change failed ({problem}); "
            "free the disk or set CROSSTABLE_AUTO_BACKUP=0 to go on without one",
            problem=error.message,
        ) from None
