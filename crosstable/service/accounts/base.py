"""What every part of :class:`~crosstable.service.accounts.Accounts` shares: the
account and access values (:class:`UserInfo`, :class:`AccessInfo`), how a row becomes
one, how the history names a user, and :class:`AccountsFrame` (the store, the clock,
the tournament lock and the history entry every permission change appends), which
each part is given."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session, object_session

from crosstable.core.errors import RuleError
from crosstable.service.clock import Clock, SystemClock
from crosstable.service.eligibility import Eligibility
from crosstable.service.frame import EventData, lock_tournament
from crosstable.service.history import append_information
from crosstable.service.organisers import master_status
from crosstable.store import Store
from crosstable.store.accounts_models import (
    AccessRow,
    UserRow,
)
from crosstable.store.models import TournamentRow

MIN_PASSWORD = 8
#: flags an administrator may set on an account
USER_FLAGS = ("is_admin", "is_master", "flagged", "rated_games", "online_tournaments", "rating")
ELIGIBILITY_KEYS = ("min_rated_games", "min_online_tournaments")
#: read in older eligibility documents and dropped: the fair-play ban is site-wide
OLD_ELIGIBILITY_KEYS = ("refuse_flagged",)


@dataclass(frozen=True, slots=True)
class UserInfo:
    id: int
    username: str
    display_name: str
    is_admin: bool = False
    is_master: bool = False
    rated_games: int = 0
    online_tournaments: int = 0
    flagged: bool = False
    rating: int | None = None

    @property
    def may_organise(self) -> bool:
        """Administrators and masters may create tournaments."""
        return self.is_admin or self.is_master


@dataclass(frozen=True, slots=True)
class AccessInfo:
    tournament_id: int
    owner_id: int | None = None
    approval: str = "approved"
    self_registration: bool = False
    opens_at: str | None = None
    closes_at: str | None = None
    #: the tournament's eligibility rules as stored (service/eligibility.py ``rules_of``)
    eligibility: Eligibility = field(default_factory=dict)


def password_hasher() -> Any:
    """argon2's hasher (imported when a password is first hashed or checked)."""
    from argon2 import PasswordHasher

    return PasswordHasher()


#: the hashes of no one's password, one for each set of the hasher's parameters
_UNUSED_HASHES: dict[tuple[object, ...], str] = {}


def unused_hash(hasher: Any) -> str:
    """A hash of a random password no one knows, made by ``hasher`` with its own
    parameters (made once a process): a password checked against it costs what checking
    an account's own costs, so a sign-in with an unknown name takes as long as one with a
    known name and the wrong password."""
    parameters = (
        hasher.type,
        hasher.time_cost,
        hasher.memory_cost,
        hasher.parallelism,
        hasher.hash_len,
        hasher.salt_len,
    )
    made = _UNUSED_HASHES.get(parameters)
    if made is None:
        made = _UNUSED_HASHES[parameters] = hasher.hash(secrets.token_urlsafe(32))
    return made


def token_hash(token: str) -> str:
    """The SHA-256 of an API token: all that is kept of it."""
    return hashlib.sha256(token.encode()).hexdigest()


def user_info(row: UserRow) -> UserInfo:
    """The account; a master by the results or an administrator's grant, read
    from the row's session (a detached row: its granted flag)."""
    session = object_session(row)
    is_master = row.is_master if session is None else master_status(session, row).is_master
    return UserInfo(
        row.id,
        row.username,
        row.display_name,
        row.is_admin,
        is_master,
        row.rated_games,
        row.online_tournaments,
        row.flagged,
        row.rating,
    )


def access_info(tournament_id: int, row: AccessRow | None) -> AccessInfo:
    """The access settings of a row (no row: the defaults)."""
    if row is None:
        return AccessInfo(tournament_id)
    return AccessInfo(
        tournament_id,
        row.owner_id,
        row.approval,
        row.self_registration,
        row.opens_at,
        row.closes_at,
        dict(row.eligibility or {}),
    )


class AccountsFrame:
    """What every part of the accounts works with: the store, the clock, and the
    tournament's lock and history, where each change of a tournament's owner, staff,
    access settings or linked accounts is recorded. One is made by
    :class:`~crosstable.service.accounts.Accounts` and handed to each part."""

    def __init__(self, store: Store, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()

    def now(self) -> str:
        """The clock's time, to the second (the stamp of a new account or token)."""
        return self.clock.now().isoformat(timespec="seconds")

    def lock(self, session: Session, tournament_id: int) -> TournamentRow:
        """The tournament row, locked like every tournament change (first, so the lock
        order is the services'); NotFoundError if there is none."""
        return lock_tournament(session, tournament_id)

    def log(
        self,
        session: Session,
        row: TournamentRow,
        kind: str,
        summary: str,
        data: EventData,
        actor: str,
    ) -> None:
        """Append an informational event to the tournament's history (who, when, what).

        It has no row changes, so undo and revert pass over it (docs/web.md, "Staff
        and access in the history"): permissions are not taken back with the results.
        The revision moves on like at any change, so cached pages are refreshed.
        """
        append_information(
            session,
            row,
            at=self.clock.now().isoformat(timespec="microseconds"),
            actor=actor,
            kind=kind,
            summary=summary,
            data=data,
        )


def name_of(user: UserInfo) -> str:
    """The user's name as the history shows it: ``ann (Ann Lee)``, or ``ann``."""
    if user.display_name and user.display_name.lower() != user.username:
        return f"{user.username} ({user.display_name})"
    return user.username


def user_ref(user: UserInfo) -> dict[str, int | str]:
    """The user as the history's data names them (id and user name)."""
    return {"id": user.id, "username": user.username}


def parse_time(text: str) -> dt.datetime:
    """An access setting's moment (ISO text; without a zone, UTC); a RuleError if it is
    not one."""
    try:
        value = dt.datetime.fromisoformat(str(text))
    except ValueError:
        raise RuleError(
            "{text} is not a date and time (YYYY-MM-DDTHH:MM)", text=repr(text)
        ) from None
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
