"""`crosstable standings FILE.trf` — points, tie-breaks and ranks of a TRF file.

Contract (DESIGN.md): ``--format json`` prints
``{"tiebreaks": [...], "rows": [{"start": 1, "rank": 1, "points": 4.0, "SB": 9.0, …}, …]}``
with rows in ranking order, keys the codes as given and ``null`` for a tie-break
that does not apply. Without ``--tiebreaks`` the file's list (records 202/212)
is used, else the system's preset.

A team tournament's file (one the import reads as a team tournament: docs/teams.md)
gives the team table, as ``crosstable team standings`` shows it after the import: the
match and game points, then the team tie-breaks of 202 (else the defaults);
``--format json`` prints that command's JSON (``{"primary", "tiebreaks", "rows": [{"team",
"name", "place", "MP", "GP", …}]}``) with the notes of the reading.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from crosstable.cli.trf import Lenient, echo_warnings, read_document
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import RulesEdition, System
from crosstable.core.scoring import points_json
from crosstable.core.standings import Standings, compute_standings, crosstable_view
from crosstable.core.tiebreaks.explain import show
from crosstable.core.tiebreaks.presets import PRESETS

if TYPE_CHECKING:  # (the team modules load only for a team file: networkx is heavy)
    from crosstable.core.teams.standings import TeamStandings

FORMATS = ("json", "table", "crosstable")
SYSTEMS = {"round-robin": System.ROUND_ROBIN, "swiss": System.SWISS_DUTCH}
RULES = {"2024": RulesEdition.C07_2024, "2026": RulesEdition.C07_2026}
FORFEITS = {"yes": True, "no": False}


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command(name="standings")(standings)


def standings(
    file: Annotated[Path, typer.Argument(help="Tournament Report File (TRF-16, TRF-2026, TRF(x))")],
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            "--tiebreaks",
            help="Comma-separated FIDE codes (e.g. PTS,DE,WIN,SB,KS or BH/C1,BH,SB) or a "
            "preset: rr, swiss, portal, portal-doubled. Default: the file's 202/212 list, "
            "else the system's preset.",
        ),
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="C.07 edition: 2024 or 2026 (default 2024)")
    ] = None,
    system: Annotated[
        str | None,
        typer.Option("--system", help="round-robin or swiss (default: from the file)"),
    ] = None,
    withdrawn: Annotated[
        str | None,
        typer.Option("--withdrawn", help="Starting numbers of withdrawn players, e.g. 3,7"),
    ] = None,
    final: Annotated[
        bool,
        typer.Option(
            "--final", help="Final standings: apply the withdrawal rule, leave excluded out"
        ),
    ] = False,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            help="Explain every value of a player (START), or why A is above B (A,B)",
        ),
    ] = None,
    lots: Annotated[
        int | None,
        typer.Option("--lots", help="Break ties left after the list by lots drawn with this seed"),
    ] = None,
    forfeits: Annotated[
        str | None,
        typer.Option(
            "--forfeits-in-tiebreaks",
            help="yes (default, C.07 15.2): a round robin's forfeits count as games in the "
            "tie-breaks; no: they are unplayed rounds (C.07 art. 16), as the regulations may say",
        ),
    ] = None,
    output: Annotated[str, typer.Option("--format", help="json, table or crosstable")] = "table",
    lenient: Lenient = False,
) -> None:
    """Standings with FIDE tie-breaks (C.07), live or final."""
    if output not in FORMATS:
        raise InputError(f"--format {output!r}: use json, table or crosstable", source="options")
    source = str(file)
    document = read_document(file, lenient=lenient)
    echo_warnings(file, document)
    if document.teams:  # (a file without team records is no team file: no service load)
        # deferred: the service layer (SQLAlchemy) loads only for a file with teams
        from crosstable.service.teams.trf_check import team_file_standings
        from crosstable.service.teams.trf_plan import is_team_file  # deferred: as above

        if is_team_file(document):
            individual = {
                "--rules": rules,
                "--system": system,
                "--withdrawn": withdrawn,
                "--final": final or None,
                "--lots": lots,
                "--forfeits-in-tiebreaks": forfeits,
            }
            given = [option for option, value in individual.items() if value is not None]
            if given or output == "crosstable":
                option = given[0] if given else "--format crosstable"
                raise InputError(
                    f"{option}: {file} is a team tournament's file; the option is for a "
                    "tournament of players",
                    source="options",
                )
            team_codes = None if tiebreaks is None else _codes(tiebreaks)
            try:
                plan, team_table = team_file_standings(document, source, team_codes)
            except RuleError as error:
                raise InputError(str(error), source=_where(tiebreaks, source)) from None
            team = _team(explain, len(plan.teams))
            if output == "json":
                body = team_table_json(team_table, team)
                body["notes"] = list(plan.notes)
                typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
            else:
                kind = "round robin" if plan.system is System.ROUND_ROBIN else "Swiss"
                typer.echo(render_team_table(team_table, f"team {kind}", plan.notes, team))
            return
    tournament = document.tournament
    chosen_system = _choice(system, SYSTEMS, "--system")
    chosen_rules = _choice(rules, RULES, "--rules")
    counted = _choice(forfeits, FORFEITS, "--forfeits-in-tiebreaks")
    if counted is not None:
        settings = replace(tournament.settings, forfeits_in_tiebreaks=counted)
        tournament = replace(tournament, settings=settings)
    codes: str | tuple[str, ...] | None
    if tiebreaks is not None:
        codes = PRESETS.get(tiebreaks.strip().lower(), tiebreaks)
    else:
        codes = document.standings_tiebreaks or tournament.settings.tiebreaks or None
    withdrawals = start_numbers(withdrawn, len(tournament.players), "--withdrawn")
    try:
        table = compute_standings(
            tournament,
            codes,
            rules=chosen_rules,
            system=chosen_system,
            withdrawn=withdrawals,
            final=final,
            lots_seed=lots,
        )
        explained = _explain(table, explain, len(tournament.players))
    except RuleError as error:
        raise InputError(str(error), source=_where(tiebreaks, source)) from None
    if output == "json":
        payload = table.to_json()
        if explained is not None:
            payload["explain"] = explained[1]
        text = json.dumps(payload, ensure_ascii=False, indent=2)
    elif output == "crosstable":
        text = crosstable_view(tournament, table).text()
        if explained is not None:
            text += "\n\n" + explained[0]
    else:
        text = render_table(table)
        if explained is not None:
            text += "\n\n" + explained[0]
    typer.echo(text)


def _where(tiebreaks: str | None, source: str) -> str:
    return "--tiebreaks" if tiebreaks is not None else f"{source} (records 202/212)"


def _aligned(headers: list[str], lines: list[list[str]]) -> list[str]:
    """Fixed-width columns: the third (the name) to the left, the others to the right."""
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(headers)]
    out = []
    for line in [headers, *lines]:
        cells = [
            text.ljust(width) if i == 2 else text.rjust(width)
            for i, (text, width) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def render_table(table: Standings) -> str:
    """The standings as a fixed-width text table, notes below."""
    headers = ["Rank", "No", "Name", "Pts", *table.tiebreaks]
    lines = []
    for row in table.rows:
        rank = "out" if row.excluded else ("—" if row.rank is None else str(row.rank))
        name = row.name + (" (withdrawn)" if row.withdrawn else "")
        lines.append([rank, str(row.start), name, show(row.points), *map(show, row.values)])
    out = _aligned(headers, lines)
    system = "round robin" if table.system.has_predetermined_pairings else "Swiss"
    out.append("")
    out.append(f"{system}; FIDE C.07 as in force from {_edition_date(table.edition)}")
    if table.provisional:
        out.append("provisional: games are still to be played; tie-breaks will change")
    for note in table.notes:
        out.append(f"note: {note}")
    for lot in table.lots:
        drawn = ", ".join(map(str, lot.order))
        out.append(f"lots (seed {lot.seed}) among {list(lot.players)}: {drawn}")
    return "\n".join(out)


def _codes(text: str) -> tuple[str, ...]:
    codes = tuple(code.strip() for code in text.split(",") if code.strip())
    if not codes:
        raise InputError(f"--tiebreaks {text!r}: give team tie-break codes", source="options")
    return codes


def _team(text: str | None, teams: int) -> int | None:
    """The team ``--explain`` names (one team number of the file's)."""
    if text is None:
        return None
    part = text.strip()
    if not (part.isascii() and part.isdigit() and len(part) <= 6):
        raise InputError(f"--explain {text!r}: give one team number", source="options")
    if not 1 <= int(part) <= teams:
        raise InputError(
            f"--explain {text!r}: there is no team {int(part)} (the file has 1…{teams})",
            source="options",
        )
    return int(part)


def team_table_json(table: TeamStandings, explain: int | None = None) -> dict[str, object]:
    """The team table as ``crosstable team standings --format json`` writes it (with the
    explanation of one team's tie-breaks when ``explain`` names it)."""
    body: dict[str, object] = {
        "primary": table.primary,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "team": r.team,
                "name": r.name,
                "place": r.place,
                "MP": points_json(r.mp),
                "GP": points_json(r.gp),
                **{
                    code: None if value is None else points_json(value)
                    for code, value in zip(table.tiebreaks, r.values, strict=True)
                },
            }
            for r in table.rows
        ],
    }
    if explain is not None:
        body["explain"] = [table.explain(explain, code).to_json() for code in table.tiebreaks]
    return body


