"""``crosstable levels show|set|user`` — the portal's classes and levels from the
command line (an administrator's commands, on the database itself, as ``crosstable
account``):

* ``levels show`` — the register, one band a line (``--format json``: the JSON API's
  ``GET /api/v1/levels``);
* ``levels set "Level 1: 1-1199; Level 2: 1200-1599; Level 3: 1600-"`` — replace it;
* ``levels user NAME [LEVEL | --clear] [--reason TEXT]`` — a player's level, shown, set
  by hand or back to the rating's (recorded in the account's record).

See docs/series.md ("Classes and levels").
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from crosstable.cli.accounts import By, FormatOption, Reason, open_accounts
from crosstable.cli.context import DbOption, actor
from crosstable.core.errors import RuleError

levels_app = typer.Typer(
    help="Classes and levels: the rating bands, a player's level.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    """Add ``crosstable levels`` to ``app``."""
    app.add_typer(levels_app, name="levels")


def _shown(text: str) -> str:
    chosen = text.strip().lower()
    if chosen not in ("table", "json"):
        raise RuleError("--format {value}: use table or json", value=repr(text))
    return chosen


@levels_app.command("show")
def show_command(shown: FormatOption = "table", db: DbOption = None) -> None:
    """The levels: each band's name and ratings."""
    chosen = _shown(shown)
    with open_accounts(db) as accounts:
        levels = accounts.levels()
    if chosen == "json":
        typer.echo(json.dumps({"levels": levels.as_json()}, ensure_ascii=False))
    elif not levels.bands:
        typer.echo("no levels: the portal keeps none")
    else:
        for band in levels.bands:
            typer.echo(band.text())


@levels_app.command("set")
def set_command(
    bands: Annotated[
        str, typer.Argument(help='"Level 1: 1-1199; Level 2: 1200-" (name: low-high).')
    ],
    db: DbOption = None,
) -> None:
    """Replace the levels (checked first: nothing changes when a band does not read)."""
    with open_accounts(db) as accounts:
        levels = accounts.set_levels(bands)
    for band in levels.bands:
        typer.echo(band.text())


@levels_app.command("user")
def user_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    level: Annotated[str | None, typer.Argument(help="The level to set by hand.")] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="Back to the level of the player's rating.")
    ] = False,
    reason: Reason = "",
    shown: FormatOption = "table",
    by: By = "",
    db: DbOption = None,
) -> None:
    """A player's level: shown, set by hand, or (``--clear``) by rating again."""
    chosen = _shown(shown)
    if clear and level is not None:
        raise RuleError("give a level or --clear, not both")
    with open_accounts(db) as accounts:
        user = accounts.find_user(username.strip().lstrip("@"))
        if user is None:
            raise RuleError("there is no account {name}", name=repr(username))
        if level is not None or clear:
            found = accounts.set_level(user.id, level, reason=reason, actor=by or actor())
        else:
            found = accounts.level(user.id)
    if chosen == "json":
        typer.echo(json.dumps({"username": user.username, **found.as_dict()}, ensure_ascii=False))
        return
    how = {"assigned": "set by an administrator", "rating": "by rating"}.get(found.how, "")
    typer.echo(f"@{user.username}: {found.level or 'no level'}" + (f" ({how})" if how else ""))
