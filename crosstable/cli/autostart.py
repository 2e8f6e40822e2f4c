"""`crosstable autostart` — a tournament's start at a preset time, set and shown.

    crosstable autostart --tournament 3 --at 2026-12-07T18:00 --tz Europe/Moscow --capacity 16
    crosstable autostart --tournament 3 --round-time 18:00          # one knockout round a day
    crosstable autostart --tournament 3 --if-short wait --format json

Each option given is written into the regulations (an empty value clears it) through the
regulations' edit, which refuses a bad value naming it; then the plan is printed: the
settings, the field (players, seats left, full) and how the clock will draw
(crosstable.service.start_plan). ``crosstable tick`` acts on it.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from crosstable.cli.context import actor, current_tournament, open_service
from crosstable.core.errors import InputError


def register(app: typer.Typer) -> None:
    """Add ``crosstable autostart`` to ``app``."""
    app.command("autostart")(autostart_command)


def autostart_command(
    tournament: Annotated[
        int | None, typer.Option("--tournament", "-t", help="Tournament id (else the current).")
    ] = None,
    at: Annotated[
        str | None,
        typer.Option("--at", help="Start at this date and time (ISO 8601), after registration."),
    ] = None,
    tz: Annotated[
        str | None, typer.Option("--tz", help="Time zone of --at and --round-time (UTC).")
    ] = None,
    capacity: Annotated[
        str | None, typer.Option("--capacity", help="A knockout's field: 2, 4, 8 … 512.")
    ] = None,
    if_short: Annotated[
        str | None,
        typer.Option("--if-short", help="A short field at the start: postpone (a day) or wait."),
    ] = None,
    round_time: Annotated[
        str | None, typer.Option("--round-time", help="A knockout: one round a day at HH:MM.")
    ] = None,
    output: Annotated[str, typer.Option("--format", "-f", help="json or text.")] = "text",
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="CROSSTABLE_DB", help="Database file or postgresql:// URL."),
    ] = None,
) -> None:
    """Start a tournament by the clock: the time, a knockout's field of 2ⁿ, daily rounds."""
    from crosstable.service.start_plan import set_start_settings, start_plan  # deferred: service

    if output not in ("json", "text"):
        raise InputError(f"--format {output!r}: use json or text", source="options")
    values = {
        "starts_at": at,
        "time_zone": tz,
        "capacity": capacity,
        "if_short": if_short,
        "round_time": round_time,
    }
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        given = {key: value for key, value in values.items() if value is not None}
        if given:
            change = set_start_settings(service, tid, actor=actor(), **given)
            if output == "text":
                typer.echo(change.summary)
        plan = start_plan(service, tid)
    if output == "json":
        typer.echo(json.dumps(plan.as_json(), ensure_ascii=False))
        return
    for key, value in plan.items():
        typer.echo(f"{key}: {'—' if value is None else value}")
