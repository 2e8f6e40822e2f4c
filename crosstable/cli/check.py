"""`crosstable check FILE.trf`: re-pair every round of a Swiss and report differences.

Each round is paired again from the state before it (earlier results, byes
entered for the round) by the FIDE Dutch system and compared with the round as
played: the same pairs with the same colours and the same PAB. Exit status 0
when every round agrees, 1 when some round differs, 2 for bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.pair import accelerations, initial_colour
from crosstable.cli.trf import read_document
from crosstable.core.errors import InputError
from crosstable.core.model import Tournament
from crosstable.core.pairing.dutch import PairingRequest, request_for
from crosstable.core.pairing.dutch.checker import RoundCheck, check_tournament
from crosstable.formats.trf_model import TrfDocument


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("check")(check)


def check(
    file: Annotated[Path, typer.Argument(help="TRF file of a Swiss tournament")],
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
) -> None:
    """Check that every round was paired as the FIDE Dutch system (2026) pairs it."""
    if output not in ("json", "table"):
        raise InputError(f"--format {output!r}: use json or table", source="options")
    doc = read_document(file)
    results = check_document(doc)
    differing = [r.round for r in results if not r.agrees]
    if output == "json":
        typer.echo(json.dumps({"rounds": [r.as_json() for r in results], "differing": differing}))
    else:
        typer.echo(render(results))
    if differing:
        raise typer.Exit(1)


def check_document(doc: TrfDocument) -> list[RoundCheck]:
    colour = initial_colour(doc)
    table = accelerations(doc)

    def request(cut: Tournament, number: int) -> PairingRequest:
        absent = {p for r in doc.byes if r.round == number for p in r.players}
        forbidden: list[tuple[int, ...]] = list(doc.forbidden_pairs)
        forbidden += [r.players for r in doc.prohibited if r.first_round <= number <= r.last_round]
        return request_for(
            cut,
            number,
            initial_colour=colour,
            accelerations=table,
            forbidden=forbidden,
            absent=absent,
            total_rounds=doc.tournament.settings.rounds or len(doc.tournament.rounds),
        )

    return check_tournament(doc.tournament, request)


def _boards(boards: tuple[tuple[int, int], ...], bye: int | None) -> str:
    text = " ".join(f"{w}-{b}" for w, b in boards)
    return text + (f" PAB {bye}" if bye is not None else "")


def render(results: list[RoundCheck]) -> str:
    lines = []
    for result in results:
        if result.agrees:
            lines.append(f"Round {result.round}: agrees")
            continue
        lines.append(f"Round {result.round}: differs")
        lines.append("  played: " + _boards(result.played.boards, result.played.bye))
        if result.expected is None:
            lines.append(f"  rules:  no valid pairing ({result.error})")
        else:
            lines.append("  rules:  " + _boards(result.expected.boards, result.expected.bye))
    wrong = sum(1 for r in results if not r.agrees)
    lines.append(f"{len(results) - wrong} of {len(results)} rounds agree")
    return "\n".join(lines)
