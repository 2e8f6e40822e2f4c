"""``crosstable account show|adjust|master`` and ``crosstable organisers`` — the portal's
rules from the command line.

An administrator's commands, on the database itself (whoever may run them may open
the database, as for ``crosstable game-server`` and ``crosstable fair-play``); the acts
are recorded with the actor (``--by``, else ``CROSSTABLE_ACTOR``, else the system's user
name) as the administrator's page records them:

* ``account show NAME`` — the eligibility counts, the site's count and the
  administrator's adjustment apart ("9 = 4 on the site + 5 adjusted"), the master
  status and why, the flag;
* ``account adjust NAME --games N --tournaments N --reason TEXT`` — the adjustment
  (games or online tournaments played elsewhere), kept apart from the counts;
* ``account master NAME --grant|--revoke --reason TEXT`` — the master status by an
  administrator (it otherwise follows from the results);
* ``account link NAME NUMBER [-t ID]`` — the entry is the account's (fair play and the
  organisers' rule checked);
* ``account token NAME [--label TEXT] [--scope account|results]`` — a personal API
  token (printed once): ``account`` acts as the user, ``results`` only posts results;
  ``account tokens NAME`` lists them with their scopes (never the tokens themselves);
* ``organisers [-t ID] [--add NAME] [--helper NAME] [--remove NAME]`` — a tournament's
  organisers and helpers and who of them plays; the rule that a sole organiser does
  not play, and that with several at least one does not, is checked as on the web.

``--format json`` answers what the JSON API answers (``GET /api/v1/users/{id}/record``,
``GET /api/v1/tournaments/{tid}/organisers``). See docs/portal-rules.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from crosstable.cli.context import (
    DbOption,
    TournamentOption,
    actor,
    current_tournament,
    open_service,
)
from crosstable.core.errors import RuleError

if TYPE_CHECKING:  # the store and services load only when a command needs them
    from crosstable.service import Service
    from crosstable.service.accounts import Accounts, UserInfo

account_app = typer.Typer(
    help="Accounts: eligibility counts and their adjustment, the master status.",
    no_args_is_help=True,
)

FormatOption = Annotated[str, typer.Option("--format", "-f", help="table or json.")]
Reason = Annotated[str, typer.Option("--reason", help="Why (kept in the account's record).")]
By = Annotated[
    str,
    typer.Option("--by", help="Who decides (default: CROSSTABLE_ACTOR, else the system's user)."),
]


def register(app: typer.Typer) -> None:
    """Add ``crosstable account`` and ``crosstable organisers`` to ``app``."""
    app.add_typer(account_app, name="account")
    app.command("organisers")(organisers_command)


@contextmanager
def open_accounts(db: str | None) -> Iterator[Accounts]:
    """The accounts of the database ``db`` (closed at the end)."""
    from crosstable.service.accounts import Accounts  # deferred: the service layer
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)

    store = open_store(db)
    try:
        yield Accounts(store)
    finally:
        store.close()


def accounts_of(service: Service) -> Accounts:
    """The accounts on ``service``'s database, on its clock."""
    from crosstable.service.accounts import Accounts  # deferred: the service layer

    return Accounts(service.store, clock=service.clock)


def _format(text: str) -> str:
    chosen = text.strip().lower()
    if chosen not in ("table", "json"):
        raise RuleError("--format {value}: use table or json", value=repr(text))
    return chosen


def _find(accounts: Accounts, username: str) -> UserInfo:
    user = accounts.find_user(username.strip().lstrip("@"))
    if user is None:
        raise RuleError("there is no account {name}", name=repr(username))
    return user


def record_of(accounts: Accounts, user: UserInfo) -> dict[str, Any]:
    """The account's counts and master status, as the JSON API's record."""
    record = accounts.record(user.id)
    master = accounts.master(user.id)
    return {
        "user": user.id,
        "username": user.username,
        **record.as_dict(),
        "games_text": str(record.games_text()),
        "online_tournaments_text": str(record.tournaments_text()),
        "master": {
            "is_master": master.is_master,
            "won": list(master.won),
            "granted_by": master.granted_by,
            "revoked_by": master.revoked_by,
            "text": str(master.text()),
        },
        "flagged": user.flagged,
    }


def _print_record(data: dict[str, Any], shown: str) -> None:
    if shown == "json":
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"@{data['username']}")
    typer.echo(f"games played: {data['games_text']}")
    typer.echo(f"finished online tournaments: {data['online_tournaments_text']}")
    typer.echo(data["master"]["text"])
    if data["flagged"]:
        typer.echo("flagged for computer help")


@account_app.command("show")
def show_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    shown: FormatOption = "table",
    db: DbOption = None,
) -> None:
    """The counts (the site's and the adjustment apart) and the master status."""
    chosen = _format(shown)
    with open_accounts(db) as accounts:
        _print_record(record_of(accounts, _find(accounts, username)), chosen)


