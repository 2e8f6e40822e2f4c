"""API tokens: random, shown once, only their SHA-256 kept.

A token is a user's own ("personal": it acts as the user, with the user's limits)
or a game server's: made by an administrator for a game server's
account, it may post the results of the tournaments granted to it (or of every
tournament) at its own, higher limit of results a minute (:data:`GAME_SERVER_LIMIT`
unless the token says otherwise).

Every token has a **scope**, what it may do: ``account`` (everything
its user may do: a personal token made on the account page) or ``results`` (post the
results, and the games' moves, of the tournaments it may reach: nothing else). A game
server's token is always ``results``; a user may make a personal ``results`` token for
an app that only enters results. Tokens made before scopes existed keep the narrowest
scope that covers what they did (migration 0022): a game server's ``results``, a
personal one ``account``. The web checks the scope of every token request in one place
(:func:`crosstable.web.security.token_caller`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import delete, select

from crosstable.core.errors import RuleError
from crosstable.service.accounts.base import AccountsFrame, UserInfo, token_hash, user_info
from crosstable.service.errors import NotFoundError
from crosstable.store.accounts_models import ApiTokenGrantRow, ApiTokenRow, UserRow
from crosstable.store.models import TournamentRow

PERSONAL = "personal"
GAME_SERVER = "game server"
#: results a minute of a user (any way they come: page, API, report)
PERSONAL_LIMIT = 60
#: results a minute of a game server's token, unless it has its own
GAME_SERVER_LIMIT = 6000
#: the most results a minute an administrator may give one token
MOST_PER_MINUTE = 600_000
#: the most tournaments granted in one go (a list or ranges of numbers)
MOST_GRANTED = 100_000
#: the scopes of a token: everything its account may do; only posting results
ACCOUNT = "account"
RESULTS = "results"
SCOPES = (ACCOUNT, RESULTS)
_PIECE = re.compile(r"([0-9]{1,10})(?:-([0-9]{1,10}))?")


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """What a request's token is: its id, kind and limit of results a minute."""

    id: int
    kind: str = PERSONAL
    every_tournament: bool = False
    per_minute: int | None = None
    #: what the token may do (:data:`SCOPES`): ``account`` or ``results``
    scope: str = ACCOUNT

    @property
    def whole_account(self) -> bool:
        """May the token do everything its user may (scope ``account``)?"""
        return self.scope == ACCOUNT

    @property
    def game_server(self) -> bool:
        return self.kind == GAME_SERVER

    @property
    def results_a_minute(self) -> int:
        if self.per_minute is not None:
            return self.per_minute
        return GAME_SERVER_LIMIT if self.game_server else PERSONAL_LIMIT


@dataclass(frozen=True, slots=True)
class GameServerInfo:
    """A game server's token as the administrator sees it (never the token itself)."""

    token: TokenInfo
    user: UserInfo
    label: str
    created_at: str
    tournaments: tuple[int, ...]


def scope_of(kind: str, stored: str | None) -> str:
    """A token's scope: a game server's is always ``results``; else the stored one, and
    for a row without one (made before scopes) ``account``, what it could do before.

    >>> scope_of("game server", "account"), scope_of("personal", "")
    ('results', 'account')
    >>> scope_of("personal", "results")
    'results'
    """
    if kind == GAME_SERVER:
        return RESULTS
    return stored if stored in SCOPES else ACCOUNT


def check_scope(scope: str) -> str:
    """``scope`` if it is one of :data:`SCOPES`, else a RuleError naming them."""
    if scope not in SCOPES:
        raise RuleError(
            "scope: {scope} is not one of {scopes}",
            scope=repr(str(scope)[:40]),
            scopes=", ".join(SCOPES),
        )
    return scope


def _info(row: ApiTokenRow) -> TokenInfo:
    scope = scope_of(row.kind, row.scopes)
    return TokenInfo(row.id, row.kind, bool(row.every_tournament), row.per_minute, scope)


