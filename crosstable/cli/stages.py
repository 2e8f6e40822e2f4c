"""Group stage + knockout from the terminal: ``crosstable knockout-stage``.

``crosstable knockout-stage --tournament ID`` (ID: any group of the event) creates
the knockout once every group is finished: the qualifiers (each group's top k by
its final standings and tie-breaks), cross-seeded (A1 v B2, B1 v A2 …), in ONE
knockout tournament whose starting numbers are the bracket's seeds. ``--show``
only shows the event; ``--link 3,4,5,6 --qualifiers 2`` makes round robins
created one by one the groups A, B, C, D of an event first.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from crosstable.cli import counted
from crosstable.cli.context import (
    DbOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    said,
)
from crosstable.core.errors import RuleError

if TYPE_CHECKING:
    from crosstable.service import StageView


def knockout_stage(
    show: Annotated[
        bool, typer.Option("--show", help="Only show the event: groups, qualifiers, knockout.")
    ] = False,
    lots_seed: Annotated[
        int | None,
        typer.Option(
            "--lots-seed",
            help="Break a tie at the cut (places k and k+1 of a group) by a drawing of "
            "lots with this seed (recorded).",
        ),
    ] = None,
    link: Annotated[
        str | None,
        typer.Option(
            "--link",
            metavar="ID,ID,…",
            help="Make these round robins the groups A, B, … of one event (then create the "
            "knockout when they are finished).",
        ),
    ] = None,
    qualifiers: Annotated[
        int, typer.Option("--qualifiers", help="--link: qualifiers per group.")
    ] = 1,
    name: Annotated[str, typer.Option("--name", help="--link: the event's name.")] = "",
    match_format: Annotated[
        str, typer.Option("--match-format", help="--link: the knockout's matches: 1, 2, 2-at-once.")
    ] = "1",
    tie_rule: Annotated[
        str,
        typer.Option("--tie-rule", help="--link: lower-rated, lots, playoff, armageddon…"),
    ] = "lower-rated",
    third_place: Annotated[
        bool, typer.Option("--third-place", help="--link: a match for third place.")
    ] = False,
    output: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Create the knockout stage of a group stage + knockout event from its finished
    groups (--tournament: any group), or show the event (--show)."""
    if output not in ("table", "json"):
        raise RuleError(f"--format {output!r}: use table or json")
    with open_service(db) as service:
        if link is not None:
            ids = _ids(link)
            view = service.link_group_stage(
                ids,
                qualifiers=qualifiers,
                name=name,
                match_format=match_format,
                tie_rule=tie_rule,
                third_place=third_place,
                actor=actor(),
            )
            _show(view, output)
            return
        tid = current_tournament(service, tournament)
        found = service.stage_of(tid)
        if found is None:
            raise RuleError(f"tournament {tid} is not part of a group stage")
        if show:
            _show(found, output)
            return
        change = service.create_knockout_stage(tid, actor=actor(), lots_seed=lots_seed)
        data = change.data
        if output == "json":
            answer = {
                "knockout": change.tournament_id,
                "seq": change.seq,
                "summary": change.summary,
            }
            answer |= {k: data[k] for k in ("event", "qualifiers", "lines", "lots_seed")}
            answer["round_1"] = _pairs(data["lines"])
            typer.echo(json.dumps(answer, ensure_ascii=False))
            return
        header(service, change.tournament_id)
        said(change.summary)
        console.print(_qualifiers_table(data["qualifiers"]))
        console.print(_bracket_table(data["qualifiers"], data["lines"]))
        console.print(
            f"next: check the players and settings, then `crosstable start --tournament "
            f"{change.tournament_id}`"
        )


def _ids(text: str) -> list[int]:
    ids = []
    for part in text.replace(" ", "").split(","):
        if not part.isdigit():
            raise RuleError(f"--link {text!r}: tournament ids separated by commas, e.g. 3,4,5,6")
        ids.append(int(part))
    return ids


def _pairs(lines: list[int | None]) -> list[list[int | None]]:
    return [[lines[k], lines[k + 1]] for k in range(0, len(lines), 2)]


def _qualifiers_table(found: list[dict[str, Any]]) -> Table:
    table = Table("seed", "player", "rating", "group", "place", title="qualifiers")
    for q in found:
        rating = "" if q["rating"] is None else str(q["rating"])
        table.add_row(str(q["start"]), q["name"], rating, q["group"], str(q["place"]))
    return table


def _bracket_table(found: list[dict[str, Any]], lines: list[int | None]) -> Table:
    """Round 1, top to bottom: each slot's two lines (a bye when one is empty)."""
    who = {q["start"]: f"{q['start']} {q['name']} ({q['group']}{q['place']})" for q in found}
    table = Table("slot", "top", "bottom", title="round 1 (cross-seeded)")
    for slot, (top, bottom) in enumerate(_pairs(lines), 1):
        table.add_row(
            str(slot),
            who.get(top or 0, "bye"),
            who.get(bottom or 0, "bye"),
        )
    return table


def _show(view: StageView, output: str) -> None:
    if output == "json":
        typer.echo(json.dumps(view.to_json(), ensure_ascii=False))
        return
    settings = view.settings
    console.print(
        f"[bold]{view.name}[/bold]: group stage of {view.expected} groups, "
        f"{counted(view.qualifiers, 'qualifier')} per group; "
        f"knockout: match {settings['match_format']}, "
        f"tie rule {settings['tie_rule']}, third place {settings['third_place']}"
    )
    table = Table("group", "tournament", "players", "status", title="groups")
    for group in view.groups:
        table.add_row(group.letter, f"#{group.id} {group.name}", str(group.players), group.status)
    console.print(table)
    if view.knockout is not None:
        ko = view.knockout
        console.print(f"knockout: #{ko.id} {ko.name} ({ko.status}, {ko.players} players)")
    if view.missing:
        console.print(f"missing: group {', '.join(view.missing)}")
    elif view.unfinished:
        names = ", ".join(g.letter for g in view.unfinished)
        console.print(f"not finished yet: group {names}")
    elif view.ready:
        console.print("every group is finished: `crosstable knockout-stage` creates the knockout")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("knockout-stage")(knockout_stage)
