"""`crosstable ratinglist import FILE [--custom NAME]`, `ratinglist find TEXT`,
`ratinglist update`, `ratinglist add FIDE_ID|LIST:ID`, `ratinglist check`, `ratinglist
lists`, `ratinglist delete NAME` (docs/rating-lists.md).

The list is a file the user downloaded from FIDE (``players_list.zip``,
``players_list_xml.zip``, ``standard_rating_list.zip``, ``rapid_…``, ``blitz_…``), a
national list as CSV keyed by FIDE id, or a custom list (``--custom NAME``: a national
or club list as CSV with its own ids); nothing is fetched from the network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

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
from crosstable.core.errors import InputError

rating_list_app = typer.Typer(
    help="Rating lists: import FIDE's TXT/XML list or a national CSV, look players up, "
    "fill and update a tournament's players.",
    no_args_is_help=True,
)
_KINDS = ("standard", "rapid", "blitz")


def register(app: typer.Typer) -> None:
    app.add_typer(rating_list_app, name="ratinglist")


@rating_list_app.command("import")
def import_list(
    file: Annotated[Path, typer.Argument(help="The list: .zip, .txt, .xml or .csv.")],
    kind: Annotated[
        str | None,
        typer.Option(
            "--type",
            help="A single-type list's ratings: standard, rapid or blitz "
            "(default: from the file name, else standard).",
        ),
    ] = None,
    month: Annotated[
        str | None,
        typer.Option(
            "--month",
            help="The month the list is valid for, YYYY-MM (default: from the file name, "
            "as FIDE's monthly archives carry it, else the month of the import).",
        ),
    ] = None,
    custom: Annotated[
        str | None,
        typer.Option(
            "--custom",
            help="Import a CSV as the custom list NAME (a national or club list with its own "
            "ids), replacing the list of that name.",
        ),
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option(
            "--columns",
            help="A custom list's columns by header: field=Header,… (fields: id, name, "
            "fide_id, federation, sex, title, birth_year, standard, rapid, blitz).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Import (upsert) every player of a rating list; bad lines are skipped and listed."""
    from crosstable.formats.custom_list import parse_columns  # deferred: formats
    from crosstable.service.custom_lists import CustomLists  # deferred: service layer
    from crosstable.service.rating_list_order import check_list_name  # deferred: service
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    if kind is not None and kind.strip().lower() not in _KINDS:
        raise InputError(
            "--type {value}: use standard, rapid or blitz", value=repr(kind), source="options"
        )
    if columns is not None and custom is None:
        raise InputError("--columns is for a custom list: add --custom NAME", source="options")
    mapping = parse_columns(columns or "")
    if custom is not None:
        check_list_name(custom)
    with open_service(db) as service:
        if custom is not None:
            report = CustomLists(service).import_file(file, custom, columns=mapping, month=month)
        else:
            report = RatingLists(service).import_file(
                file, kind=None if kind is None else kind.strip().lower(), month=month
            )
    for problem in report.problems:
        typer.echo(f"skipped: {problem}", err=True)
    if report.skipped > len(report.problems):
        typer.echo(f"skipped: … {report.skipped - len(report.problems)} more", err=True)

    said(
        f"{counted(report.players, 'player')} imported from {report.source} ({report.format}, "
        f"the list of {report.month}); "
        f"{counted(report.skipped, 'line')} skipped; "
        + (
            f"{counted(report.total, 'player')} in the stored lists"
            if custom is None
            else f"{counted(report.total, 'player')} in the custom list {custom}"
        )
    )


