"""`crosstable schedule scheveningen|quads` — placeholder until its helper lands."""

from __future__ import annotations

import typer


def register(schedule_app: typer.Typer) -> None:
    """Add the variant schedules (Scheveningen, quads) to the ``schedule`` command group."""
