"""`crosstable trf validate` and `crosstable trf convert`: check and convert TRF files.

Input is a TRF (TRF-16, TRF-2026, TRF(x); UTF-8 or Latin-1) or a tournament
JSON file (recognised by its opening ``{``). Errors are one line naming file,
line and column, with exit status 2; nothing is written when a file is bad.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.files import write_atomically
from crosstable.core.model import System
from crosstable.core.scoring import format_points
from crosstable.formats.json_io import dump_json, load_json
from crosstable.formats.trf import TrfDocument, decode_trf, parse_trf, trf16_losses, write_trf

trf_app = typer.Typer(
    name="trf",
    help="Check and convert FIDE Tournament Report Files (TRF-16, TRF-2026, TRF(x)).",
    no_args_is_help=True,
)


class Target(StrEnum):
    TRF16 = "trf16"
    TRF2026 = "trf2026"
    JSON = "json"


def read_document(path: Path) -> TrfDocument:
    """A TRF or tournament-JSON file as a document (InputError naming the file if bad)."""
    text = decode_trf(path.read_bytes())
    if text.lstrip().startswith("{"):
        return load_json(text, source=str(path))
    return parse_trf(text, source=str(path))


def consistency_warnings(doc: TrfDocument) -> list[str]:
    """What the file says that does not agree with its own games (not errors)."""
    tournament = doc.tournament
    warnings = list(doc.warnings)
    differing = [
        (start, written, tournament.score(start))
        for start, written in sorted(doc.file_points.items())
        if tournament.score(start) != written
    ]
    if differing:
        shown = ", ".join(
            f"player {s}: file {format_points(w)}, computed {format_points(c)}"
            for s, w, c in differing[:5]
        )
        more = f" and {len(differing) - 5} more" if len(differing) > 5 else ""
        warnings.append(
            f"points column (81–84) differs from the score computed with "
            f"{tournament.settings.point_system.label()} for {len(differing)} player(s): "
            f"{shown}{more}; the file may use another scoring"
        )
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
) -> None:
    """Check a TRF file: columns, the two entries of every game, and the tags.

    Prints "FILE: ok — …" and any warnings (exit 0), or one line naming the
    line and column of the first error (exit 2).
    """
    doc = read_document(file)
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
) -> None:
    """Convert to TRF-2026, TRF-16 or tournament JSON (stdout unless -o)."""
    doc = read_document(file)
    if to is Target.JSON:
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