def render_team_table(
    table: TeamStandings, kind: str, notes: Sequence[str] = (), explain: int | None = None
) -> str:
    """The team table as fixed-width text: place, number, team, match and game points,
    the team tie-breaks; the kind of tournament (``team Swiss``), the order and the
    reading's notes below."""
    headers = ["Place", "No", "Team", "MP", "GP", *table.tiebreaks]
    lines = [
        [str(r.place), str(r.team), r.name, show(r.mp), show(r.gp)]
        + ["" if v is None else show(v) for v in r.values]
        for r in table.rows
    ]
    out = _aligned(headers, lines)
    out.append("")
    first = "match points" if table.primary == "MP" else "game points"
    out.append(f"{kind}: {first} first, then {', '.join(table.tiebreaks)}")
    out.extend(f"note: {note}" for note in notes)
    if explain is not None:
        out.append("")
        out.append("\n\n".join(table.explain(explain, code).text() for code in table.tiebreaks))
    return "\n".join(out)


def _edition_date(edition: RulesEdition) -> str:
    return "1 Aug 2024" if edition is RulesEdition.C07_2024 else "1 Mar 2026"


def _explain(
    table: Standings, text: str | None, size: int
) -> tuple[str, dict[str, object] | list[dict[str, object]]] | None:
    if text is None:
        return None
    starts = start_numbers(text, size, "--explain")
    if len(starts) == 1:
        items = table.explain(starts[0])
        return "\n\n".join(e.text() for e in items), [e.to_json() for e in items]
    if len(starts) == 2:
        answer = table.why(starts[0], starts[1])
        return answer, {"players": starts, "why": answer}
    raise InputError("--explain: give one starting number, or two as A,B", source="options")


def start_numbers(text: str | None, size: int, option: str) -> list[int]:
    """The starting numbers ``text`` lists (``3`` or ``3,7``), each one of the ``size``
    players; ``option`` names the option in the error."""
    if text is None or not text.strip():
        return []
    out = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit() and len(part) <= 6):
            raise InputError(
                f"{option} {text!r}: {part!r} is not a starting number", source="options"
            )
        start = int(part)
        if not 1 <= start <= size:
            raise InputError(
                f"{option} {text!r}: there is no player {start} (the file has 1…{size})",
                source="options",
            )
        out.append(start)
    return out


T = TypeVar("T")


def _choice(value: str | None, choices: dict[str, T], option: str) -> T | None:
    if value is None:
        return None
    key = value.strip().lower()
    if key not in choices:
        raise InputError(f"{option} {value!r}: use {' or '.join(choices)}", source="options")
    return choices[key]
