"""``crosstable game-server create|list|grant|revoke`` — game servers' API tokens.

An administrator's commands, on the database itself (whoever may run them may open
the database): a game server's token posts the results of the tournaments granted to
it (or of every tournament) at its own limit of results a minute; see docs/api.md.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from crosstable.cli.accounts import open_accounts
from crosstable.cli.series import DbOption

game_server_app = typer.Typer(
    help="Game servers' API tokens: their own limit, the tournaments granted to them.",
    no_args_is_help=True,
)

Tournaments = Annotated[
    str,
    typer.Option("--tournaments", help="Tournament numbers and ranges: 3,4,10-20."),
]


def register(app: typer.Typer) -> None:
    """Add ``crosstable game-server`` to ``app``."""
    app.add_typer(game_server_app, name="game-server")


@game_server_app.command("create")
def create_command(
    username: Annotated[str, typer.Argument(help="The game server's account (made if none).")],
    tournaments: Tournaments = "",
    every_tournament: Annotated[
        bool, typer.Option("--every-tournament", help="Results of every tournament.")
    ] = False,
    per_minute: Annotated[
        int | None,
        typer.Option("--per-minute", help="Results a minute (default 6000).", min=1, max=600_000),
    ] = None,
    label: Annotated[str, typer.Option("--label", help="What the token is for.")] = "",
    db: DbOption = None,
) -> None:
    """Make a game server's token; print it (it is shown only this once)."""
    # deferred: the service layer (start-up time)
    from crosstable.service.accounts.tokens import new_game_server, tournament_list

    with open_accounts(db) as accounts:
        token_id, token = new_game_server(
            accounts,
            username,
            label,
            tournaments=tournament_list(tournaments),
            every_tournament=every_tournament,
            per_minute=per_minute,
        )
    typer.echo(f"game server token {token_id} for @{username.strip().lower()}: {token}")


@game_server_app.command("list")
def list_command(db: DbOption = None) -> None:
    """The game servers' tokens (as JSON; never the tokens themselves)."""
    with open_accounts(db) as accounts:
        found = [
            {
                "id": info.token.id,
                "username": info.user.username,
                "label": info.label,
                "scope": info.token.scope,  # always "results"
                "per_minute": info.token.results_a_minute,
                "every_tournament": info.token.every_tournament,
                "tournaments": list(info.tournaments),
            }
            for info in accounts.game_servers()
        ]
    typer.echo(json.dumps({"game_servers": found}, indent=2, ensure_ascii=False))


@game_server_app.command("grant")
def grant_command(
    token: Annotated[int, typer.Argument(help="The game server's token number.", min=1)],
    tournaments: Tournaments = "",
    withdraw: Annotated[
        bool, typer.Option("--withdraw", help="Take the tournaments back instead.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Grant tournaments to a game server's token (or take them back)."""
    # deferred: the service layer (start-up time)
    from crosstable.service.accounts.tokens import tournament_list

    wanted = tournament_list(tournaments)
    with open_accounts(db) as accounts:
        accounts.grant(token, wanted, allowed=not withdraw)
    done = "withdrawn from" if withdraw else "granted to"
    typer.echo(f"{len(wanted)} tournament(s) {done} game server token {token}")


@game_server_app.command("revoke")
def revoke_command(
    token: Annotated[int, typer.Argument(help="The game server's token number.", min=1)],
    db: DbOption = None,
) -> None:
    """Revoke a game server's token."""
    with open_accounts(db) as accounts:
        accounts.revoke_game_server(token)
    typer.echo(f"game server token {token} revoked")
