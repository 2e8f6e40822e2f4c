"""`crosstable pgn export [TID]` and `crosstable pgn import FILE`
(docs/pgn.md): the tournament's games as one PGN, and moves read from a PGN file — one
game (``--round R --board B``), a round's games (``--round R``) or games of any rounds
(each with its ``Round "r.b"`` header)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.context import (
    DbOption,
    TournamentOption,
    actor,
    current_tournament,
    open_service,
    said,
)
from crosstable.cli.files import write_atomically
from crosstable.core.errors import InputError

pgn_app = typer.Typer(
    help="PGN: the tournament's games as one file, and games' moves read from a file.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(pgn_app, name="pgn")


@pgn_app.command("export")
def export(
    tid: Annotated[
        int | None, typer.Argument(help="Tournament id (default: the current one).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    db: DbOption = None,
) -> None:
    """The tournament's games as one PGN: Seven Tag Roster, Round "r.b", Elo, FIDE ids."""
    with open_service(db) as service:
        text = service.export_pgn(current_tournament(service, tid))
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomically(output, text)
        typer.echo(f"written {output}")


@pgn_app.command("import")
def import_file(
    file: Annotated[Path, typer.Argument(help="The PGN file (UTF-8 or Latin-1).")],
    round_number: Annotated[
        int | None, typer.Option("--round", "-r", min=1, help="Only this round's boards.")
    ] = None,
    board: Annotated[
        int | None,
        typer.Option("--board", "-b", min=1, help="This one game (with --round; one game)."),
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Store the moves (and results not yet recorded) of the games in a PGN file."""
    from crosstable.formats.pgn import MAX_PGN_BYTES  # deferred: python-chess (start-up time)

    source = str(file)
    if board is not None and round_number is None:
        raise InputError("--board needs --round", source="options")
    try:
        size = file.stat().st_size
        if size > MAX_PGN_BYTES:
            raise InputError(
                "the PGN is larger than {most} bytes", source=source, most=MAX_PGN_BYTES
            )
        raw = file.read_bytes()
    except OSError as error:
        raise InputError("cannot read the file: {why}", source=source, why=error.strerror) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        if board is not None and round_number is not None:
            change = service.record_moves(
                tid, round_number, board, text, actor=actor(), source=source
            )
        else:
            change = service.import_pgn(
                tid, text, round_number=round_number, actor=actor(), source=source
            )
    said(change.summary, change.replayed)
