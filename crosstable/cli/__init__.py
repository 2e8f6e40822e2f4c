"""The ``crosstable`` command line (Typer + Rich).

Each command group lives in a module of its own; :func:`main` wires them up and
turns every :class:`~crosstable.core.errors.CrosstableError` into one line on
stderr with exit status 2 — never a traceback for bad input.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

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
    from crosstable.cli import series, tick  # the portal's series (issue 11)

    series.register(app)
    from crosstable.cli import series_results  # news, awards, season standings

    series_results.register(series.series_app)
    tick.register(app)
    from crosstable.cli import ratings  # FIDE ratings and title norms (issue 16)

    ratings.register(app)
    from crosstable.cli import rating_list  # rating lists: import, find, add, update

    rating_list.register(app)
    from crosstable.cli import pgn  # PGN: export, import (issue 16 item 4)

    pgn.register(app)
    from crosstable.cli import game_servers  # game servers' tokens (issue 17.2)

    game_servers.register(app)
    from crosstable.cli import fair_play  # the computer-help ban (issue 12 item 2)

    fair_play.register(app)
    from crosstable.cli import accounts  # the portal's rules: counts, masters, organisers

    accounts.register(app)


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``1 round``, ``2 rounds``: a number with its noun in English.

    >>> counted(1, "round"), counted(2, "round"), counted(0, "match", "matches")
    ('1 round', '2 rounds', '0 matches')
    """
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


#: result notations that begin with a dash (the rest never look like an option)
DASHED_RESULTS = frozenset({"-+", "--", "-/+", "-:+"})
#: ``crosstable result``'s options that take a value
_RESULT_VALUE_OPTIONS = frozenset({"--key", "--tournament", "-t", "--db"})


def result_arguments(argv: list[str]) -> list[str]:
    """``result 1 3 -+`` as Click can read it: a result written as the arbiter writes it
    (``-+``, ``--``, ``-/+``) is an argument, not an option, so without ``--`` the
    options move before the arguments and ``--`` is put between them.

    >>> result_arguments(["result", "1", "3", "-+", "--db", "x.db"])
    ['result', '--db', 'x.db', '--', '1', '3', '-+']
    >>> result_arguments(["result", "1", "3", "--"])
    ['result', '--', '1', '3', '--']
    >>> result_arguments(["result", "1", "3", "--correct", "--", "+-"])
    ['result', '--correct', '--', '1', '3', '+-']
    """
    if not argv or argv[0] != "result" or "--help" in argv:
        return argv
    options: list[str] = []
    arguments: list[str] = []
    tokens = argv[1:]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if token == "--" and (
            len(arguments) != 2
            or (after is not None and (not after.startswith("-") or after in DASHED_RESULTS))
        ):  # the user's own end of the options
            arguments.extend(tokens[index + 1 :])
            break
        if len(arguments) == 2 and token.strip() in DASHED_RESULTS:
            arguments.append(token)
        elif token in _RESULT_VALUE_OPTIONS:
            options.append(token)
            if after is not None:
                options.append(after)
                index += 1
        elif token.startswith("-") and token != "-":
            options.append(token)
        else:
            arguments.append(token)
        index += 1
    return ["result", *options, "--", *arguments]


def _tidy(command: Any) -> None:
    """Help as it reads best: a flag (``--help`` too) shows no ``<bool>`` type, and a
    command's line in its group's list is its first paragraph on one line."""
    for param in command.params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option
    if command.help and not command.short_help:
        first = inspect.cleandoc(command.help).partition("\f")[0].split("\n\n")[0]
        command.short_help = " ".join(first.split())
    for sub in getattr(command, "commands", {}).values():
        _tidy(sub)


def _command() -> Any:
    import typer.main

    command = typer.main.get_command(app)
    _tidy(command)
    return command


def fail(message: str) -> None:
    """Print one line on stderr and stop with exit status 2."""
    typer.echo(f"crosstable: {message}", err=True)
    raise typer.Exit(2)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or usage)."""
    _register()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        _command().main(args=result_arguments(args), prog_name="crosstable", standalone_mode=True)
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
