"""`crosstable trf validate` and `crosstable trf convert`: check and convert TRF files.

Input is a TRF (TRF-16, TRF-2026, TRF(x); UTF-8 or Latin-1) or a tournament
JSON file (recognised by its opening ``{``). Errors are one line naming file,
line and column, with exit status 2; nothing is written when a file is bad.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.files import write_atomically
from crosstable.core.errors import InputError
from crosstable.core.model import System
from crosstable.formats.trf import TrfDocument, parse_trf, read_bytes, trf16_losses, write_trf
from crosstable.formats.trf_encoding import decode_with_note
from crosstable.formats.trf_text import RecoverableError

trf_app = typer.Typer(
    name="trf",
    help="Check and convert FIDE Tournament Report Files (TRF-16, TRF-2026, TRF(x)).",
    no_args_is_help=True,
)


class Target(StrEnum):
    TRF16 = "trf16"
    TRF2026 = "trf2026"
    JSON = "json"


#: ``--lenient``, shared by trf validate/convert, standings and pair.
LENIENT_HELP = (
    "Read files from sloppy programs: a game both players lost, a points column that "
    "does not add up, an unknown record code become warnings instead of errors."
)
Lenient = Annotated[bool, typer.Option("--lenient", help=LENIENT_HELP)]


def read_document(path: Path, *, lenient: bool = False) -> TrfDocument:
    """A TRF or tournament-JSON file as a document (InputError naming the file if bad).

    A recoverable inconsistency, when not ``lenient``, is an error that says
    ``--lenient`` would read it; a guessed encoding is the first warning.
    """
    text, note = decode_with_note(read_bytes(path))
    try:
        if text.lstrip().startswith("{"):
            from crosstable.formats.json_io import load_json  # deferred: start-up time

            doc = load_json(text, source=str(path), lenient=lenient)
        else:
            doc = parse_trf(text, source=str(path), lenient=lenient)
    except RecoverableError as error:
        raise InputError(
            f"{error.message} (--lenient reads it with a warning)",
            source=error.source,
            line=error.line,
            column=error.column,
        ) from None
    return doc if note is None else replace(doc, warnings=(note, *doc.warnings))


def echo_warnings(path: Path, doc: TrfDocument) -> None:
    """The reader's warnings on stderr, one line each, naming the file."""
    for warning in doc.warnings:
        typer.echo(f"{path}: warning: {warning}", err=True)


def consistency_warnings(doc: TrfDocument) -> list[str]:
    """What the file says that does not agree with its own games (not errors); the
    points column is the reader's check (an error unless ``--lenient``)."""
    tournament = doc.tournament
    warnings = list(doc.warnings)
    size = len(tournament.players)
    rated = sum(1 for p in tournament.players if p.rating)
    for tag, count, what in (("062", size, "players"), ("072", rated, "rated players")):
        declared = doc.headers.get(tag, "").strip()
        if declared and declared != str(count):
            warnings.append(f"{tag} says {declared} {what}, the file has {count}")
    planned = tournament.settings.rounds
    if planned is not None and len(tournament.rounds) > planned:
        warnings.append(
            f"the file has {len(tournament.rounds)} rounds, more than the {planned} "
            "declared (142/XXR)"
        )
    return warnings


def summary(doc: TrfDocument) -> str:
    tournament = doc.tournament
    settings = tournament.settings
    system = {
        System.ROUND_ROBIN: "round robin",
        System.SWISS_DUTCH: "Swiss",
        System.SCHEVENINGEN: "Scheveningen",
        System.KNOCKOUT: "knockout",
    }[settings.system]
    if settings.system is System.ROUND_ROBIN and settings.cycles > 1:
        system += f" ({settings.cycles} cycles)"
    rounds = len(tournament.rounds)
    planned = f" of {settings.rounds}" if settings.rounds and settings.rounds != rounds else ""
    return (
        f"{len(tournament.players)} players, {rounds}{planned} rounds, system {system}, "
        f"scoring {settings.point_system.label()}"
    )


@trf_app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="TRF file (or tournament JSON) to check.")],
    lenient: Lenient = False,
) -> None:
    """Check a TRF file: columns, the two entries of every game, and the tags.

    Prints "FILE: ok — …" and any warnings (exit 0), or one line naming the
    line and column of the first error (exit 2).
    """
    doc = read_document(file, lenient=lenient)
    typer.echo(f"{file}: ok — {summary(doc)}")
    for warning in consistency_warnings(doc):
        typer.echo(f"{file}: warning: {warning}", err=True)


@trf_app.command()
def convert(
    file: Annotated[Path, typer.Argument(help="TRF file (or tournament JSON) to convert.")],
    to: Annotated[Target, typer.Option("--to", help="Output format.")] = Target.TRF2026,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")
    ] = None,
    lenient: Lenient = False,
) -> None:
    """Convert to TRF-2026, TRF-16 or tournament JSON (stdout unless -o)."""
    doc = read_document(file, lenient=lenient)
    echo_warnings(file, doc)
    if to is Target.JSON:
        from crosstable.formats.json_io import dump_json  # deferred: start-up time

        text = dump_json(doc)
    else:
        text = write_trf(doc, to.value)
        if to is Target.TRF16:
            for loss in trf16_losses(doc):
                typer.echo(f"{file}: warning: TRF-16 cannot carry the {loss}", err=True)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomically(output, text)


def register(app: typer.Typer) -> None:
    """Add ``crosstable trf …`` to ``app``."""
    app.add_typer(trf_app, name="trf")
