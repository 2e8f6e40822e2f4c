"""`crosstable duration` — how long a round robin takes (R-RR-3, R-RR-16).

crosstable duration --players 8 --time-control "G/25 d5" --evening 180 --format json
"""

from __future__ import annotations

import json
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.cli import counted
from crosstable.core.duration import (
    CHANGEOVER_MINUTES,
    DEFAULT_EVENING_MINUTES,
    DurationEstimate,
    estimate_duration,
    format_hours,
)
from crosstable.core.scoring import format_points


class OutputFormat(StrEnum):
    JSON = "json"
    TABLE = "table"


def register(app: typer.Typer) -> None:
    """Add ``crosstable duration`` to ``app``."""
    app.command("duration")(duration)


def duration(
    players: Annotated[int, typer.Option("--players", "-n", help="Number of players (3 or more).")],
    time_control: Annotated[
        str,
        typer.Option(
            "--time-control",
            "-t",
            help='E.g. "25+5", "G/25 d5", "90+30", "40/90,30+30" or TRF-2026 "5400+30".',
        ),
    ],
    evening: Annotated[
        int, typer.Option("--evening", help="Length of a club evening in minutes.")
    ] = DEFAULT_EVENING_MINUTES,
    double: Annotated[
        bool, typer.Option("--double", help="Double round robin: rounds, games, total doubled.")
    ] = False,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
) -> None:
    """Rounds, games and hours of a round robin; club evenings needed.

    Minutes per player = base minutes + increment (or delay) seconds; worst-case
    game = twice that; a scheduled round = worst case + 15 minutes for the change-over.
    """
    estimate = estimate_duration(players, time_control, evening_minutes=evening, double=double)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(estimate.to_json(), indent=2))
        return
    Console().print(duration_table(estimate))


def _minutes(value: Fraction) -> str:
    return f"{format_points(value)} min"


def duration_table(e: DurationEstimate) -> Table:
    """The estimate as a Rich table for the terminal."""
    kind = "double round robin" if e.double else "round robin"
    table = Table(
        title=f"{e.players} players, {kind}, {e.time_control.notation()}", show_header=False
    )
    table.add_column("", style="bold")
    table.add_column("")
    table.add_row("Rounds", str(e.rounds))
    table.add_row("Games", str(e.games))
    table.add_row("Boards per round", str(e.boards))
    table.add_row("Double round robin", f"{e.double_rounds} rounds, {e.double_games} games")
    table.add_row(
        "Minutes per player",
        f"{_minutes(e.minutes_per_player)} (base {_minutes(e.time_control.base_minutes)} "
        f"+ {format_points(e.time_control.bonus_seconds)} s increment/delay as minutes)",
    )
    table.add_row("Worst-case game", _minutes(e.worst_case_game_minutes))
    table.add_row(
        "Scheduled round",
        f"{_minutes(e.round_minutes)} (worst case + {CHANGEOVER_MINUTES} min change-over)",
    )
    table.add_row("Total", f"{_minutes(e.total_minutes)} ≈ {format_hours(e.total_minutes)}")
    evening = f"{_minutes(e.evening_minutes)} evening: {counted(e.rounds_per_evening, 'round')}"
    if e.round_longer_than_evening:
        evening += " — a round is longer than the evening; one round per evening assumed"
    table.add_row("Rounds per evening", evening)
    table.add_row("Evenings", str(e.evenings))
    return table
