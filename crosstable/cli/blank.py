"""`crosstable blank berger|crosstable` — blank papers to print, as PDF.

    crosstable blank berger --all -o berger.pdf            # 4 to 16 players, a page each
    crosstable blank berger --players 7 --lang ru -o b7.pdf
    crosstable blank crosstable --players 12 --tiebreaks 2 -o blank.pdf

The tables are the core's (:mod:`crosstable.core.schedule.blank`), drawn by the web
layer's PDF module (:mod:`crosstable.web.pdf.blanks`), which needs the ``web`` extra.
A size outside the range is one line on stderr with exit status 2, and no file is
written.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer

from crosstable.cli import fail
from crosstable.core.errors import RuleError
from crosstable.core.schedule.blank import berger_sheet, check_blank_crosstable

blank_app = typer.Typer(
    name="blank",
    help="Blank papers as PDF: FIDE Berger tables (4 to 16 players) and a blank crosstable.",
    no_args_is_help=True,
)


class Language(StrEnum):
    EN = "en"
    RU = "ru"


def register(app: typer.Typer) -> None:
    """Add ``crosstable blank …`` to ``app``."""
    app.add_typer(blank_app, name="blank")


LangOption = Annotated[Language, typer.Option("--lang", help="Language of the paper: en or ru.")]
OutputOption = Annotated[Path, typer.Option("--output", "-o", help="The PDF file to write.")]


def _drawing(lang: Language) -> ModuleType:
    """The PDF module with the paper's language chosen. Imported here, not at the top:
    it pulls in fpdf2 and Babel (the ``web`` extra), which the rest of the command line
    does not need."""
    try:
        from crosstable.web import i18n  # deferred: fpdf2 and Babel (start-up time)
        from crosstable.web.pdf import blanks  # deferred: fpdf2 and Babel (start-up time)
    except ImportError as error:  # pragma: no cover - the web extra is installed in tests
        fail(f"blank papers need the web extra: pip install 'crosstable[web]' ({error.name})")
        raise
    i18n.current.set(lang.value)
    return blanks


def _write(output: Path, data: bytes) -> None:
    try:
        output.write_bytes(data)
    except OSError as error:
        fail(f"{output}: {error.strerror or error}")
    typer.echo(f"{output}: {len(data)} bytes")


@blank_app.command("berger")
def berger_command(
    output: OutputOption,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="One table: 4 to 16 players.")
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every table, 4 to 16, a page each.")
    ] = False,
    lang: LangOption = Language.EN,
) -> None:
    """Blank FIDE Berger tables: the left number plays White, the bye marked."""
    if (players is None) == (not every):
        raise RuleError("give --players N or --all (one of them)")
    if players is not None:
        berger_sheet(players)  # checked before anything is drawn or written
    blanks = _drawing(lang)
    data = blanks.berger_pdf(None if every else [players])
    _write(output, data)


@blank_app.command("crosstable")
def crosstable_command(
    output: OutputOption,
    players: Annotated[int, typer.Option("--players", "-n", help="2 to 100 players.")],
    tiebreaks: Annotated[int, typer.Option("--tiebreaks", help="Tie-break columns, 0 to 6.")] = 2,
    lang: LangOption = Language.EN,
) -> None:
    """A blank crosstable to fill in by hand: a column per opponent, points, tie-breaks."""
    check_blank_crosstable(players, tiebreaks)
    blanks = _drawing(lang)
    _write(output, blanks.blank_crosstable_pdf(players, tiebreaks))
