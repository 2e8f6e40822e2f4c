"""What every command on a tournament in the database works with: the database (``--db``,
or ``CROSSTABLE_DB``, or the per-user default file), the tournament (``--tournament``, or
the current one: the last created, imported or chosen with ``crosstable use``), who acts
(``CROSSTABLE_ACTOR``, else the system's user), and the lines such a command prints: the
header naming the tournament first, then what changed, and a round's pairings.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from crosstable.cli.backup import safeguarded
from crosstable.core.errors import RuleError

if TYPE_CHECKING:  # the store and services load only when a command needs them
    from crosstable.service import Service

#: the preference that remembers the current tournament
CURRENT = "cli.current_tournament"

DbOption = Annotated[
    str | None,
    typer.Option("--db", envvar="CROSSTABLE_DB", help="Database file or postgresql:// URL."),
]
TournamentOption = Annotated[
    int | None,
    typer.Option("--tournament", "-t", help="Tournament id (default: the current one)."),
]

console = Console(highlight=False, soft_wrap=True)


@contextmanager
def open_service(db: str | None) -> Iterator[Service]:
    """The service on the database ``db`` (a backup before risky changes; closed at the end)."""
    from crosstable.service import Service  # deferred: the service layer (start-up time)
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)

    store = open_store(db)
    try:
        yield safeguarded(Service(store))
    finally:
        store.close()


def actor() -> str:
    """Who makes the change: ``CROSSTABLE_ACTOR``, else the system's user name."""
    name = os.environ.get("CROSSTABLE_ACTOR")
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - no user name on this system
        return ""


def current_tournament(service: Service, tournament: int | None) -> int:
    """The tournament a command works on: ``--tournament``, else the current one, else
    the only one in the database."""
    if tournament is not None:
        service.overview(tournament)  # a clear error when there is none
        return tournament
    remembered = service.preference(CURRENT)
    if remembered is not None:
        return int(remembered)
    listed = service.tournaments()
    if len(listed) == 1:
        return listed[0].id
    if not listed:
        raise RuleError("there is no tournament yet: create one with `crosstable new NAME`")
    raise RuleError("several tournaments: say which with --tournament ID (see `crosstable use`)")


def header(service: Service, tid: int) -> None:
    """The first line of a command's output: the tournament's id, name and status."""
    view = service.overview(tid)
    console.print(f"[bold]#{view.id} {view.name}[/bold] [dim]({view.status})[/dim]")


def said(summary: str, replayed: bool = False) -> None:
    """What a change did (``unchanged:`` first when the same request came again)."""
    console.print(Text.assemble(("unchanged: " if replayed else "", "yellow"), summary))


#: how a round without an opponent is shown
BYE_LABELS = {
    "free": "free",
    "U": "PAB",
    "H": "half-point bye",
    "Z": "zero-point bye",
    "F": "full-point bye",
}


def pairings(service: Service, tid: int, number: int) -> None:
    """Round ``number``'s pairings with their results, then its byes."""
    view = service.overview(tid)
    table = Table("board", "white", "", "black", title=f"round {number}", title_justify="left")
    for g in view.games:
        if g.round != number:
            continue
        shown = g.result or ("disputed" if g.disputed else "")
        if not g.result and not g.disputed and (g.white_report or g.black_report):
            shown = f"reported {g.white_report or g.black_report}"
        table.add_row(str(g.board), f"{g.white} {g.white_name}", shown, f"{g.black} {g.black_name}")
    names = {p.start: p.name for p in view.players}
    for rnd in service.tournament(tid).rounds:
        if rnd.number != number:
            continue
        gone = {p.start: p.withdrawn_from for p in view.players if p.withdrawn_from}
        for bye in sorted(rnd.byes, key=lambda b: b.player):
            label = BYE_LABELS.get(bye.kind.value, bye.kind.value)
            if bye.kind.value == "Z" and gone.get(bye.player, number + 1) <= number:
                label = "withdrew"
            table.add_row("", f"{bye.player} {names.get(bye.player, '')}", label, "")
    console.print(table)


#: ``--format table|json`` of the commands that print a table or its JSON
FormatOption = Annotated[str, typer.Option("--format", help="table or json.")]


def output_format(output: str) -> str:
    """``--format``'s value, table or json (else refused naming it)."""
    if output not in ("table", "json"):
        raise RuleError("--format {given}: use table or json", given=repr(output))
    return output
