"""Whole tournaments in and out: ``crosstable export`` (JSON with its history, TRF-2026,
TRF-16) and ``crosstable import`` (a JSON export or a TRF file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from crosstable.cli.context import (
    CURRENT,
    DbOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    said,
)
from crosstable.cli.fide import ConfirmOption, confirmed
from crosstable.cli.files import write_atomically
from crosstable.cli.offline_import import import_tournament_json, is_tournament_json
from crosstable.cli.trf import echo_warnings, read_document
from crosstable.core.errors import InputError, RuleError

if TYPE_CHECKING:
    from crosstable.service import Service


def export(
    to: Annotated[str, typer.Option("--to", help="trf2026, trf16 or json.")] = "json",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Export the whole tournament: JSON (with its history) or a FIDE TRF file."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        if to == "json":
            text = json.dumps(service.export_json(tid), ensure_ascii=False, indent=2) + "\n"
        elif to in ("trf2026", "trf16"):
            text = service.export_trf(tid, to)
            _say_unfinished_round(service, tid, to)
        else:
            raise RuleError(f"--to {to!r}: use trf2026, trf16 or json")
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomically(output, text)
        console.print(f"written {output}", markup=False)


def _say_unfinished_round(service: Service, tid: int, edition: str) -> None:
    """Tell (on stderr) what the TRF leaves out of the rounds not finished, or marks."""
    for note in service.trf_export_notes(tid, edition):
        typer.echo(f"note: {note}", err=True)


def import_(
    file: Annotated[Path, typer.Argument(help="A crosstable JSON export or a TRF file.")],
    lenient: Annotated[
        bool,
        typer.Option(
            "--lenient", help="TRF: read a file from a sloppy program with warnings (trf validate)."
        ),
    ] = False,
    confirm: ConfirmOption = None,
    db: DbOption = None,
) -> None:
    """Import a tournament (JSON export with its history, or TRF); it becomes current.

    A TRF's rounds are re-checked against its system's rules and its places against its
    tie-breaks: a round that fails is a warning to confirm with --confirm TOKEN."""
    from crosstable.service.import_check import MAX_DOCUMENT_BYTES  # deferred: service layer
    from crosstable.service.trf_import import (  # deferred: service layer
        import_notes,
        import_trf,
    )

    with file.open("rb") as stream:
        data = stream.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise InputError(
            f"the file is larger than {MAX_DOCUMENT_BYTES // 2**20} MiB", source=str(file)
        )
    with open_service(db) as service:
        if data.lstrip()[:1] == b"{":
            try:
                document = json.loads(data.decode("utf-8-sig"))
            except UnicodeDecodeError as error:
                raise InputError(f"not UTF-8 ({error.reason})", source=str(file)) from None
            except json.JSONDecodeError as error:
                raise InputError(
                    error.msg, source=str(file), line=error.lineno, column=error.colno
                ) from None
            except ValueError:  # json refuses integers of over 4 300 digits
                raise InputError("a number has too many digits", source=str(file)) from None
            except RecursionError:
                raise InputError("the document is nested too deeply", source=str(file)) from None
            if is_tournament_json(document):  # the offline app's export, trf convert's JSON
                change = import_tournament_json(service, document, str(file), actor())
                tid, summary = change.tournament_id, change.summary
            else:
                tid = service.import_json(document, source=str(file))
                summary = f"tournament {tid} imported from {file} with its history"
        else:
            parsed = read_document(file, lenient=lenient)  # (bounded as every TRF read is)
            echo_warnings(file, parsed)
            for note in import_notes(parsed):  # what the re-check assumed or left out
                typer.echo(f"{file}: note: {note}", err=True)
            change = confirmed(  # each round re-checked: a failing one is a level-3 warning
                lambda: import_trf(
                    service, parsed, actor=actor(), source=str(file), confirm=confirm
                )
            )
            tid, summary = change.tournament_id, change.summary
        service.set_preference(CURRENT, str(tid))
        header(service, tid)
        said(summary)


def register(app: typer.Typer) -> None:
    """Add ``crosstable export`` and ``crosstable import`` to ``app``."""
    app.command("export")(export)
    app.command("import")(import_)
