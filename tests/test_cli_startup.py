"""The command line starts at once: a command's module is imported only when that command
runs, so ``--help``, ``version`` and the commands that need no database import neither
SQLAlchemy nor numpy nor the service layer; and the list that ``--help`` prints without
importing the commands (:mod:`crosstable.cli.catalogue`) says exactly what the modules
define, in the same order, with the same help."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import crosstable
from crosstable import cli
from crosstable.cli.catalogue import COMMANDS, EXTENSIONS

CLI = Path(crosstable.__file__).parent / "cli"
#: what a command that needs no database must not import at start
HEAVY = (
    "sqlalchemy",
    "alembic",
    "numpy",
    "rustworkx",
    "networkx",
    "fastapi",
    "uvicorn",
    "crosstable.service",
    "crosstable.store",
    "crosstable.web",
    # Typer's argument checks from 0.29 on, and its boxed help (rich's Markdown, Syntax)
    "pydantic",
    "rich.markdown",
    "rich.syntax",
    # the JSON reader: its checks pull in the rating tables
    "crosstable.formats.json_io",
)


def imported_by(args: list[str]) -> set[str]:
    """The heavy modules a fresh process has imported after ``crosstable ARGS``."""
    program = (
        "import sys\nfrom crosstable.cli import main\ncode = main(sys.argv[1:])\n"
        f"heavy = {HEAVY!r}\n"
        "print('heavy:', *(h for h in heavy if h in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, *args], capture_output=True, text=True, check=True
    )
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("heavy:"), done.stderr
    return set(line.split()[1:])


@pytest.mark.parametrize(
    "args",
    [["--help"], [], ["version"], ["nonsense"], ["standings", "--help"], ["trf", "--help"]],
)
def test_the_help_and_version_import_nothing_heavy(args: list[str]) -> None:
    assert imported_by(args) == set()


def test_a_command_that_needs_no_database_imports_no_database(tmp_path: Path) -> None:
    # the shipped example through `standings` and `schedule`: no SQLAlchemy, no service layer
    example = Path(crosstable.__file__).parent / "examples" / "club_rr6.trf"
    used = imported_by(["standings", str(example), "--format", "json"])
    assert not used & {"sqlalchemy", "alembic", "crosstable.service", "crosstable.store", "fastapi"}
    assert imported_by(["schedule", "berger", "6"]) == set()
    assert imported_by(["standings", str(example)]) == set()


def eager() -> list[tuple[str, str, str]]:
    """Every module's commands registered the old way, one module after another."""
    found = []
    for module_name in dict.fromkeys(module for _name, module, _help in COMMANDS):
        module = __import__(f"crosstable.cli.{module_name}", fromlist=["register"])
        group = typer.Typer()
        group.callback()(cli.root)
        module.register(group)
        command = typer.main.get_command(group)
        cli.tidy(command)
        found += [(name, module_name, sub.short_help) for name, sub in command.commands.items()]
    return found


def test_the_catalogue_says_what_the_modules_define() -> None:
    listed = {(name, module, line) for name, module, line in COMMANDS}
    assert set(eager()) == listed
    assert len(listed) == len(COMMANDS)


def test_every_module_with_commands_is_in_the_catalogue() -> None:
    extensions = {extension for pairs in EXTENSIONS.values() for extension, _ in pairs}
    known = {module for _name, module, _help in COMMANDS} | extensions
    registering = {
        path.stem
        for path in CLI.glob("*.py")
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "register"
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    }
    # a module that registers its commands through another's register (battle's through
    # rounds, schedule_variants' through schedule) needs no line of its own
    sources = "".join((CLI / f"{module}.py").read_text(encoding="utf-8") for module in known)
    nested = {module for module in registering if f"{module}.register(" in sources}
    assert registering - nested == known


def test_the_help_lists_commands_then_groups_in_the_catalogue_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    names = ["version", *(name for name, _module, _help in COMMANDS)]
    places = [text.index(f"\n  {name} ") for name in names]
    assert places == sorted(places)
    whole = cli.full_command()
    groups = [n for n in names if hasattr(whole.commands[n], "commands")]
    assert names[-len(groups) :] == groups  # commands first, then groups, as Typer lists them


def test_a_command_runs_through_the_lazy_group(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schedule", "berger", "4"]) == 0
    assert "1" in capsys.readouterr().out
    assert cli.main(["nonsense"]) == 2
    assert "nonsense" in capsys.readouterr().err