@rating_list_app.command("lists")
def lists_command(
    output: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    db: DbOption = None,
) -> None:
    """The imported lists: FIDE's files and the custom lists (name, month, import date,
    players)."""
    from crosstable.service.custom_lists import CustomLists  # deferred: service layer
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    if output not in ("table", "json"):
        raise InputError(
            "--format {value}: use table or json", value=repr(output), source="options"
        )
    with open_service(db) as service:
        fide = RatingLists(service).imported()
        custom = CustomLists(service).lists()
    if output == "json":
        answer = {
            "fide": [
                {"file": f.name, "imported": f.date, "month": f.month, "players": f.players}
                for f in fide
            ],
            "custom": [c.as_json() for c in custom],
        }
        typer.echo(json.dumps(answer, ensure_ascii=False, indent=2))
        return
    table = Table("list", "file", "month", "imported", "players")
    for f in fide:
        table.add_row("FIDE", f.name, f.month, f.date, str(f.players))
    for c in custom:
        table.add_row(f"custom:{c.name}", c.file, c.month, c.imported, str(c.players))
    console.print(table)


@rating_list_app.command("delete")
def delete_command(
    name: Annotated[str, typer.Argument(help="The custom list's name.")],
    db: DbOption = None,
) -> None:
    """Delete a custom list (the tournaments' players keep what they were given)."""
    from crosstable.service.custom_lists import CustomLists  # deferred: service layer

    with open_service(db) as service:
        gone = CustomLists(service).delete(name)
    said(f"custom list {gone.name} deleted ({counted(gone.players, 'player')})")


