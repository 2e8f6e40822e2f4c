"""Team round robins and team Swiss from the terminal: ``crosstable team …``.

``team new`` creates the tournament (boards, match points, primary score, board
order rule, team tie-breaks); ``team add`` and ``team member`` enter the teams and
their players in board order; ``crosstable start`` draws the teams' lots and pairs
them on the Berger tables; ``team lineup`` sets a team's players for a round;
board results go in with ``crosstable result ROUND BOARD RESULT``; ``team standings``,
``team matches``, ``team check``, ``team players`` and ``team prizes`` read the rest.
``team swiss`` creates a team Swiss instead, and ``team pair`` pairs its next round.
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
from crosstable.cli.standings import team_table_json
from crosstable.core.errors import RuleError
from crosstable.core.scoring import format_points, points, points_json
from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo

team_app = typer.Typer(
    help="Team round robins and Swiss: teams, players in board order, line-ups, team standings.",
    no_args_is_help=True,
)


@team_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    boards: Annotated[int, typer.Option("--boards", help="Boards of every match.")] = 4,
    double: Annotated[bool, typer.Option("--double", help="A double round robin.")] = False,
    scoring: Annotated[
        str, typer.Option("--scoring", help="Match points of a win, draw, loss.")
    ] = "2-1-0",
    primary: Annotated[
        str, typer.Option("--primary", help="MP (match points) or GP (game points) first.")
    ] = "MP",
    free_order: Annotated[
        bool, typer.Option("--free-order", help="Any board order in a line-up.")
    ] = False,
    tiebreaks: Annotated[
        str, typer.Option("--tiebreaks", help="Team tie-breaks in order, e.g. GP,EDE,EMGSB,BC.")
    ] = "",
    db: DbOption = None,
) -> None:
    """Create a team round robin; it becomes the current tournament."""
    details = {
        "team_boards": str(boards),
        "team_scoring": scoring,
        "team_primary": primary,
        "team_order": "free" if free_order else "fixed",
        "team_tiebreaks": tiebreaks,
    }
    settings = TeamSettings.from_details(details)
    with open_service(db) as service:
        change = service.create_team_tournament(
            name, settings, cycles=2 if double else 1, actor=actor()
        )
        service.set_preference(CURRENT, str(change.tournament_id))
        said(change.summary)


@team_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The team's name.")],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Add a team (before the start)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        said(service.add_team(tid, name, actor=actor()).summary)


@team_app.command("member")
def member(
    team: Annotated[int, typer.Argument(help="The team's number (in the order added).")],
    name: Annotated[str, typer.Argument(help="The player's name.")],
    rating: Annotated[int | None, typer.Option("--rating", help="The player's rating.")] = None,
    captain: Annotated[bool, typer.Option("--captain", help="The team's captain.")] = False,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Add a player to a team, at the end of its board order (before the start)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        change = service.add_team_member(
            tid, team, PlayerInfo(name, rating), captain=captain, actor=actor()
        )
        said(change.summary)


@team_app.command("list")
def list_teams(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """The teams and their players in board order."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        teams = service.team_list(tid)
        if output == "json":
            typer.echo(
                json.dumps(
                    {
                        "teams": [
                            {
                                "number": t.number,
                                "start": t.start,
                                "name": t.name,
                                "captain": t.captain,
                                "members": [
                                    {"start": m.start, "name": m.name, "rating": m.rating}
                                    for m in t.members
                                ],
                            }
                            for t in teams
                        ]
                    },
                    ensure_ascii=False,
                )
            )
            return
        header(service, tid)
        table = Table("team", "name", "players in board order")
        for t in teams:
            players = ", ".join(
                f"{m.start} {m.name}{' (C)' if m.entry == t.captain else ''}" for m in t.members
            )
            table.add_row(str(t.start or t.number), t.name, players)
        console.print(table)


