"""``crosstable fair-play flag|unflag|record`` — the computer-help ban from the terminal
(docs/portal-rules.md).

An administrator's commands, on the database itself (whoever may run them may open the
database), as ``crosstable game-server``: they do what the administrator's page and
``POST /api/v1/users/{id}/flag`` do. Flagging a player who plays in running
tournaments needs a decision for each of them — ``--withdraw T`` (withdrawn under the
tournament's withdrawal rule) or ``--stay T`` (plays on to the end); without one for
every tournament the flag is refused and the tournaments are listed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from crosstable.cli.accounts import accounts_of
from crosstable.cli.series import DbOption
from crosstable.core.errors import RuleError

if TYPE_CHECKING:  # the store and services load only when a command needs them
    from crosstable.service import Service
    from crosstable.service.accounts import Accounts

fair_play_app = typer.Typer(
    help="Fair play: flag an account for computer help, clear the flag, show its record.",
    no_args_is_help=True,
)

Username = Annotated[str, typer.Argument(help="The player's account (username).")]
ReasonOption = Annotated[
    str, typer.Option("--reason", help="Why (kept in the account's record).", show_default=False)
]
ByOption = Annotated[
    str, typer.Option("--by", help="The administrator who decides (kept in the record).")
]


def register(app: typer.Typer) -> None:
    """Add ``crosstable fair-play`` to ``app``."""
    app.add_typer(fair_play_app, name="fair-play")


@contextmanager
def _opened(db: str | None) -> Iterator[tuple[Accounts, Service]]:
    from crosstable.service import Service  # deferred: the service layer (start-up time)
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)

    store = open_store(db)
    try:
        service = Service(store)
        yield accounts_of(service), service
    finally:
        store.close()


def _user_id(accounts: Accounts, username: str) -> int:
    from crosstable.service.errors import NotFoundError  # deferred: the service layer

    found = accounts.find_user(username)
    if found is None:
        raise NotFoundError("there is no user {user}", user=username.strip().lower())
    return found.id


@fair_play_app.command("flag")
def flag_command(
    username: Username,
    reason: ReasonOption,
    withdraw: Annotated[
        list[int] | None,
        typer.Option(
            "--withdraw",
            help="Withdraw the player from this running tournament (its withdrawal rule).",
            min=1,
        ),
    ] = None,
    stay: Annotated[
        list[int] | None,
        typer.Option(
            "--stay", help="Leave the player in this running tournament to the end.", min=1
        ),
    ] = None,
    by: ByOption = "",
    db: DbOption = None,
) -> None:
    """Flag an account for computer help: it can no longer take part anywhere."""
    decisions = {tid: "withdraw" for tid in withdraw or ()}
    for tid in stay or ():
        if tid in decisions:
            raise RuleError("tournament {tournament}: withdraw or stay, not both", tournament=tid)
        decisions[tid] = "stay"
    with _opened(db) as (accounts, service):
        user = _user_id(accounts, username)
        withdrawn = accounts.flag(user, reason, decisions=decisions, service=service, actor=by)
    name = username.strip().lower()
    typer.echo(f"@{name} flagged for computer help")
    for entry in withdrawn:
        typer.echo(f"withdrawn from {entry.name} (tournament {entry.tournament_id})")


@fair_play_app.command("unflag")
def unflag_command(
    username: Username, reason: ReasonOption, by: ByOption = "", db: DbOption = None
) -> None:
    """Clear the flag (past withdrawals stay)."""
    with _opened(db) as (accounts, _service):
        accounts.unflag(_user_id(accounts, username), reason, actor=by)
    typer.echo(f"@{username.strip().lower()}: flag cleared")


@fair_play_app.command("record")
def record_command(username: Username, db: DbOption = None) -> None:
    """The account's flag, the running tournaments it plays in and its record (JSON)."""
    with _opened(db) as (accounts, _service):
        user = _user_id(accounts, username)
        shown = {
            "username": username.strip().lower(),
            "flagged": accounts.user(user).flagged,
            "running": [
                {"tournament": r.tournament_id, "name": r.name, "number": r.number}
                for r in accounts.running_entries(user)
            ],
            "record": [
                {"at": e.at, "actor": e.actor, "kind": e.kind, "summary": e.summary}
                for e in accounts.account_history(user)
            ],
        }
    typer.echo(json.dumps(shown, indent=2, ensure_ascii=False))