@rating_list_app.command("find")
def find(
    text: Annotated[str, typer.Argument(help="A FIDE id or the start of a name (Carlsen, M).")],
    limit: Annotated[int, typer.Option(help="At most this many players (1…50).")] = 10,
    output: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    in_list: Annotated[
        str | None,
        typer.Option(
            "--list", help="Only this custom list (its id, a FIDE id or the start of a name)."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Look a player up in the imported lists by FIDE id or by name; the custom lists by
    their own id too."""
    from crosstable.service.custom_lists import CustomLists  # deferred: service layer
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    if output not in ("table", "json"):
        raise InputError(
            "--format {value}: use table or json", value=repr(output), source="options"
        )
    with open_service(db) as service:
        custom_lists = CustomLists(service)
        if in_list is not None:
            custom_lists.info(in_list)  # an unknown list is named
        found = [] if in_list is not None else RatingLists(service).find(text, limit=limit)
        custom = custom_lists.find(
            text, lists=None if in_list is None else [in_list.strip()], limit=limit
        )
    if output == "json":
        answer = [p.as_json() for p in found] + [p.as_json() for p in custom]
        typer.echo(json.dumps(answer, ensure_ascii=False, indent=2))
        return
    if not found and not custom:
        typer.echo(f"no player in the imported lists matches {text!r}")
        return
    if custom:
        listed = Table(
            "list:id", "name", "fed", "title", "born", "std", "rapid", "blitz", "FIDE id"
        )
        for c in custom:
            listed.add_row(
                c.source,
                c.name,
                c.federation,
                c.title,
                *(
                    "" if v is None else str(v)
                    for v in (c.birth_year, c.standard, c.rapid, c.blitz, c.fide_id)
                ),
            )
        console.print(listed)
    if not found:
        return
    table = Table("FIDE id", "name", "fed", "title", "sex", "born", "std", "rapid", "blitz")
    for p in found:
        table.add_row(
            str(p.fide_id),
            p.name,
            p.federation,
            p.title,
            p.sex,
            *("" if v is None else str(v) for v in (p.birth_year, p.standard, p.rapid, p.blitz)),
        )
    console.print(table)


@rating_list_app.command("add")
def add(
    player: Annotated[
        str, typer.Argument(help="The player's FIDE id, or LIST:ID for a custom list's player.")
    ],
    club: Annotated[str, typer.Option(help="The player's club.")] = "",
    rating_list: Annotated[
        str | None,
        typer.Option(
            "--list",
            help="Take the rating from this list: standard, rapid or blitz (default: the "
            "first list of the tournament's order that rates the player).",
        ),
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Register the list's player: name, title, federation, birth year, sex and the
    rating from the tournament's order of lists (`ratinglist order`) come from the list;
    a custom list's player (LIST:ID) gets its rating as the national rating."""
    from crosstable.core.ratings import RatingType  # deferred: core
    from crosstable.service.custom_lists import CustomLists, parse_source  # deferred: service
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    if not (player.strip().isascii() and player.strip().isdigit()):
        name, player_id = parse_source(player)
        if rating_list is not None:
            raise InputError(
                "--list is for a player from FIDE's lists, not {player}",
                player=player[:60],
                source="options",
            )
        with open_service(db) as service:
            tid = current_tournament(service, tournament)
            header(service, tid)
            change = CustomLists(service).add_player(tid, name, player_id, actor=actor(), club=club)
            said(change.summary)
        return
    fide_id = int(player.strip()[:13])

    chosen = None
    if rating_list is not None:
        if rating_list.strip().lower() not in _KINDS:
            raise InputError(
                "--list {value}: use standard, rapid or blitz",
                value=repr(rating_list),
                source="options",
            )
        chosen = RatingType(rating_list.strip().lower())
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        lists = RatingLists(service)
        said(lists.add_player(tid, fide_id, actor=actor(), club=club, rating_list=chosen).summary)


@rating_list_app.command("order")
def order(
    lists: Annotated[
        str | None,
        typer.Argument(
            help="The lists to take ratings from, in order: e.g. rapid,standard or "
            "custom:RUS,standard ('default' for the time control's order). Without it: "
            "the order is shown."
        ),
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The order of rating lists a tournament's players are rated from; by default the
    time control's (standard: standard, rapid, blitz; rapid: rapid, standard, blitz;
    blitz: blitz, standard, rapid)."""
    from crosstable.service.rating_list_order import order_text  # deferred: service layer
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        ratings = RatingLists(service)
        if lists is not None:
            wanted = "" if lists.strip().lower() == "default" else lists
            said(ratings.set_list_order(tid, wanted, actor=actor()).summary)
        typer.echo(f"rating lists, in order: {order_text(ratings.list_order(tid))}")


@rating_list_app.command("update")
def update(
    tournament: Annotated[
        int | None, typer.Argument(help="Tournament id (default: the current one).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Set every player's rating to the imported list's (before round 1; recorded, undoable);
    players whose list is of another month than the tournament's are named on stderr."""
    from crosstable.service.rating_list_month import RatingListMonths  # deferred: service
    from crosstable.service.rating_lists import RatingLists  # deferred: service layer

    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = RatingLists(service).update_ratings(tid, actor=actor())
        said(change.summary, change.replayed)
        checked = RatingListMonths(service).check(tid)
    for warning in checked.month_warnings():
        typer.echo(f"warning: {warning}", err=True)


@rating_list_app.command("check")
def check(
    tournament: Annotated[
        int | None, typer.Argument(help="Tournament id (default: the current one).")
    ] = None,
    output: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    db: DbOption = None,
) -> None:
    """Compare the players' ratings with the imported lists: the list's rating of the
    event's type and the list's month against the tournament's (its start, or the current
    month for an event of more than 30 days). Exit status 1 when something differs."""
    from crosstable.service.rating_list_month import RatingListMonths  # deferred: service

    if output not in ("table", "json"):
        raise InputError(
            "--format {value}: use table or json", value=repr(output), source="options"
        )
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        checked = RatingListMonths(service).check(tid)
    if output == "json":
        typer.echo(json.dumps(checked.as_json(), ensure_ascii=False, indent=2))
    else:
        table = Table("no", "name", "FIDE id", "rating", "list", "list's month")
        for p in checked.players:
            table.add_row(
                str(p.number),
                p.name,
                str(p.fide_id),
                "" if p.rating is None else str(p.rating),
                "" if p.listed is None else str(p.listed),
                p.month or "not in the lists",
            )
        console.print(table)
        typer.echo(f"{checked.rating_type.value} ratings; the tournament's month: {checked.month}")
        for warning in checked.warnings():
            typer.echo(f"warning: {warning}")
    if checked.differing or checked.other_month:
        raise typer.Exit(1)
