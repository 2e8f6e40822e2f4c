"""`crosstable backup [--db URL]`, `backup list`, `crosstable restore FILE` (docs/store.md).

``backup`` copies the SQLite database now (consistent while ``serve`` writes) into its
backups folder (``<file>.backups/`` or ``CROSSTABLE_BACKUP_DIR``) and prints the file it
wrote; ``backup list`` shows every backup (time, reason, size, schema); ``restore FILE``
checks the file, backs the current database up and replaces it. A PostgreSQL database is
backed up with pg_dump: both commands say so and print the command.

The command line and ``crosstable serve`` also back a SQLite database up on their own
before a risky change (:func:`safeguarded`), and ``serve`` every hour when it changed
(:func:`scheduled`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from crosstable.core.errors import InputError

if TYPE_CHECKING:  # the store and services load only when a command runs
    from crosstable.service import Service
    from crosstable.store.backup_schedule import BackupSchedule

DbOption = Annotated[
    str | None,
    typer.Option("--db", envvar="CROSSTABLE_DB", help="Database file or postgresql:// URL."),
]

backup_app = typer.Typer(
    help="Back the SQLite database up now and print the file written; `backup list` lists them.",
    invoke_without_command=True,
)


def register(app: typer.Typer) -> None:
    """Add ``crosstable restore`` and the ``crosstable backup`` group to ``app``."""
    app.command("restore")(restore_command)
    app.add_typer(backup_app, name="backup")


@backup_app.callback(invoke_without_command=True)
def backup_command(ctx: typer.Context, db: DbOption = None) -> None:
    """Back the SQLite database up now and print the file written; `backup list` lists them."""
    if ctx.invoked_subcommand is not None:
        return
    # deferred: the store loads only when a command runs (crosstable/cli/catalogue.py)
    from crosstable.store.backup import Backups

    typer.echo(Backups.of(db).make("manual").path)


@backup_app.command("list")
def list_command(
    db: DbOption = None,
    output: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
) -> None:
    """Every backup of the database, newest first: time, reason, size, schema."""
    from crosstable.store.backup import Backups  # deferred: SQLAlchemy (start-up time)

    if output not in ("table", "json"):
        raise InputError("--format {value}: use table or json", value=output, source="options")
    backups = Backups.of(db)
    found = backups.listed()
    if output == "json":
        document = {"folder": str(backups.folder), "backups": [b.as_json() for b in found]}
        typer.echo(json.dumps(document, indent=2))
        return
    if not found:
        typer.echo(f"no backups in {backups.folder}")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("time (UTC)", "reason", "size", "schema", "file", title=str(backups.folder))
    for item in found:
        table.add_row(
            item.at.strftime("%Y-%m-%d %H:%M:%S"),
            item.reason,
            f"{item.size:,}",
            item.revision or "unreadable",
            item.path.name,
        )
    Console(highlight=False, soft_wrap=True).print(table)


def restore_command(
    file: Annotated[Path, typer.Argument(help="The backup to restore (from `backup list`).")],
    db: DbOption = None,
) -> None:
    """Restore the SQLite database from a backup (checked first; the current one is backed up)."""
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)
    from crosstable.store.backup import Backups  # deferred: SQLAlchemy (start-up time)
    from crosstable.store.restore import restore  # deferred: SQLAlchemy (start-up time)

    backups = Backups.of(db)
    done = restore(backups, file)
    typer.echo(f"restored {done.database} from {done.source} (schema {done.revision})")
    if done.before is not None:
        typer.echo(f"the database as it was before is backed up in {done.before.path}")
    open_store(str(done.database)).close()  # an older backup's schema upgraded now
    typer.echo("a `crosstable serve` running on this database must be restarted to show it")


def safeguarded(service: Service) -> Service:
    """``service`` with a backup before every risky change, when its store is a SQLite file."""
    from crosstable.store.backup import Backups, sqlite_path  # deferred: SQLAlchemy (start-up time)

    path = sqlite_path(service.store.url)
    if path is not None:
        service.safeguard = Backups(path, now=service.clock.now)
    return service


def scheduled(service: Service) -> BackupSchedule | None:
    """The running schedule of ``serve``'s backups (None: PostgreSQL, or turned off)."""
    from crosstable.store.backup import Backups, sqlite_path  # deferred: SQLAlchemy (start-up time)
    from crosstable.store.backup_schedule import BackupSchedule, every_setting  # deferred

    path = sqlite_path(service.store.url)
    every = every_setting()
    if path is None or every is None:
        return None
    return BackupSchedule(Backups(path, now=service.clock.now), every=every).start()
