"""Players from the terminal: ``crosstable player add``, ``list``, ``edit``, ``rating`` (an
event longer than 30 days: a later rating from a round on) and ``remove``.

Players are named by their registration number (``player list`` shows it next to
the starting number), the number ``player remove`` and the JSON API use too: it
exists from registration on, while starting numbers come only with the draw.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

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
from crosstable.cli.fide import ConfirmOption, confirmed
from crosstable.core.errors import RuleError

player_app = typer.Typer(help="Register, list, edit and remove players.", no_args_is_help=True)


@player_app.command("add")
def player_add(
    name: Annotated[str, typer.Argument(help="The player's name (a guest needs nothing else).")],
    rating: Annotated[int | None, typer.Option(help="Rating.")] = None,
    title: Annotated[str, typer.Option(help="GM, IM, FM…")] = "",
    federation: Annotated[str, typer.Option(help="e.g. ARM.")] = "",
    fide_id: Annotated[str, typer.Option(help="FIDE id.")] = "",
    birth_date: Annotated[str, typer.Option(help="YYYY/MM/DD or the year.")] = "",
    sex: Annotated[str, typer.Option(help="m or w.")] = "",
    team: Annotated[str, typer.Option(help="Scheveningen: the player's team.")] = "",
    club: Annotated[str, typer.Option(help="The player's club (not written to TRF).")] = "",
    national_rating: Annotated[
        int | None, typer.Option(help="National rating (the rating method may rank by it).")
    ] = None,
    manual_rating: Annotated[
        int | None, typer.Option(help="A rating typed by hand (rating method HBFN).")
    ] = None,
    half_byes: Annotated[
        bool, typer.Option(help="Whether the player may take half-point byes.")
    ] = True,
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Register a player (before round 1; a Swiss's late entry after it: confirm the
    warning)."""
    from crosstable.service import PlayerInfo  # deferred: the service layer (start-up time)
    from crosstable.service.players import duplicate_names  # deferred: service layer

    info = PlayerInfo(
        name,
        rating,
        title,
        federation,
        fide_id,
        birth_date,
        sex,
        team,
        club,
        national_rating=national_rating,
        manual_rating=manual_rating,
        half_byes=half_byes,
    )
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        registered = [p.name for p in service.overview(tid).players]
        change = confirmed(lambda: service.add_player(tid, info, actor=actor(), confirm=confirm))
        said(change.summary)
        for warning in duplicate_names(registered, [info.name]):  # a warning, not a refusal
            typer.echo(f"warning: {warning}", err=True)


