"""The ``crosstable`` command line (Typer + Rich).

Each command group lives in a module of its own; :func:`main` wires them up and
turns every :class:`~crosstable.core.errors.CrosstableError` into one line on
stderr with exit status 2 — never a traceback for bad input.
"""

from __future__ import annotations

import sys

import typer

from crosstable.core.errors import CrosstableError

app = typer.Typer(
    name="crosstable",
    help="Chess tournament manager: FIDE round robins, tie-breaks, Swiss and knockout.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Chess tournament manager: FIDE round robins, tie-breaks, Swiss and knockout."""


@app.command()
def version() -> None:
    """Print the version of crosstable."""
    from crosstable import __version__

    typer.echo(__version__)


_registered = False


def _register() -> None:
    global _registered
    if _registered:  # main() may run many times in one process (tests): register once
        return
    _registered = True
    from crosstable.cli import (
        bracket,
        check,
        demo,
        duration,
        engine,
        generate,
        pair,
        players,
        rounds,
        schedule,
        serve,
        stages,
        standings,
        tournament,
        trf,
    )

    for module in (schedule, duration, trf, standings, pair, engine, demo, tournament, players):
        module.register(app)
    for module in (serve, check, generate, bracket, rounds, stages):
        module.register(app)
    from crosstable.cli import series  # the portal's series (issue 11)

    series.register(app)


def fail(message: str) -> None:
    """Print one line on stderr and stop with exit status 2."""
    typer.echo(f"crosstable: {message}", err=True)
    raise typer.Exit(2)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or usage)."""
    _register()
    try:
        app(args=argv, prog_name="crosstable", standalone_mode=True)
    except CrosstableError as error:
        typer.echo(f"crosstable: {error}", err=True)
        return 2
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except OSError as error:
        name = getattr(error, "filename", None) or ""
        typer.echo(f"crosstable: {name}: {error.strerror or error}", err=True)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
