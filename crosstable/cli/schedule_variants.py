"""`crosstable schedule scheveningen|quads` — the variant schedules.

    crosstable schedule scheveningen --team-size 6 [--double] --format json
    crosstable schedule quads --players 23 --format json
    crosstable schedule quads --players-file club.csv --format table

``--players-file`` takes a CSV file (``.csv``) or a TRF file (anything else).
The CSV has a header row naming its columns (any order, any case): ``name`` and
``rating`` are required, ``title`` is optional, other columns are ignored; an
empty rating is an unrated player. A player's starting number is its row (1 =
the first row under the header); in a TRF file it is the TRF starting rank.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Player
from crosstable.core.schedule.quads import group_rounds, quads, quads_of
from crosstable.core.schedule.scheveningen import scheveningen, team_of
from crosstable.core.schedule.types import Schedule


class OutputFormat(StrEnum):
    JSON = "json"
    TABLE = "table"


def register(schedule_app: typer.Typer) -> None:
    """Add the variant schedules (Scheveningen, quads) to the ``schedule`` command group."""
    schedule_app.command("scheveningen")(scheveningen_command)
    schedule_app.command("quads")(quads_command)


def scheveningen_command(
    team_size: Annotated[
        int, typer.Option("--team-size", "-n", help="Players in each team (team A = 1…n).")
    ],
    double: Annotated[
        bool, typer.Option("--double", help="Two cycles, the second with colours reversed.")
    ] = False,
    cycles: Annotated[
        int | None, typer.Option("--cycles", help="Number of cycles (overrides --double).")
    ] = None,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
) -> None:
    """Two teams; everyone meets every player of the other team: n rounds, n² games.

    Team A is starting numbers 1…n, team B is n+1…2n; board i is A i's game.
    """
    count = cycles if cycles is not None else (2 if double else 1)
    schedule = scheveningen(team_size, cycles=count)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(schedule.to_json(), indent=2))
        return
    Console().print(scheveningen_table(schedule, team_size))


def scheveningen_table(schedule: Schedule, team_size: int) -> Table:
    """Round by round, board by board, as ``A1–B1`` (White first) with starting numbers."""

    def name(start: int) -> str:
        team, number = team_of(team_size, start)
        return f"{team}{number}"

    table = Table(
        title=f"Scheveningen, two teams of {team_size}: A = 1…{team_size}, "
        f"B = {team_size + 1}…{2 * team_size} (White first)"
    )
    table.add_column("Round", justify="right")
    for board in range(1, team_size + 1):
        table.add_column(f"Board {board}")
    for rnd in schedule.rounds:
        table.add_row(str(rnd.number), *(f"{name(w)}–{name(b)}" for w, b in rnd.boards))
    return table


def quads_command(
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Number of players (3 or more).")
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option("--players-file", help="CSV (name,rating[,title]) or TRF file of players."),
    ] = None,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
) -> None:
    """Cut the field by rating into round robins of four; never a group of three.

    Without a file the players are rating ranks 1…N; with one, groups list the
    players' starting numbers, strongest first.
    """
    rows = group_rows(players, players_file, quads, quads_of)
    if output is OutputFormat.JSON:
        data = {"groups": [[start for start, _name, _rating in g] for g in rows]}
        typer.echo(json.dumps(data, indent=2))
        return
    Console().print(quads_table(rows))


#: a group as the tables print it: (starting number or rank, name, rating)
Row = tuple[int, str, int | None]


def group_rows(
    players: int | None,
    players_file: Path | None,
    by_count: Callable[[int], Sequence[Sequence[int]]],
    by_field: Callable[[tuple[Player, ...]], Sequence[Sequence[Player]]],
) -> list[list[Row]]:
    """The groups of ``players`` rating ranks (``by_count``) or of the players of
    ``players_file`` (``by_field``), a ``--players`` given beside the file checked."""
    if players_file is None:
        if players is None:
            raise RuleError("give --players N or --players-file FILE")
        return [[(rank, f"rank {rank}", None) for rank in g] for g in by_count(players)]
    field = read_players_file(players_file)
    if players is not None and players != len(field):
        raise RuleError(
            "--players {players}, but {file} lists {count} players",
            players=players,
            file=str(players_file),
            count=len(field),
        )
    return [[(p.start, p.name, p.rating) for p in g] for g in by_field(field)]


def members_text(group: Sequence[Row]) -> str:
    """``3 Anna (2105), 7 Boris (unrated)``; a rank alone when no file named them."""
    return ", ".join(
        f"{start}" if name == f"rank {start}" else f"{start} {name} ({rating or 'unrated'})"
        for start, name, rating in group
    )


def quads_table(groups: list[list[Row]]) -> Table:
    table = Table(title="Quads (strongest group first)")
    table.add_column("Group", justify="right")
    table.add_column("Rounds", justify="right")
    table.add_column("Players (starting number, name, rating)")
    for number, group in enumerate(groups, start=1):
        table.add_row(str(number), str(group_rounds(len(group))), members_text(group))
    return table


def read_players_file(path: Path) -> tuple[Player, ...]:
    """Players from a CSV or TRF file (see the module docstring for the CSV columns)."""
    if path.suffix.lower() == ".csv":
        # deferred: the service layer (start-up time); the pages' reading too
        from crosstable.service.text_encoding import decode_text

        return read_players_csv(
            decode_text(path.read_bytes(), source=str(path)).text, source=str(path)
        )

    from crosstable.formats.trf import read_trf  # deferred: start-up time

    return read_trf(path).tournament.players


def read_players_csv(text: str, *, source: str = "<csv>") -> tuple[Player, ...]:
    """``name,rating[,title]`` rows under a header; starting number = row number."""
    lines = text.splitlines()
    reader = csv.reader(io.StringIO(text))
    first = next(reader, None)
    if first is None or not any(cell.strip() for cell in first):
        raise InputError("empty file: expected a header row with name and rating", source=source)
    header = [cell.strip().casefold() for cell in first]
    for needed in ("name", "rating"):
        if needed not in header:
            raise InputError(
                f"the header has no {needed!r} column (found: {', '.join(first)})",
                source=source,
                line=1,
            )
    name_at, rating_at = header.index("name"), header.index("rating")
    title_at = header.index("title") if "title" in header else None
    players: list[Player] = []
    for row in reader:
        line_number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        raw = lines[line_number - 1] if line_number - 1 < len(lines) else ""
        if max(name_at, rating_at) >= len(row):
            raise InputError(
                f"the row has {len(row)} fields, the header {len(header)}",
                source=source,
                line=line_number,
            )
        name = row[name_at].strip()
        if not name:
            raise InputError(
                "the name is empty", source=source, line=line_number, column=_column(raw, name_at)
            )
        rating_text = row[rating_at].strip()
        if rating_text and not rating_text.isdigit():
            raise InputError(
                f"rating {rating_text!r} is not a whole number of 0 or more",
                source=source,
                line=line_number,
                column=_column(raw, rating_at),
            )
        rating = int(rating_text) if rating_text else None
        title = row[title_at].strip() if title_at is not None and title_at < len(row) else ""
        players.append(Player(len(players) + 1, name, rating, title))
    if not players:
        raise InputError("no players under the header", source=source, line=2)
    return tuple(players)


def _column(raw: str, index: int) -> int | None:
    """1-based character column of field ``index`` when the line has no quoting."""
    if '"' in raw:
        return None
    fields = raw.split(",")
    if index >= len(fields):
        return None
    padding = len(fields[index]) - len(fields[index].lstrip())
    return sum(len(f) + 1 for f in fields[:index]) + 1 + padding