@player_app.command("list")
def player_list(tournament: TournamentOption = None, db: DbOption = None) -> None:
    """The players: registration number, starting number, rating, status."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        clubs = {n: info.club for n, info in service.player_details(tid).items()}
        shown = any(clubs.values())  # a club column only when someone has a club
        table = Table("no.", "start", "name", "rating", "title", "fed", "status")
        if shown:
            table.add_column("club")
        for p in service.overview(tid).players:
            status = "" if p.withdrawn_from is None else f"withdrew from round {p.withdrawn_from}"
            if p.place is not None:
                status = f"place {p.place}"
            table.add_row(
                str(p.number),
                "" if p.start is None else str(p.start),
                p.name,
                "" if p.rating is None else str(p.rating),
                p.title,
                p.federation,
                status,
                *([clubs.get(p.number, "")] if shown else []),
            )
        console.print(table)


@player_app.command("edit")
def player_edit(
    number: Annotated[int, typer.Argument(help="Registration number (see `player list`).")],
    name: Annotated[str | None, typer.Option(help="The new name.")] = None,
    rating: Annotated[
        str | None, typer.Option(help="The new rating, or 'unrated' to clear it.")
    ] = None,
    title: Annotated[str | None, typer.Option(help="GM, IM, FM… ('' clears it).")] = None,
    federation: Annotated[str | None, typer.Option(help="e.g. ARM.")] = None,
    fide_id: Annotated[str | None, typer.Option(help="FIDE id.")] = None,
    birth_date: Annotated[str | None, typer.Option(help="YYYY/MM/DD or the year.")] = None,
    sex: Annotated[str | None, typer.Option(help="m or w.")] = None,
    club: Annotated[str | None, typer.Option(help="The player's club ('' clears it).")] = None,
    national_rating: Annotated[
        str | None, typer.Option(help="The national rating, or 'unrated' to clear it.")
    ] = None,
    manual_rating: Annotated[
        str | None, typer.Option(help="The rating typed by hand, or 'unrated' to clear it.")
    ] = None,
    half_byes: Annotated[
        bool | None, typer.Option(help="Whether the player may take half-point byes.")
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Correct a player's details; after the start, only those no pairing depends on.

    The change is kept in the history, and `crosstable undo` takes it back.
    """
    values: dict[str, Any] = {
        key: value
        for key, value in (
            ("name", name),
            ("title", title),
            ("federation", federation),
            ("fide_id", fide_id),
            ("birth_date", birth_date),
            ("sex", sex),
            ("club", club),
        )
        if value is not None
    }
    for key, option, given in (
        ("rating", "--rating", rating),
        ("national_rating", "--national-rating", national_rating),
        ("manual_rating", "--manual-rating", manual_rating),
    ):
        if given is not None:
            values[key] = _rating(given, option)
    if half_byes is not None:
        values["half_byes"] = half_byes
    if not values:
        raise RuleError(
            "player edit: say what changes, e.g. --name, --rating, --title, --federation, "
            "--fide-id, --birth-date, --sex, --club, --national-rating, --manual-rating or "
            "--no-half-byes"
        )
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = service.edit_player(tid, number, actor=actor(), **values)
        said(change.summary, change.replayed)


def _rating(text: str, option: str = "--rating") -> int | None:
    cleaned = text.strip().lower()
    if cleaned in ("", "unrated", "none", "-"):
        return None
    try:
        return int(cleaned)
    except ValueError:
        raise RuleError(f"{option} {text!r}: a whole number, or 'unrated'") from None


@player_app.command("rating")
def player_rating(
    number: Annotated[int, typer.Argument(help="Registration number (see `player list`).")],
    rating: Annotated[
        str | None, typer.Argument(help="The rating from that round on ('none' removes it).")
    ] = None,
    from_round: Annotated[
        int | None, typer.Option("--from-round", help="The first round the rating covers.")
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """An event longer than 30 days: a player's later rating, from a round on.

    Without a rating, the player's ratings by round are listed.
    """
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if rating is None:
            player = next((p for p in service.overview(tid).players if p.number == number), None)
            if player is None:
                raise RuleError(f"there is no player {number}")
            later = service.round_ratings(tid).get(number, ())
            typer.echo(f"{number} {player.name}: {player.rating or 'unrated'} from round 1")
            for first, value in later:
                typer.echo(f"{number} {player.name}: {value} from round {first}")
            return
        if from_round is None:
            raise RuleError("player rating: give --from-round, the first round it covers")
        new = _rating(rating)
        change = service.set_round_rating(tid, number, from_round, new, actor=actor())
        said(change.summary, change.replayed)


@player_app.command("remove")
def player_remove(
    number: Annotated[int, typer.Argument(help="Registration number (see `player list`).")],
    tournament: TournamentOption = None,
    db: DbOption = None,
    confirm: ConfirmOption = None,
) -> None:
    """Remove a player before round 1 (after the start a player withdraws instead); a
    Swiss whose rounds the smaller field cannot all play asks a level-2 acknowledgement."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = confirmed(
            lambda: service.remove_player(tid, number, actor=actor(), confirm=confirm)
        )
        said(change.summary)


def register(app: typer.Typer) -> None:
    """Add ``crosstable player …`` to ``app``."""
    app.add_typer(player_app, name="player")
