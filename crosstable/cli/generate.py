"""`crosstable generate`: a random Swiss tournament (FIDE Dutch) written as TRF.

Results are drawn from the ratings with a seeded generator, so the same seed
gives the same file. Optional rates add half-point byes, absences (zero-point
byes) and forfeits; amounts (a count, or a share, optionally @rounds) add full-,
half- and zero-point byes, forfeits and the results ½-0, 0-½ and 0-0; ``--baku``
pairs with the Baku acceleration (written as records 250) and ``--tiebreaks``
sets the order of the standings (records 202/212), whose places fill the rank
column. A ½-0, 0-½ or 0-0 is said in an ``### Arbiter's decision`` line, as the export
says it, so the file reads strictly. Useful for testing arbiter software, the engine
and ``crosstable check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.files import write_atomically
from crosstable.core.errors import InputError, RuleError
from crosstable.core.pairing.dutch.generator import (
    Amount,
    GeneratorSettings,
    accelerations_of,
    generate,
)
from crosstable.core.standings import compute_standings
from crosstable.formats.trf import write_trf
from crosstable.formats.trf_decided import with_decisions
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_records import acceleration_records

_AMOUNT_HELP = "a count (3) or a share (10%, 0.1), optionally @rounds (2@3, 10%@1-4); repeatable"


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("generate")(generate_command)


def _amount_option(flag: str, what: str) -> object:
    return typer.Option(flag, help=f"{what}: {_AMOUNT_HELP}")


def generate_command(
    players: Annotated[int, typer.Option("--players", help="number of players")],
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds")],
    out: Annotated[Path, typer.Option("-o", "--output", help="TRF file to write")],
    seed: Annotated[int, typer.Option("--seed", help="random seed")] = 0,
    byes: Annotated[float, typer.Option("--byes", help="half-point bye rate")] = 0.0,
    absences: Annotated[float, typer.Option("--absences", help="zero-point bye rate")] = 0.0,
    forfeits: Annotated[float, typer.Option("--forfeits", help="forfeit rate")] = 0.0,
    draws: Annotated[float, typer.Option("--draws", help="draw rate between equals")] = 0.3,
    full_byes: Annotated[list[str] | None, _amount_option("--full-byes", "full-point byes")] = None,
    half_byes: Annotated[list[str] | None, _amount_option("--half-byes", "half-point byes")] = None,
    zero_byes: Annotated[list[str] | None, _amount_option("--zero-byes", "zero-point byes")] = None,
    forfeit_games: Annotated[
        list[str] | None, _amount_option("--forfeit-games", "games won and lost by forfeit")
    ] = None,
    half_zero: Annotated[list[str] | None, _amount_option("--half-zero", "½-0 results")] = None,
    zero_half: Annotated[list[str] | None, _amount_option("--zero-half", "0-½ results")] = None,
    zero_zero: Annotated[list[str] | None, _amount_option("--zero-zero", "0-0 results")] = None,
    baku: Annotated[bool, typer.Option("--baku", help="Baku acceleration (C.04.5.1)")] = False,
    tiebreaks: Annotated[
        str, typer.Option("--tiebreaks", help="tie-break list, e.g. BH/C1,BH,SB")
    ] = "",
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
            full_byes=_amounts(full_byes),
            half_byes=_amounts(half_byes),
            zero_byes=_amounts(zero_byes),
            forfeits=_amounts(forfeit_games),
            half_zero=_amounts(half_zero),
            zero_half=_amounts(zero_half),
            zero_zero=_amounts(zero_zero),
            baku=baku,
            tiebreaks=tuple(code.strip() for code in tiebreaks.split(",") if code.strip()),
        )
    except RuleError as error:
        raise InputError(str(error), source="options") from None
    write_atomically(out, generated_trf(settings, edition))


def _amounts(texts: list[str] | None) -> tuple[Amount, ...]:
    return tuple(Amount.parse(text) for text in texts or ())


def generated_trf(settings: GeneratorSettings, edition: str = "trf2026") -> str:
    """The generated tournament as TRF: its acceleration (records 250, ``XXA`` in TRF-16)
    and the places of its final standings in the rank column, a tie still left after
    the tie-break list in the standings' order, and a ``###`` line for each ½-0, 0-½
    and 0-0 (the arbiter's decision the strict reading needs). TRF-16 cannot declare
    the tie-break list: its rank column stays blank."""
    tournament = generate(settings)
    doc = TrfDocument.from_tournament(tournament)
    table = accelerations_of(settings)
    trf16 = edition == "trf16"
    ranks: dict[int, int | None] = dict.fromkeys(doc.file_ranks)
    if not trf16:
        places = (row.start for row in compute_standings(tournament, final=True).rows if row.rank)
        ranks.update({start: place for place, start in enumerate(places, 1)})
    doc = TrfDocument(
        tournament=doc.tournament,
        headers=doc.headers,
        file_points=doc.file_points,
        file_ranks=ranks,
        initial_colour=settings.initial_colour,
        accelerations=() if trf16 else acceleration_records(table),
        fictitious_points={s: tuple(row) for s, row in table.items()} if trf16 else {},
    )
    return write_trf(with_decisions(doc), edition)
