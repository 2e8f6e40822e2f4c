"""`crosstable schedule groups` — rating groups of round robins of a chosen size.

    crosstable schedule groups --players 23 --size 6 --format json
    crosstable schedule groups --players-file club.csv --size 5 --format table

The field sorted by rating is cut into round robins of about ``--size`` players by
the rule of :mod:`crosstable.core.schedule.rating_groups` (docs/variants.md); quads
(``schedule quads``) are the groups of four. ``--players-file`` reads a CSV or TRF
file as ``schedule quads`` does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.cli.schedule_variants import OutputFormat, Row, group_rows, members_text
from crosstable.core.schedule.rating_groups import (
    groups_rounds,
    rating_groups,
    rating_groups_of,
    round_robin_rounds,
)


def register(schedule_app: typer.Typer) -> None:
    """Add ``schedule groups`` to the ``schedule`` command group."""
    schedule_app.command("groups")(groups_command)


def groups_command(
    size: Annotated[int, typer.Option("--size", "-k", help="Players in a group (3 to 16).")],
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
    """Cut the field by rating into round robins of a chosen size; never a group of one.

    Without a file the players are rating ranks 1…N; with one, groups list the
    players' starting numbers, strongest first.
    """
    rows = group_rows(
        players,
        players_file,
        lambda count: rating_groups(count, size),
        lambda field: rating_groups_of(field, size),
    )
    sizes = [len(group) for group in rows]
    if output is OutputFormat.JSON:
        data = {
            "size": size,
            "groups": [[start for start, _name, _rating in group] for group in rows],
            "sizes": sizes,
            "rounds": groups_rounds(sizes),
        }
        typer.echo(json.dumps(data, indent=2))
        return
    Console().print(groups_table(size, rows))


def groups_table(size: int, groups: list[list[Row]]) -> Table:
    table = Table(title=f"Rating groups of {size} (strongest group first)")
    table.add_column("Group", justify="right")
    table.add_column("Players", justify="right")
    table.add_column("Rounds", justify="right")
    table.add_column("Players (starting number, name, rating)")
    for number, group in enumerate(groups, start=1):
        rounds = str(round_robin_rounds(len(group)))
        table.add_row(str(number), str(len(group)), rounds, members_text(group))
    return table
