"""`crosstable check FILE.trf`: pairings by the tournament's system, places by its tie-breaks.

Round by round, a round robin is compared with its FIDE Berger table and a Swiss
is re-paired from the state before each round (earlier results, byes entered
for the round, accelerations, prohibited pairings, initial colour) by the FIDE
Dutch system: the same pairs with the same colours and the same PAB. Then the
rank column is compared with the standings computed with the declared
tie-break order. Exit status 0 when everything follows the rules, 1 when
something does not, 2 for bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.trf import echo_warnings, read_document
from crosstable.core.checker import (
    CheckReport,
    Declared,
    RoundVerdict,
    boards_text,
    check_event,
)
from crosstable.core.checker.swiss import swiss_rounds
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import System
from crosstable.core.pairing.dutch.checker import RoundCheck
from crosstable.formats.trf_declared import declared_of
from crosstable.formats.trf_model import TrfDocument

_SYSTEMS = {
    System.ROUND_ROBIN: "Round robin, against the FIDE Berger table",
    System.SWISS_DUTCH: "Swiss, re-paired by the FIDE Dutch system",
}


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("check")(check)


def check(
    file: Annotated[Path, typer.Argument(help="TRF file of the tournament")],
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="refuse results that contradict each other (½-0, 0-0) instead of "
            "reading them as written, with a warning",
        ),
    ] = False,
) -> None:
    """Check every round's pairing against the tournament's system and the places
    against its tie-break order."""
    if output not in ("json", "table"):
        raise InputError(f"--format {output!r}: use json or table", source="options")
    doc = read_document(file, lenient=not strict)
    echo_warnings(file, doc)
    team_report = _team_report(doc, str(file))
    if team_report is not None:
        heading, score, report = team_report
        if output == "json":
            body = report.as_json() | {"competitors": "teams"}
            typer.echo(json.dumps(body, ensure_ascii=False))
        else:
            typer.echo(render_report(report, heading=heading, score=score))
        if not report.ok:
            raise typer.Exit(1)
        return
    try:
        report = check_event(doc.tournament, declared(doc))
    except RuleError as error:
        raise InputError(str(error), source=f"{file} (records 202/212)") from None
    if output == "json":
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        typer.echo(render_report(report))
    if not report.ok:
        raise typer.Exit(1)


def _team_report(doc: TrfDocument, source: str) -> tuple[str, str, CheckReport] | None:
    """A team file's check (None: not a team file): its heading, the score it ranks by
    first, and the report on the teams' rounds and ranks."""
    if not doc.teams:  # (a file without team records is no team file: no service load)
        return None
    # deferred: the service layer (SQLAlchemy) loads only for a file with teams
    from crosstable.service.teams.trf_check import check_team_file
    from crosstable.service.teams.trf_plan import is_team_file  # deferred: as above

    if not is_team_file(doc):
        return None
    plan, report = check_team_file(doc, source)
    teams = len(plan.teams)
    if plan.system is System.ROUND_ROBIN:
        heading = f"Team round robin of {teams} teams, against the teams' FIDE Berger table"
    else:
        heading = f"Team Swiss of {teams} teams, re-paired by the Olympiad Pairing Rules"
    primary = plan.settings.scoring.primary
    return heading, "match points" if primary == "MP" else "game points", report


def declared(doc: TrfDocument) -> Declared:
    """What the file declares for the check: how the Swiss was paired, the rank column
    and the tie-break order (212, else 202); the import re-checks with the same."""
    return declared_of(doc)


def check_document(doc: TrfDocument) -> list[RoundCheck]:
    """A Swiss's rounds re-paired by the Dutch system (the engine's ``-c``)."""
    return swiss_rounds(doc.tournament, declared(doc))


def render(results: list[RoundCheck]) -> str:
    """The Dutch re-pairing, round by round (the engine's ``-c`` output)."""
    lines = []
    for result in results:
        if result.agrees:
            lines.append(f"Round {result.round}: agrees")
            continue
        lines.append(f"Round {result.round}: differs")
        lines.append("  played: " + boards_text(result.played.boards, result.played.bye))
        if result.expected is None:
            lines.append(f"  rules:  no valid pairing ({result.error})")
        else:
            lines.append("  rules:  " + boards_text(result.expected.boards, result.expected.bye))
    wrong = sum(1 for r in results if not r.agrees)
    lines.append(f"{len(results) - wrong} of {len(results)} rounds agree")
    return "\n".join(lines)


def render_report(report: CheckReport, *, heading: str = "", score: str = "points") -> str:
    """The whole check as text: the system (``heading``: in other words), each round,
    the standings (``score``: what ranks first), a summary."""
    lines = [heading or _SYSTEMS.get(report.system, f"{report.system.value}: pairings not checked")]
    lines += [f"  ({note})" for note in report.notes]
    word = "free round" if report.system is System.ROUND_ROBIN else "PAB"
    for verdict in report.rounds:
        lines.extend(_round_lines(verdict, word, checked=report.method != "none"))
    ranks = report.ranks
    if ranks is not None:
        order = f"{score}, then " + ", ".join(code for code in ranks.tiebreaks if code != "PTS")
        if not ranks.tiebreaks:
            lines.append("Standings: no tie-break list declared (202/212), places not checked")
        elif not ranks.checked:
            lines.append(f"Standings: the file gives no ranks (order: {order})")
        elif not ranks.findings:
            lines.append(f"Standings after round {ranks.after}: follow {order}")
        else:
            count = len(ranks.findings)
            lines.append(
                f"Standings after round {ranks.after}: {count} "
                f"{'place differs' if count == 1 else 'places differ'} from {order}"
            )
            lines += [f"  {finding.message}" for finding in ranks.findings]
    agreeing = sum(1 for r in report.rounds if r.agrees)
    summary = f"{agreeing} of {len(report.rounds)} rounds agree"
    if ranks is not None and ranks.checked:
        summary += "; the places follow the tie-breaks" if not ranks.findings else ""
        summary += f"; {len(ranks.findings)} places differ" if ranks.findings else ""
    lines.append(summary)
    return "\n".join(lines)


def _round_lines(verdict: RoundVerdict, word: str, *, checked: bool) -> list[str]:
    if not checked:
        return [f"Round {verdict.round}: " + boards_text(verdict.played, verdict.played_bye, word)]
    if verdict.agrees and verdict.expected is None:  # (a round robin's round paired by hand)
        return [f"Round {verdict.round}: paired by hand, no pair twice in its cycle"]
    if verdict.agrees:
        return [f"Round {verdict.round}: agrees"]
    lines = [
        f"Round {verdict.round}: differs",
        "  played: " + boards_text(verdict.played, verdict.played_bye, word),
    ]
    if verdict.expected is not None:
        lines.append("  rules:  " + boards_text(verdict.expected, verdict.expected_bye, word))
    lines += [f"  {finding.kind}: {finding.message}" for finding in verdict.findings]
    return lines