class Tokens:
    """A user's API tokens, and the game servers' tokens."""

    def __init__(self, frame: AccountsFrame) -> None:
        self.frame = frame

    def create_token(self, user_id: int, label: str = "", scope: str = ACCOUNT) -> str:
        """A new API token for ``user_id`` with ``scope`` (:data:`SCOPES`); shown once
        (only its hash is kept)."""
        check_scope(scope)
        token = "ct_" + secrets.token_urlsafe(32)
        with self.frame.store.transaction() as session:
            session.add(
                ApiTokenRow(
                    user_id=user_id,
                    token_hash=token_hash(token),
                    label=label.strip()[:100],
                    created_at=self.frame.now(),
                    scopes=scope,
                )
            )
        return token

    def user_for_token(self, token: str) -> UserInfo | None:
        return self.token_for(token)[0]

    def token_for(self, token: str) -> tuple[UserInfo | None, TokenInfo | None]:
        """The user a token acts as and what the token is (None, None: no such token)."""
        with self.frame.store.reading() as session:
            row = session.scalars(
                select(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash(token))
            ).first()
            if row is None:
                return None, None
            user = session.get(UserRow, row.user_id)
            return (None, None) if user is None else (user_info(user), _info(row))

    def tokens(self, user_id: int) -> list[tuple[int, str, str, str]]:
        """The user's tokens: id, label, when made and scope (never the token itself)."""
        with self.frame.store.reading() as session:
            rows = session.scalars(
                select(ApiTokenRow).where(ApiTokenRow.user_id == user_id).order_by(ApiTokenRow.id)
            )
            return [(r.id, r.label, r.created_at, scope_of(r.kind, r.scopes)) for r in rows]

    def revoke_token(self, user_id: int, token_id: int) -> None:
        with self.frame.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.user_id != user_id:
                raise NotFoundError("there is no token {token}", token=token_id)
            session.execute(delete(ApiTokenGrantRow).where(ApiTokenGrantRow.token_id == token_id))
            session.delete(row)

    # -- game servers (an administrator's) --------------------------------------------

    def create_game_server(
        self,
        user_id: int,
        label: str = "",
        *,
        tournaments: Iterable[int] = (),
        every_tournament: bool = False,
        per_minute: int | None = None,
    ) -> tuple[int, str]:
        """A game server's token for the account ``user_id``: its id and the token
        (shown once). It may post the results of ``tournaments`` (or, with
        ``every_tournament``, of all), ``per_minute`` results a minute (None: the
        default, :data:`GAME_SERVER_LIMIT`)."""
        _check_per_minute(per_minute)
        token = "ct_" + secrets.token_urlsafe(32)
        with self.frame.store.transaction() as session:
            if session.get(UserRow, user_id) is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            row = ApiTokenRow(
                user_id=user_id,
                token_hash=token_hash(token),
                label=label.strip()[:100],
                created_at=self.frame.now(),
                kind=GAME_SERVER,
                scopes=RESULTS,
                every_tournament=every_tournament,
                per_minute=per_minute,
            )
            session.add(row)
            session.flush()
            token_id = int(row.id)
        self.grant(token_id, tournaments)
        return token_id, token

    def grant(self, token_id: int, tournaments: Iterable[int], *, allowed: bool = True) -> None:
        """Let the game server's token post the results of ``tournaments`` (or not)."""
        wanted = sorted({int(t) for t in tournaments})
        with self.frame.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.kind != GAME_SERVER:
                raise NotFoundError("there is no game server's token {token}", token=token_id)
            for tid in wanted:
                if session.get(TournamentRow, tid) is None:
                    raise NotFoundError(
                        "there is no tournament {tournament} in this database", tournament=tid
                    )
                kept = session.get(ApiTokenGrantRow, (token_id, tid))
                if allowed and kept is None:
                    session.add(ApiTokenGrantRow(token_id=token_id, tournament_id=tid))
                elif not allowed and kept is not None:
                    session.delete(kept)

    def set_game_server(
        self,
        token_id: int,
        *,
        every_tournament: bool | None = None,
        per_minute: int | str | None = "keep",
    ) -> None:
        """Change a game server's token: every tournament or only the granted ones, its
        limit (``None``: the default; ``"keep"``: unchanged)."""
        if per_minute != "keep":
            _check_per_minute(per_minute if isinstance(per_minute, int) else None)
        with self.frame.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.kind != GAME_SERVER:
                raise NotFoundError("there is no game server's token {token}", token=token_id)
            if every_tournament is not None:
                row.every_tournament = every_tournament
            if per_minute != "keep":
                row.per_minute = per_minute if isinstance(per_minute, int) else None

    def granted(self, token: TokenInfo, tournament_id: int) -> bool:
        """May this game server's token post results of ``tournament_id``? (one key read)"""
        if not token.game_server:
            return False
        if token.every_tournament:
            return True
        with self.frame.store.reading() as session:
            return session.get(ApiTokenGrantRow, (token.id, tournament_id)) is not None

    def game_servers(self) -> list[GameServerInfo]:
        """Every game server's token, with its account and granted tournaments."""
        with self.frame.store.reading() as session:
            rows = session.scalars(
                select(ApiTokenRow).where(ApiTokenRow.kind == GAME_SERVER).order_by(ApiTokenRow.id)
            ).all()
            found = []
            for row in rows:
                user = session.get(UserRow, row.user_id)
                if user is None:
                    continue
                granted = session.scalars(
                    select(ApiTokenGrantRow.tournament_id)
                    .where(ApiTokenGrantRow.token_id == row.id)
                    .order_by(ApiTokenGrantRow.tournament_id)
                ).all()
                found.append(
                    GameServerInfo(
                        _info(row), user_info(user), row.label, row.created_at, tuple(granted)
                    )
                )
            return found

    def revoke_game_server(self, token_id: int) -> None:
        """An administrator revokes a game server's token (its grants go with it)."""
        with self.frame.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.kind != GAME_SERVER:
                raise NotFoundError("there is no game server's token {token}", token=token_id)
            session.execute(delete(ApiTokenGrantRow).where(ApiTokenGrantRow.token_id == token_id))
            session.delete(row)


