"""Bughouse events from the terminal: ``crosstable bughouse …``.

``bughouse new`` creates a round robin (or, with ``--swiss``, a Swiss; with
``--knockout``, a knockout) of Bughouse pairs with its match rule (``sum`` or
``first``); the pairs and their two players are entered with ``team add`` and ``team
member``, started with ``crosstable start`` and their games' results entered with
``crosstable result``, as any team tournament's; ``bughouse pair`` pairs a Swiss's next
round or continues a knockout; ``bughouse first`` marks the game of a match that
finished first; ``bughouse matches``, ``bughouse standings`` and ``bughouse bracket``
read the rest.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from crosstable.cli.context import (
    CURRENT,
    DbOption,
    FormatOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    output_format,
    said,
)
from crosstable.core.errors import RuleError
from crosstable.core.scoring import format_points, points_json
from crosstable.core.teams import TeamScoring
from crosstable.service.teams.bughouse import KnockoutOptions

bughouse_app = typer.Typer(
    help=(
        "Bughouse: pairs on two boards; round robin, Swiss or knockout; the match rule; standings."
    ),
    no_args_is_help=True,
)


@bughouse_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    rule: Annotated[
        str,
        typer.Option("--rule", help="sum (both games' points) or first (the first game decides)."),
    ] = "sum",
    double: Annotated[bool, typer.Option("--double", help="A double round robin.")] = False,
    swiss: Annotated[
        bool, typer.Option("--swiss", help="A Swiss of pairs (Dutch rules), not a round robin.")
    ] = False,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="A Swiss's rounds (default: as a knockout's).")
    ] = None,
    knockout: Annotated[
        bool, typer.Option("--knockout", help="A knockout of pairs, seeded by their rating.")
    ] = False,
    match_format: Annotated[
        str | None,
        typer.Option("--match-format", help="A knockout's matches a tie: 1, 2, 2-at-once…"),
    ] = None,
    tie_rule: Annotated[
        str | None,
        typer.Option(
            "--tie-rule", help="A knockout's drawn tie: lower-rated, lots, playoff, rapid:2,…"
        ),
    ] = None,
    round_formats: Annotated[
        str | None,
        typer.Option("--round-formats", help="A knockout's rounds of their own: final:2,…"),
    ] = None,
    third_place: Annotated[
        bool, typer.Option("--third-place", help="A knockout's match for third place.")
    ] = False,
    scoring: Annotated[
        str, typer.Option("--scoring", help="Match points of a win, draw, loss.")
    ] = "2-1-0",
    primary: Annotated[
        str, typer.Option("--primary", help="MP (match points) or GP (game points) first.")
    ] = "MP",
    tiebreaks: Annotated[
        str, typer.Option("--tiebreaks", help="Tie-breaks in order (default GP,EDE,BH:MP).")
    ] = "",
    db: DbOption = None,
) -> None:
    """Create a round robin (a Swiss, a knockout) of Bughouse pairs; it becomes the current one."""
    if rounds is not None and not swiss:
        raise RuleError("--rounds is for a Swiss of pairs (--swiss)")
    if swiss and knockout:
        raise RuleError("--swiss and --knockout: choose one")
    given = [match_format, tie_rule, round_formats]
    if not knockout and (any(v is not None for v in given) or third_place):
        raise RuleError(
            "--match-format, --tie-rule, --round-formats and --third-place are for a "
            "knockout of pairs (--knockout)"
        )
    options = (
        KnockoutOptions(
            match_format or "1", tie_rule or "lower-rated", round_formats or "", third_place
        )
        if knockout
        else None
    )
    codes = tuple(c.strip() for c in tiebreaks.split(",") if c.strip())
    with open_service(db) as service:
        change = service.create_bughouse_tournament(
            name,
            rule,
            scoring=scoring,
            primary=primary,
            tiebreaks=codes,
            cycles=2 if double else 1,
            swiss=swiss,
            rounds=rounds,
            knockout=options,
            actor=actor(),
        )
        service.set_preference(CURRENT, str(change.tournament_id))
        said(change.summary)


@bughouse_app.command("pair")
def pair(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """Pair the next round of a Swiss of pairs, or continue a knockout of pairs."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        change = service.pair_bughouse_round(tid, actor=actor())
        if output == "json":
            typer.echo(json.dumps(change.data))
            return
        said(change.summary)
        table = Table("match", "White pair", "Black pair")
        for number, found in enumerate(change.data.get("matches") or (), 1):
            white, black = (found["white"], found["black"]) if isinstance(found, dict) else found
            table.add_row(str(number), str(white), str(black))
        console.print(table)


