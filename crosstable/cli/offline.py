"""``crosstable offline build``: the offline app's directory (docs/offline.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

offline_app = typer.Typer(help="The tournament app that runs in the browser alone (Pyodide).")


@offline_app.command("build")
def build_command(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Directory to build into (default: the one /offline/ serves)."),
    ] = None,
) -> None:
    """Fetch Pyodide from the npm registry (pinned, hash checked), zip the core, copy the page."""
    from crosstable.offline.build import DEFAULT_OUT, build  # deferred: only this command needs it

    target = out or DEFAULT_OUT
    sizes = build(target)
    typer.echo(f"{target}: {len(sizes)} files, {sum(sizes.values())} bytes")


def register(app: typer.Typer) -> None:
    app.add_typer(offline_app, name="offline")
