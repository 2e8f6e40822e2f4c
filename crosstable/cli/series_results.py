"""``crosstable series news|awards|standings`` — what a series' finished stages published
and the season's standings over its editions.

* ``series news SERIES [--format json]`` — the news items, newest first: each stage's
  group winners and places 1–3, who went on;
* ``series awards SERIES [--player NAME] [--format json]`` — places 1–3 of every group,
  final and super-final (one player's with ``--player``);
* ``series standings SERIES [--season 2026|all] [--format json]`` — total points over
  the season, in the order stated (points, best finish, wins, fewer games);
* ``series petition SERIES LEVEL NAME…`` (at least 11 players of one class or
  level ask for their own tournament), ``series petitions SERIES [--state …]``,
  ``series accept-petition ID`` (the round robin is made and started) and
  ``series refuse-petition ID --reason TEXT`` — the command line is the
  administrator's (it has the database).

Every mistake (an unknown series, a bad season) is one line on stderr, exit status 2.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.cli.series import DbOption, NowOption, OutputFormat, series_service

Format = Annotated[OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")]


def register(series_app: typer.Typer) -> None:
    """Add the three commands to ``crosstable series``."""
    series_app.command("news")(news_command)
    series_app.command("awards")(awards_command)
    series_app.command("standings")(standings_command)
    series_app.command("petition")(petition_command)
    series_app.command("petitions")(petitions_command)
    series_app.command("accept-petition")(accept_command)
    series_app.command("refuse-petition")(refuse_command)


def _stage(kind: str, number: int) -> str:
    return {"final": "final", "super-final": "super-final"}.get(kind, f"stage {number}")


def news_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    output: Format = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """The series' news: one item per finished stage, newest first."""
    with series_service(db, None) as service:
        items = service.series_news(series)
    if output is OutputFormat.JSON:
        shown = [item.as_json() for item in items]
        typer.echo(json.dumps({"news": shown}, indent=2, ensure_ascii=False))
        return
    if not items:
        typer.echo("no news yet: a news item is published when a stage is over")
    for item in items:
        typer.echo(f"{item.published_at[:16]}  {item.title}")
        for group in item.groups:
            podium = ", ".join(
                f"{p['place']}. {p['name']} ({p['points']})" for p in group["podium"]
            )
            label = f"group {group['letter']}" if item.kind == "groups" else "standings"
            typer.echo(f"    {label}: {podium}")


def awards_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    player: Annotated[
        str | None, typer.Option("--player", help="Only this player's (letter case aside).")
    ] = None,
    output: Format = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """Places 1–3 of every group, final and super-final (a player's badges)."""
    with series_service(db, None) as service:
        awards = service.series_awards(series, player=player)
    if output is OutputFormat.JSON:
        shown = [award.as_json() for award in awards]
        typer.echo(json.dumps({"awards": shown}, indent=2, ensure_ascii=False))
        return
    table = Table(title=f"awards of series {series}")
    for column in ("Edition", "Stage", "Group", "Place", "Player", "Points"):
        table.add_column(column)
    for a in awards:
        table.add_row(
            str(a.edition),
            _stage(a.kind, a.stage),
            a.group if a.kind == "groups" else "",
            str(a.place),
            a.name,
            a.points_text,
        )
    Console().print(table)


def standings_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    season: Annotated[
        str | None,
        typer.Option("--season", help="A year such as 2026, or all (default: this year)."),
    ] = None,
    output: Format = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """The season's standings: total points over the season's editions."""
    with series_service(db, None) as service:
        standings = service.season_standings(series, season)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(standings.as_json(), indent=2, ensure_ascii=False))
        return
    title = "every edition" if standings.season == "all" else f"season {standings.season}"
    table = Table(title=f"series {series}, {title}", caption="order: " + "; ".join(standings.order))
    for column in ("Place", "Player", "Points", "Best finish", "Wins", "Games", "Editions"):
        table.add_column(column)
    for r in standings.rows:
        best = _stage(r.best_kind, r.best_stage) if r.best_kind else ""
        if best and r.best_place:
            best += f", {r.best_place}"
        table.add_row(
            r.place,
            r.name,
            r.points_text,
            best,
            str(r.wins),
            str(r.played),
            str(r.editions),
        )
    Console().print(table)


def petition_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    level: Annotated[str, typer.Argument(help="The class or level, e.g. 'class 3'.")],
    players: Annotated[list[str], typer.Argument(help="The players' names (at least 11).")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Players of one class or level ask for their own tournament."""
    # at least 11 players of one level may petition for their own tournament
    with series_service(db, now) as service:
        pid = service.petition(series, level, [(name, None) for name in players])
    typer.echo(f"petition {pid}: {len(players)} players of {' '.join(level.split())} wait")


def petitions_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    state: Annotated[
        str | None, typer.Option("--state", help="pending, accepted or refused.")
    ] = None,
    output: Format = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """The series' petitions, oldest first."""
    with series_service(db, None) as service:
        found = service.petitions(series, state=state)
    if output is OutputFormat.JSON:
        shown = [petition.as_json() for petition in found]
        typer.echo(json.dumps({"petitions": shown}, indent=2, ensure_ascii=False))
        return
    if not found:
        typer.echo("no petitions")
    for p in found:
        outcome = {
            "accepted": f" — tournament {p.tournament}",
            "refused": f" — {p.reason}",
        }.get(p.state, "")
        typer.echo(f"{p.id:>4}  {p.state:<9} {p.level}: {len(p.players)} players{outcome}")


def accept_command(
    petition: Annotated[int, typer.Argument(help="The petition's id.")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Accept a petition: its players' round robin is made, lots drawn, started."""
    with series_service(db, now) as service:
        tid = service.accept_petition(petition, actor="cli")
    typer.echo(f"petition {petition} accepted: tournament {tid} started")


def refuse_command(
    petition: Annotated[int, typer.Argument(help="The petition's id.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (the petitioners see it).")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Refuse a petition, saying why."""
    with series_service(db, now) as service:
        service.refuse_petition(petition, reason, actor="cli")
    typer.echo(f"petition {petition} refused")