@bughouse_app.command("bracket")
def bracket(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """A knockout of pairs' bracket: every match, its games, the winner."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        view = service.bracket_view(tid)
        if output == "json":
            typer.echo(json.dumps(view, ensure_ascii=False))
            return
        header(service, tid)
        for rnd in view["rounds"]:
            console.print(f"{rnd['name']}:")
            for bye in rnd["byes"]:
                console.print(f"  {bye['start']} {bye['name']}: bye")
            for m in rnd["matches"]:
                names = [f"{p['start']} {p['name']}" if p else "?" for p in m["players"]]
                score = "–".join(str(x) for x in m["score"] or ())
                winner = f"  winner {m['winner']}" if m["winner"] is not None else ""
                console.print(f"  {names[0]} v {names[1]}  {score}{winner}")
        if view["champion"] is not None:
            console.print(f"winner: {view['champion']['start']} {view['champion']['name']}")


@bughouse_app.command("first")
def first(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round.")],
    board: Annotated[int, typer.Argument(help="The board whose game finished first.")],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Mark the game that finished first in its match (under the rule ``first`` it decides)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        said(service.mark_first_finished(tid, round_number, board, actor=actor()).summary)


@bughouse_app.command("matches")
def matches(
    round_number: Annotated[int | None, typer.Option("--round", help="Only this round.")] = None,
    output: FormatOption = "table",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The matches: both games, the game that finished first, the match points."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        found = [
            m
            for m in service.bughouse_matches(tid)
            if round_number is None or m.number == round_number
        ]
        scoring = TeamScoring()
        cards = []
        for m in found:
            card = m.match.card(m.number, scoring)
            card["first"] = m.first
            card["match_points"] = (
                None if m.match_points is None else [points_json(p) for p in m.match_points]
            )
            cards.append(card)
        if output == "json":
            typer.echo(json.dumps({"matches": cards}, ensure_ascii=False))
            return
        header(service, tid)
        for m, card in zip(found, cards, strict=True):
            decided = "–".join(format_points(p) for p in m.match_points or ())
            console.print(
                f"round {card['round']}: pair {card['white']} – pair {card['black']}"
                + (f"  match points {decided}" if decided else "")
            )
            for b in card["boards"]:
                mark = "  (finished first)" if b["board"] == card["first"] else ""
                console.print(
                    f"  board {b['board']}: {b['white']} – {b['black']} {b['result'] or ''}{mark}"
                )


@bughouse_app.command("standings")
def standings(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """The pairs' table: match points, game points, then the tie-breaks."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        table = service.bughouse_standings(tid)
        if output == "json":
            body = {
                "primary": table.primary,
                "tiebreaks": list(table.tiebreaks),
                "rows": [
                    {
                        "pair": r.team,
                        "name": r.name,
                        "place": r.place,
                        "MP": points_json(r.mp),
                        "GP": points_json(r.gp),
                        "tiebreaks": [None if v is None else points_json(v) for v in r.values],
                    }
                    for r in table.rows
                ],
            }
            typer.echo(json.dumps(body, ensure_ascii=False))
            return
        header(service, tid)
        shown = Table("place", "pair", "name", "MP", "GP", *table.tiebreaks)
        for r in table.rows:
            values = ["" if v is None else format_points(v) for v in r.values]
            shown.add_row(
                str(r.place), str(r.team), r.name, format_points(r.mp), format_points(r.gp), *values
            )
        console.print(shown)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.add_typer(bughouse_app, name="bughouse")
