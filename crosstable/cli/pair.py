"""`crosstable pair FILE.trf`: the next round of a Swiss by the FIDE Dutch system.

Contract (DESIGN.md): ``--format json`` prints
``{"round": r, "boards": [[white, black], …], "bye": k|null}``; boards are in
board order, ``bye`` is the pairing-allocated bye. Players with a bye already
entered for the round (H, Z or F in the file, TRF-2026 record 240, or XXZ) are
not paired. Accelerations (250 / XXA, or the Baku method named in 092/192),
prohibited pairings (260 / XXP) and the initial colour (152 / XXC) are honoured.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.trf import Lenient, echo_warnings, read_document
from crosstable.core.errors import InputError
from crosstable.core.pairing.dutch import Pairing, PairingRequest, pair_round, request_for
from crosstable.core.pairing.dutch.from_tournament import next_round
from crosstable.formats.limits import MAX_ROUNDS
from crosstable.formats.trf_declared import file_accelerations, file_initial_colour
from crosstable.formats.trf_model import TrfDocument


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("pair")(pair)


def pair(
    file: Annotated[Path, typer.Argument(help="TRF file of the tournament so far")],
    system: Annotated[str, typer.Option("--system", help="pairing system: dutch")] = "dutch",
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
    round_number: Annotated[
        int | None, typer.Option("--round", help="round to pair (default: the next one)")
    ] = None,
    lenient: Lenient = False,
) -> None:
    """Pair the next round of a Swiss tournament (FIDE Dutch system, 2026 rules)."""
    if system.lower() != "dutch":
        raise InputError(f"--system {system!r}: only dutch is supported", source="options")
    if output not in ("json", "table"):
        raise InputError(f"--format {output!r}: use json or table", source="options")
    doc = read_document(file, lenient=lenient)
    echo_warnings(file, doc)
    pairing = pair_round(request_from_document(doc, round_number))
    if output == "json":
        typer.echo(json.dumps(pairing.as_json()))
    else:
        typer.echo(render(pairing))


def render(pairing: Pairing) -> str:
    """The pairing as a plain table.

    >>> print(render(Pairing(2, ((3, 1),), 2, (4,))))
    Round 2
    Board  White  Black
        1      3      1
    PAB: 2
    Absent: 4
    """
    lines = [f"Round {pairing.round}", "Board  White  Black"]
    for board, (white, black) in enumerate(pairing.boards, 1):
        lines.append(f"{board:5d}  {white:5d}  {black:5d}")
    if pairing.bye is not None:
        lines.append(f"PAB: {pairing.bye}")
    if pairing.absent:
        lines.append("Absent: " + ", ".join(str(s) for s in pairing.absent))
    return "\n".join(lines)


def request_from_document(doc: TrfDocument, round_number: int | None = None) -> PairingRequest:
    """The pairing request for the next round (or ``round_number``) of a TRF."""
    tournament = doc.tournament
    number = next_round(tournament) if round_number is None else round_number
    if number < 1:
        raise InputError(f"--round {number}: rounds are numbered from 1", source="options")
    if number > MAX_ROUNDS:
        raise InputError(f"--round {number}: at most {MAX_ROUNDS}", source="options")
    absent = set(doc.absent)
    for record in doc.byes:
        if record.round == number:
            absent.update(record.players)
    forbidden: list[tuple[int, ...]] = list(doc.forbidden_pairs)
    forbidden += [r.players for r in doc.prohibited if r.first_round <= number <= r.last_round]
    return request_for(
        tournament,
        number,
        initial_colour=file_initial_colour(doc),
        accelerations=file_accelerations(doc),
        forbidden=forbidden,
        absent=absent,
    )
