"""`crosstable race FILE.trf [--top K]` — who can still finish first, or in the top K.

Contract (docs/race.md): ``--format json`` prints
``{"top_k": K, "games_left": N, "exact": true, "rows": [{"start": 1, "points": 4.5,
"max": 6.5, "first": "clinched"|"possible"|"eliminated", "top": …, "needs":
{"possible": 1, "clinch": 2}, "exact": true}, …]}`` on points alone, rows by starting
number. A round robin's remaining games are every pair (per cycle) that has not met
yet; a file whose type (092/192) names a Swiss is answered as an estimate from the
current round's pairings and the rounds still to pair ("exact": false).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.trf import Lenient, echo_warnings, read_document
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import System
from crosstable.core.race import RaceReport, race, race_problem
from crosstable.core.scoring import format_points as show
from crosstable.formats.trf_codes import system_from_text

FORMATS = ("json", "table")
SYSTEMS = {"round-robin": True, "swiss": False}


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command(name="race")(race_command)


def race_command(
    file: Annotated[Path, typer.Argument(help="Tournament Report File (TRF-16, TRF-2026, TRF(x))")],
    top: Annotated[
        int,
        typer.Option("--top", help="K: the places that count (prize or qualification places)"),
    ] = 1,
    system: Annotated[
        str | None,
        typer.Option(
            "--system",
            help="round-robin or swiss (default: the file's type, 092/192; else round robin)",
        ),
    ] = None,
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
    lenient: Lenient = False,
) -> None:
    """Who can still finish first (or in the top K): clinched, possible or eliminated."""
    if output not in FORMATS:
        raise InputError(f"--format {output!r}: use json or table", source="options")
    if top < 1:
        raise InputError(f"--top {top}: the top places are 1 or more", source="options")
    round_robin = None if system is None else SYSTEMS.get(system.strip().lower())
    if system is not None and round_robin is None:
        raise InputError(f"--system {system!r}: use round-robin or swiss", source="options")
    document = read_document(file, lenient=lenient)
    echo_warnings(file, document)
    tournament = document.tournament
    if not tournament.players:
        raise InputError("the file has no players (001 lines)", source=str(file))
    if top > len(tournament.players):
        raise InputError(
            f"--top {top}: the file has {len(tournament.players)} players", source="options"
        )
    if round_robin is None:
        round_robin = _named_round_robin(document.headers)
    if round_robin and not tournament.settings.system.has_predetermined_pairings:
        settings = replace(tournament.settings, system=System.ROUND_ROBIN)
        tournament = replace(tournament, settings=settings)
    try:
        report = race(race_problem(tournament, round_robin=round_robin), top)
    except RuleError as error:
        raise InputError(str(error), source=str(file)) from None
    if output == "json":
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        names = {p.start: p.name for p in tournament.players}
        typer.echo(render(report, names))


def _named_round_robin(headers: dict[str, str]) -> bool:
    """A round robin unless the file's type (192, then 092) names another system."""
    for tag in ("192", "092"):
        text = headers.get(tag, "").strip()
        found = system_from_text(text) if text else None
        if found is not None:
            return found[0].has_predetermined_pairings
    return True


def render(report: RaceReport, names: dict[int, str]) -> str:
    """The answers as a fixed-width table, a note below."""
    top = "First" if report.top_k == 1 else f"Top {report.top_k}"
    headers = ["No", "Name", "Pts", "Max", "First", *([top] if report.top_k > 1 else [])]
    headers += ["Needs (possible)", "Needs (clinch)"]
    lines = []
    for row in report.rows:
        line = [str(row.start), names.get(row.start, ""), show(row.points), show(row.maximum)]
        line.append(row.first)
        if report.top_k > 1:
            line.append(row.top)
        for value in (row.needs_possible, row.needs_clinch):
            line.append("—" if value is None else show(value))
        lines.append(line)
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(headers)]
    out = []
    for line in [headers, *lines]:
        cells = [
            t.ljust(w) if i == 1 else t.rjust(w)
            for i, (t, w) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    out.append("")
    out.append(f"{report.games_left} games left; points alone, tie-breaks not applied")
    if not report.exact:
        out.append("estimate: not every answer could be decided exactly (docs/race.md)")
    return "\n".join(out)