@team_app.command("lineup")
def lineup(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round.")],
    team: Annotated[int, typer.Argument(help="The team's drawn number.")],
    players: Annotated[
        list[int], typer.Argument(help="Starting numbers of the players, board 1 first.")
    ],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Set a team's line-up for a round (within the board order; before any result)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        said(service.set_lineup(tid, round_number, team, players, actor=actor()).summary)


@team_app.command("standings")
def standings(
    explain: Annotated[
        int | None, typer.Option("--explain", help="Explain this team's tie-breaks.")
    ] = None,
    output: FormatOption = "table",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The team table: match and game points, then the team tie-breaks."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        table = service.team_standings(tid)
        if output == "json":
            body = team_table_json(table, explain)
            typer.echo(json.dumps(body, ensure_ascii=False))
            return
        header(service, tid)
        shown = Table("place", "team", "name", "MP", "GP", *table.tiebreaks)
        for r in table.rows:
            values = ["" if v is None else format_points(v) for v in r.values]
            shown.add_row(
                str(r.place), str(r.team), r.name, format_points(r.mp), format_points(r.gp), *values
            )
        console.print(shown)
        if explain is not None:
            for code in table.tiebreaks:
                console.print(str(table.explain(explain, code).text()))


@team_app.command("matches")
def matches(
    round_number: Annotated[int | None, typer.Option("--round", help="Only this round.")] = None,
    output: FormatOption = "table",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The match cards: each match's boards and results."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        rounds = service.team_matches(tid)
        teams = {t.start: t.name for t in service.team_list(tid)}
        scoring = TeamSettings().scoring
        cards = [
            (number, m, m.game_points(scoring))
            for number, round_matches in enumerate(rounds, 1)
            if round_number is None or number == round_number
            for m in round_matches
        ]
        if output == "json":
            found = [m.card(number, scoring) for number, m, _score in cards]
            typer.echo(json.dumps({"matches": found}, ensure_ascii=False))
            return
        header(service, tid)
        for number, m, (white, black) in cards:
            console.print(
                f"round {number}: {teams.get(m.white)} – {teams.get(m.black)} "
                f"{format_points(white)}–{format_points(black)}"
            )
            for g in m.games:
                result = g.result.label() if g.result else ""
                console.print(f"  board {g.board}: {g.white} – {g.black} {result}")


@team_app.command("check")
def check(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round.")],
    team: Annotated[int, typer.Argument(help="A team of the match (its drawn number).")],
    score: Annotated[str, typer.Argument(help="The match card's score, e.g. 2.5-1.5.")],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Check a match card's score against the match's board results."""
    parts = score.replace("–", "-").split("-")
    if len(parts) != 2:
        raise RuleError("score {given}: write it as WHITE-BLACK, e.g. 2.5-1.5", given=repr(score))
    try:
        claimed = (points(parts[0]), points(parts[1]))
    except (ValueError, ZeroDivisionError):
        raise RuleError(
            "score {given}: write it as WHITE-BLACK, e.g. 2.5-1.5", given=repr(score)
        ) from None
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        match = service.check_match(tid, round_number, team, claimed)
        console.print(
            f"round {round_number}: {match.white} – {match.black} {score}: the boards agree"
        )


@team_app.command("players")
def players(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """Each player's own score from their boards."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        rows = service.player_scores(tid)
        if output == "json":
            typer.echo(
                json.dumps(
                    {
                        "players": [
                            {
                                "start": r.player,
                                "team": r.team,
                                "points": points_json(r.points),
                                "games": r.games,
                            }
                            for r in rows
                        ]
                    }
                )
            )
            return
        header(service, tid)
        table = Table("player", "team", "points", "games")
        for r in rows:
            table.add_row(str(r.player), str(r.team), format_points(r.points), str(r.games))
        console.print(table)


@team_app.command("prizes")
def prizes(
    min_games: Annotated[
        int | None,
        typer.Option("--min-games", help="Games needed on a board (default: ⅔ of the rounds)."),
    ] = None,
    output: FormatOption = "table",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The board prizes: the best on each board by points, then percentage."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        found = service.board_prizes(tid, min_games=min_games)
        rows = [
            {
                "board": p.board,
                "place": p.place,
                "start": p.record.player,
                "team": p.record.team,
                "points": points_json(p.record.points),
                "games": p.record.games,
            }
            for p in found
        ]
        if output == "json":
            typer.echo(json.dumps({"prizes": rows}))
            return
        header(service, tid)
        table = Table("board", "place", "player", "team", "points", "games")
        for r in rows:
            table.add_row(
                *(str(r[k]) for k in ("board", "place", "start", "team", "points", "games"))
            )
        console.print(table)


@team_app.command("swiss")
def swiss(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    boards: Annotated[int, typer.Option("--boards", help="Boards of every match.")] = 4,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Rounds (default: as a knockout's).")
    ] = None,
    pairing: Annotated[
        str, typer.Option("--pairing", help="olympiad (FIDE Olympiad rules) or dutch.")
    ] = "olympiad",
    scoring: Annotated[
        str, typer.Option("--scoring", help="Match points of a win, draw, loss.")
    ] = "2-1-0",
    primary: Annotated[
        str, typer.Option("--primary", help="MP (match points) or GP (game points) first.")
    ] = "MP",
    bye: Annotated[
        str, typer.Option("--bye", help="Match and game points of the bye, as MP/GP.")
    ] = "",
    free_order: Annotated[
        bool, typer.Option("--free-order", help="Any board order in a line-up.")
    ] = False,
    tiebreaks: Annotated[
        str, typer.Option("--tiebreaks", help="Team tie-breaks in order (default for a Swiss).")
    ] = "",
    db: DbOption = None,
) -> None:
    """Create a team Swiss; it becomes the current tournament."""
    details = {
        "team_boards": str(boards),
        "team_scoring": scoring,
        "team_primary": primary,
        "team_order": "free" if free_order else "fixed",
        "team_tiebreaks": tiebreaks,
        "team_system": "swiss",
        "team_pairing": pairing,
        "team_bye": bye,
    }
    settings = TeamSettings.from_details(details)
    with open_service(db) as service:
        change = service.create_team_swiss(name, settings, rounds=rounds, actor=actor())
        service.set_preference(CURRENT, str(change.tournament_id))
        said(change.summary)


@team_app.command("pair")
def pair(
    output: FormatOption = "table", tournament: TournamentOption = None, db: DbOption = None
) -> None:
    """Pair the next round of a team Swiss from the results entered."""
    output_format(output)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        change = service.pair_team_round(tid, actor=actor())
        data = change.data
        if output == "json":
            typer.echo(json.dumps(data))
            return
        said(change.summary)
        names = {t.start: t.name for t in service.team_list(tid)}
        table = Table("match", "White on board 1", "Black on board 1")
        for number, (white, black) in enumerate(data["matches"], 1):
            table.add_row(str(number), f"{white} {names[white]}", f"{black} {names[black]}")
        if data["bye"] is not None:
            table.add_row("bye", f"{data['bye']} {names[data['bye']]}", "")
        console.print(table)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.add_typer(team_app, name="team")