def tournament_list(text: str) -> list[int]:
    """``"3, 4 10-12"`` → ``[3, 4, 10, 11, 12]``: tournament numbers and ranges, separated
    by commas or spaces (at most :data:`MOST_GRANTED`); a RuleError names a bad piece.

    >>> tournament_list("3, 4 10-12")
    [3, 4, 10, 11, 12]
    """
    found: set[int] = set()
    for piece in re.split(r"[,;\s]+", re.sub(r"\s*-\s*", "-", text.strip())):
        piece = piece.strip()
        if not piece:
            continue
        match = _PIECE.fullmatch(piece)
        if match is None:
            raise RuleError(
                "tournaments: {piece} is not a number or a range", piece=repr(piece[:40])
            )
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low < 1 or high < low or len(found) + high - low + 1 > MOST_GRANTED:
            raise RuleError(
                "tournaments: {piece} is not a range of at most {most} tournaments",
                piece=repr(piece[:40]),
                most=MOST_GRANTED,
            )
        found.update(range(low, high + 1))
    return sorted(found)


class GameServerAccounts(Protocol):
    """What :func:`new_game_server` asks of the accounts
    (:class:`~crosstable.service.accounts.Accounts` has it)."""

    def find_user(self, username: str) -> UserInfo | None: ...

    def create_user(self, username: str, password: str, *, display_name: str = ...) -> UserInfo: ...

    def create_game_server(
        self,
        user_id: int,
        label: str = ...,
        *,
        tournaments: Iterable[int] = ...,
        every_tournament: bool = ...,
        per_minute: int | None = ...,
    ) -> tuple[int, str]: ...


def new_game_server(
    accounts: GameServerAccounts,
    username: str,
    label: str = "",
    *,
    tournaments: Iterable[int] = (),
    every_tournament: bool = False,
    per_minute: int | None = None,
) -> tuple[int, str]:
    """A game server's token for the account ``username`` (made, with a random password
    nobody knows, if there is none: the account only acts through its tokens); its id
    and the token (shown once)."""
    user = accounts.find_user(username)
    if user is None:
        user = accounts.create_user(username, secrets.token_urlsafe(24), display_name=username)
    return accounts.create_game_server(
        user.id,
        label or username,
        tournaments=tournaments,
        every_tournament=every_tournament,
        per_minute=per_minute,
    )


def _check_per_minute(per_minute: int | None) -> None:
    if per_minute is not None and not 1 <= per_minute <= MOST_PER_MINUTE:
        raise RuleError("a token's limit is 1 to {most} results a minute", most=MOST_PER_MINUTE)


__all__ = [
    "ACCOUNT",
    "GAME_SERVER",
    "GAME_SERVER_LIMIT",
    "PERSONAL",
    "PERSONAL_LIMIT",
    "RESULTS",
    "SCOPES",
    "GameServerAccounts",
    "GameServerInfo",
    "TokenInfo",
    "Tokens",
    "check_scope",
    "new_game_server",
    "scope_of",
    "tournament_list",
]
