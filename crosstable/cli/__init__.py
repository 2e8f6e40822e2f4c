"""The ``crosstable`` command line (Typer + Rich).

Each command group lives in a module of its own; :func:`main` wires them up and
turns every :class:`~crosstable.core.errors.CrosstableError` into one line on
stderr with exit status 2 — never a traceback for bad input.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from crosstable import __version__
from crosstable.cli.catalogue import COMMANDS, EXTENSIONS, module_of
from crosstable.core.errors import CrosstableError


class LazyGroup(TyperGroup):
    """The top-level group: a command's module is imported when that command runs, not
    at start. ``--help`` lists the commands from :mod:`crosstable.cli.catalogue`."""

    listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        own = super().list_commands(ctx)
        return [*own, *(name for name, _module, _help in COMMANDS if name not in own)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        own = super().get_command(ctx, cmd_name)
        if own is not None:
            return own
        if self.listing:  # the help's list of commands: a name and a line, nothing loaded
            for name, _module, line in COMMANDS:
                if name == cmd_name:
                    return TyperCommand(name, short_help=line, help=line)
            return None
        module = module_of(cmd_name)
        return None if module is None else loaded(module).get(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


#: help and usage errors as plain text: Typer's boxes import rich's Markdown, Syntax and
#: Traceback (pygments, markdown-it), which more than doubled the start of ``--help``
PLAIN_HELP = None

app = typer.Typer(
    name="crosstable",
    rich_markup_mode=PLAIN_HELP,
    help="Chess tournament manager: FIDE round robins, tie-breaks, Swiss and knockout.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
)


@app.callback()
def root() -> None:
    """Chess tournament manager: FIDE round robins, tie-breaks, Swiss and knockout."""


@app.command()
def version() -> None:
    """Print the version of crosstable."""
    typer.echo(__version__)


#: the commands of each module loaded so far, by module name
_LOADED: dict[str, dict[str, Any]] = {}


def loaded(module_name: str) -> dict[str, Any]:
    """The top-level commands that the module ``crosstable.cli.<module_name>`` defines,
    imported on first use (a command's module is imported only when it is needed:
    most pull in SQLAlchemy, numpy or the service layer)."""
    if module_name not in _LOADED:
        module = importlib.import_module(f"crosstable.cli.{module_name}")
        group = typer.Typer(rich_markup_mode=PLAIN_HELP)
        group.callback()(root)  # a group even when the module adds one command
        module.register(group)
        for extension, attribute in EXTENSIONS.get(module_name, ()):
            importlib.import_module(f"crosstable.cli.{extension}").register(
                getattr(module, attribute)
            )
        command = typer.main.get_command(group)
        tidy(command)
        _LOADED[module_name] = dict(getattr(command, "commands", {}))
    return _LOADED[module_name]


def full_command() -> LazyGroup:
    """The whole command line with every command loaded (tests walk it)."""
    command = root_command()
    for name, module, _help in COMMANDS:
        command.add_command(loaded(module)[name], name)
    return command


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``1 round``, ``2 rounds``: a number with its noun in English.

    >>> counted(1, "round"), counted(2, "round"), counted(0, "match", "matches")
    ('1 round', '2 rounds', '0 matches')
    """
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


#: result notations that begin with a dash (the rest never look like an option)
DASHED_RESULTS = frozenset({"-+", "--", "-/+", "-:+"})
#: ``crosstable result``'s options that take a value
_RESULT_VALUE_OPTIONS = frozenset({"--key", "--tournament", "-t", "--db", "--confirm"})


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


def tidy(command: Any) -> None:
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
        tidy(sub)


def root_command() -> LazyGroup:
    """The top-level group, its commands loaded when they are asked for."""
    command = typer.main.get_command(app)
    tidy(command)
    assert isinstance(command, LazyGroup)
    return command


def fail(message: str) -> None:
    """Print one line on stderr and stop with exit status 2."""
    typer.echo(f"crosstable: {message}", err=True)
    raise typer.Exit(2)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or usage)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        root_command().main(
            args=result_arguments(args), prog_name="crosstable", standalone_mode=True
        )
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
