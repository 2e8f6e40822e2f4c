"""`crosstable duration` — how long a round robin takes.

crosstable duration --players 8 --time-control "G/25 d5" --evening 180 --format json
crosstable duration -n 16 -t "G/25 d5" --groups 4 --qualifiers 1 --cycles 2

The JSON keeps DESIGN.md's keys as they are and adds ``advice`` (the format advice
by field size) and, with ``--groups``, ``group_stage`` (the plan and its
evenings).
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
from crosstable.core.advice import Advice, format_advice
from crosstable.core.duration import (
    CHANGEOVER_MINUTES,
    DEFAULT_EVENING_MINUTES,
    DurationEstimate,
    estimate_duration,
    format_hours,
)
from crosstable.core.schedule.groups import (
    GroupStagePlan,
    StageEvenings,
    plan_group_stage,
    stage_evenings,
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
    groups: Annotated[
        int | None,
        typer.Option("--groups", help="Group stage + knockout: the number of groups."),
    ] = None,
    qualifiers: Annotated[
        int, typer.Option("--qualifiers", help="Group stage: qualifiers per group.")
    ] = 1,
    cycles: Annotated[
        int, typer.Option("--cycles", help="Group stage: cycles of each group (2: double).")
    ] = 1,
    reserve: Annotated[
        int, typer.Option("--reserve", help="Group stage: reserve evenings for play-offs.")
    ] = 1,
) -> None:
    """Rounds, games and hours of a round robin; club evenings needed.

    Minutes per player = base minutes + increment (or delay) seconds; worst-case
    game = twice that; a scheduled round = worst case + 15 minutes for the change-over.
    """
    estimate = estimate_duration(players, time_control, evening_minutes=evening, double=double)
    advice = format_advice(players, rounds_per_evening=estimate.rounds_per_evening)
    stage: tuple[GroupStagePlan, StageEvenings] | None = None
    if groups is not None:
        plan = plan_group_stage(
            players, groups=groups, cycles=cycles, qualifiers_per_group=qualifiers
        )
        stage = plan, stage_evenings(plan, estimate.rounds_per_evening, reserve=reserve)
    if output is OutputFormat.JSON:
        data: dict[str, object] = dict(estimate.to_json())
        data["advice"] = advice.to_json()  # added keys only: DESIGN.md's stay as they are
        if stage is not None:
            data["group_stage"] = stage[0].to_json() | stage[1].to_json()
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = Console()
    console.print(duration_table(estimate, advice))
    if stage is not None:
        console.print(group_stage_table(*stage))


def _minutes(value: Fraction) -> str:
    return f"{format_points(value)} min"


def duration_table(e: DurationEstimate, advice: Advice | None = None) -> Table:
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
    if advice is not None:
        table.add_row("Format advice", advice.text)
        if advice.groups is not None:
            table.add_row("Rating groups", advice.groups.text)
    return table


def group_stage_table(plan: GroupStagePlan, evenings: StageEvenings) -> Table:
    """A group stage + knockout: its groups, games and the evenings it needs."""
    kind = {1: "round robins", 2: "double round robins"}.get(
        plan.cycles, f"{plan.cycles}-cycle round robins"
    )
    table = Table(
        title=f"Group stage: {' + '.join(map(str, plan.group_sizes))} ({kind}), "
        f"{plan.qualifiers} to the knockout",
        show_header=False,
    )
    table.add_column("", style="bold")
    table.add_column("")
    table.add_row("Group rounds", f"{plan.group_rounds} ({plan.group_games} games)")
    names = ", ".join(plan.knockout_round_names) or "none"
    table.add_row(
        "Knockout rounds", f"{plan.knockout_rounds}: {names} ({plan.knockout_games} games)"
    )
    table.add_row("Games", str(plan.total_games))
    table.add_row("Group evenings", str(evenings.group_evenings))
    table.add_row("Knockout evenings", str(evenings.knockout_evenings))
    table.add_row("Reserve evenings", str(evenings.reserve_evenings))
    table.add_row("Evenings", str(evenings.evenings))
    return table
