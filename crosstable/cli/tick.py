"""`crosstable tick [--db URL] [--now ISO]` — one pass of every series' time-driven steps.

For cron or a systemd timer: every step that is due (deadlines, extensions,
postponements, stages' starts and ends) is done once, in order; a second process
ticking at the same moment does nothing. ``--now`` is for demos and tests only.
"""

from __future__ import annotations

import typer

from crosstable.cli.series import DbOption, NowOption, series_service


def register(app: typer.Typer) -> None:
    """Add ``crosstable tick`` to ``app``."""
    app.command("tick")(tick_command)


def tick_command(db: DbOption = None, now: NowOption = None) -> None:
    """Do every series step that is due now, once; print one line per step."""
    with series_service(db, now) as service:
        done = service.tick()
    for line in done:
        typer.echo(line)
    if not done:
        typer.echo("nothing is due")
