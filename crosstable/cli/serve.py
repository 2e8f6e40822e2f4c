"""`crosstable serve` — the web application (issue 5) on a database, migrations applied.

crosstable serve [--db URL] [--host 127.0.0.1] [--port 8000]

Several ``serve`` processes on one PostgreSQL database stay in step: each
LISTENs for the others' changes and pushes them to its own viewers.
"""

from __future__ import annotations

from typing import Annotated

import typer

from crosstable.core.errors import CrosstableError


class WebMissingError(CrosstableError):
    """The web extra is not installed."""


def register(app: typer.Typer) -> None:
    """Add ``crosstable serve`` to ``app``."""
    app.command("serve")(serve)


def serve(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database: a file path, sqlite:///… or postgresql://… "
            "(default: $CROSSTABLE_DB or the per-user file).",
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
) -> None:
    """Run the web application: live crosstables, results, print pages, JSON API."""
    run(db, host=host, port=port)


def run(db: str | None, *, host: str = "127.0.0.1", port: int = 8000, banner: str = "") -> None:
    """Start the server (blocks until interrupted)."""
    try:
        import uvicorn

        from crosstable.web.app import create_app
    except ImportError as error:
        raise WebMissingError(
            f"the web application needs its extra: pip install 'crosstable[web]' ({error.name})"
        ) from None
    from crosstable.store import resolve_url

    app = create_app(db)
    shown = resolve_url(db)
    typer.echo(banner or f"crosstable on http://{host}:{port}/  (database {shown})")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)
