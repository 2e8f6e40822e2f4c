"""`crosstable generate`: a random Swiss tournament (FIDE Dutch) written as TRF.

Results are drawn from the ratings with a seeded generator, so the same seed
gives the same file. Optional rates add half-point byes, absences (zero-point
byes) and forfeits. Useful for testing arbiter software and the engine itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.files import write_atomically
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.formats.trf import write_trf
from crosstable.formats.trf_model import TrfDocument


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("generate")(generate_command)


def generate_command(
    players: Annotated[int, typer.Option("--players", help="number of players")],
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds")],
    out: Annotated[Path, typer.Option("-o", "--output", help="TRF file to write")],
    seed: Annotated[int, typer.Option("--seed", help="random seed")] = 0,
    byes: Annotated[float, typer.Option("--byes", help="half-point bye rate")] = 0.0,
    absences: Annotated[float, typer.Option("--absences", help="zero-point bye rate")] = 0.0,
    forfeits: Annotated[float, typer.Option("--forfeits", help="forfeit rate")] = 0.0,
    draws: Annotated[float, typer.Option("--draws", help="draw rate between equals")] = 0.3,
    edition: Annotated[str, typer.Option("--edition", help="trf2026 or trf16")] = "trf2026",
) -> None:
    """Write a random, fully paired Swiss tournament as a TRF file."""
    try:
        settings = GeneratorSettings(
            players=players,
            rounds=rounds,
            seed=seed,
            draw_rate=draws,
            half_bye_rate=byes,
            absence_rate=absences,
            forfeit_rate=forfeits,
        )
    except RuleError as error:
        raise InputError(str(error), source="options") from None
    write_atomically(out, generated_trf(settings, edition))


def generated_trf(settings: GeneratorSettings, edition: str = "trf2026") -> str:
    tournament = generate(settings)
    doc = TrfDocument.from_tournament(tournament)
    doc = TrfDocument(
        tournament=doc.tournament,
        headers=doc.headers,
        file_points=doc.file_points,
        file_ranks=doc.file_ranks,
        initial_colour=Colour.WHITE,
    )
    return write_trf(doc, edition)