@account_app.command("adjust")
def adjust_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    reason: Reason,
    games: Annotated[
        int | None, typer.Option("--games", help="Games played elsewhere (+ or −).")
    ] = None,
    tournaments: Annotated[
        int | None,
        typer.Option("--tournaments", help="Finished online tournaments played elsewhere."),
    ] = None,
    shown: FormatOption = "table",
    by: By = "",
    db: DbOption = None,
) -> None:
    """Set the administrator's adjustment of the counts (kept apart, recorded)."""
    chosen = _format(shown)
    if games is None and tournaments is None:
        raise RuleError("give --games or --tournaments (or both)")
    with open_accounts(db) as accounts:
        user = _find(accounts, username)
        accounts.adjust(
            user.id, games=games, tournaments=tournaments, reason=reason, actor=by or actor()
        )
        _print_record(record_of(accounts, user), chosen)


@account_app.command("master")
def master_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    grant: Annotated[
        bool | None,
        typer.Option("--grant/--revoke", help="Grant the master status, or revoke it."),
    ] = None,
    reason: Reason = "",
    shown: FormatOption = "table",
    by: By = "",
    db: DbOption = None,
) -> None:
    """Grant or revoke the master status (it otherwise follows from the results)."""
    chosen = _format(shown)
    if grant is None:
        raise RuleError("say --grant or --revoke")
    with open_accounts(db) as accounts:
        user = _find(accounts, username)
        accounts.set_master(user.id, grant, reason=reason, actor=by or actor())
        _print_record(record_of(accounts, user), chosen)


@account_app.command("link")
def link_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    number: Annotated[int, typer.Argument(help="The entry's registration number.")],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """The entry NUMBER of the tournament is this account's (its games count for it;
    fair play and the organisers' rule are checked, as when an organiser links it)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        if all(p.number != number for p in service.overview(tid).players):
            raise RuleError(
                "tournament {tournament} has no entry {number}", tournament=tid, number=number
            )
        accounts = accounts_of(service)
        user = _find(accounts, username)
        accounts.link_entry(tid, number, user.id, actor=actor())
    typer.echo(f"tournament {tid}: entry {number} is @{user.username}'s")


@account_app.command("token")
def token_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    label: Annotated[str, typer.Option("--label", help="What the token is for.")] = "",
    scope: Annotated[
        str,
        typer.Option("--scope", help="account (acts as the user) or results (posts results only)."),
    ] = "account",
    db: DbOption = None,
) -> None:
    """Make a personal API token; print it (it is shown only this once)."""
    with open_accounts(db) as accounts:
        user = _find(accounts, username)
        token = accounts.create_token(user.id, label, scope=scope)
    typer.echo(f"API token for @{user.username} (scope {scope}): {token}")


@account_app.command("tokens")
def tokens_command(
    username: Annotated[str, typer.Argument(help="The account's user name.")],
    db: DbOption = None,
) -> None:
    """The account's API tokens with their scopes, as JSON (never the tokens themselves)."""
    with open_accounts(db) as accounts:
        user = _find(accounts, username)
        found = [
            {"id": token_id, "label": label, "created_at": at, "scope": scope}
            for token_id, label, at, scope in accounts.tokens(user.id)
        ]
    typer.echo(json.dumps({"tokens": found}, indent=2, ensure_ascii=False))


def staff_of(accounts: Accounts, tournament_id: int) -> list[dict[str, Any]]:
    """The organisers and helpers, and who of them plays (an entry linked to them)."""
    playing = accounts.playing(tournament_id)
    return [
        {"username": accounts.user(uid).username, "role": role, "plays": uid in playing}
        for uid, role in sorted(accounts.staff(tournament_id).items())
    ]


def organisers_command(
    add: Annotated[str, typer.Option("--add", help="Make this account an organiser.")] = "",
    helper: Annotated[str, typer.Option("--helper", help="Make this account a helper.")] = "",
    remove: Annotated[str, typer.Option("--remove", help="Take this account off the staff.")] = "",
    tournament: TournamentOption = None,
    shown: FormatOption = "table",
    db: DbOption = None,
) -> None:
    """A tournament's organisers and helpers, and who of them plays; add or remove one."""
    chosen = _format(shown)
    wanted: list[tuple[str, str | None]] = [(add, "organiser"), (helper, "helper"), (remove, None)]
    changes = [(name, role) for name, role in wanted if name]
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        accounts = accounts_of(service)
        for name, role in changes:
            accounts.set_staff(tid, _find(accounts, name).id, role, actor=actor())
        staff = staff_of(accounts, tid)
    if chosen == "json":
        typer.echo(json.dumps({"tournament": tid, "staff": staff}, ensure_ascii=False))
        return
    if not staff:
        typer.echo(f"tournament {tid}: no organisers or helpers with an account")
    for member in staff:
        plays = " (plays)" if member["plays"] else ""
        typer.echo(f"@{member['username']}: {member['role']}{plays}")
