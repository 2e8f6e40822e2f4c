"""The history from the terminal: ``crosstable undo`` (``--to N``) and ``crosstable history``.

Reopening a finished tournament — taking back the organiser's finish, or results
of a tournament that finished by itself — needs ``--reason`` and ``--yes``
(undoing the one result that finished it by itself does not).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from crosstable.cli.context import (
    DbOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    said,
)


def undo(
    to: Annotated[
        int | None, typer.Option("--to", help="Revert to how it was right after change #N.")
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option(
            "--reason", help="Why a finished tournament is reopened (kept in the history)."
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", help="Confirm reopening a finished tournament.")
    ] = False,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Undo the last change (or, with --to N, everything after change #N).

    Reopening a finished tournament (taking back its finish) needs --reason and --yes.
    """
    from crosstable.service.history import ReopeningError  # deferred: service layer

    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        try:
            change = (
                service.undo(tid, actor=actor(), reason=reason, confirm=yes)
                if to is None
                else service.revert_to(tid, to, actor=actor(), reason=reason, confirm=yes)
            )
        except ReopeningError as refused:
            raise ReopeningError(f"{refused} (--reason TEXT --yes)") from None
        said(change.summary, change.replayed)


def history(tournament: TournamentOption = None, db: DbOption = None) -> None:
    """Every change, oldest first: who, when, what (struck through: undone)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        table = Table("#", "when", "who", "what")
        for item in service.history(tid):
            what = item.summary
            style = "strike dim" if item.undone else ""
            table.add_row(
                str(item.seq), item.at[:19].replace("T", " "), item.actor, what, style=style
            )
        console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``crosstable undo`` and ``crosstable history`` to ``app``."""
    app.command()(undo)
    app.command()(history)
