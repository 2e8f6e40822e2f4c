"""People and permissions (R-OR-1, R-OR-2): accounts, API tokens, staff, approval, eligibility.

The tournament use cases (:class:`crosstable.service.Service`) know nothing of
accounts; the web app asks :class:`Accounts` *who may* before calling them.
Passwords are argon2 hashes (argon2-cffi); API tokens are random and only their
SHA-256 is stored.

>>> import datetime as dt
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock
>>> accounts = Accounts(open_store("sqlite:///:memory:"),
...                     clock=FixedClock(dt.datetime(2026, 5, 1, tzinfo=dt.UTC)))
>>> ann = accounts.create_user("ann", "correct horse", is_admin=True)
>>> accounts.authenticate("ann", "correct horse").username
'ann'
>>> accounts.authenticate("ann", "wrong") is None
True
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from crosstable.core.errors import RuleError
from crosstable.core.wording import counted
from crosstable.service.account_entries import EntryAccounts
from crosstable.service.clock import Clock, SystemClock
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.fair_play import PortalRules
from crosstable.service.history import append_information
from crosstable.service.organisers import (
    master_status,
    organiser_problem_staff,
)
from crosstable.store import Store
from crosstable.store.accounts_models import (
    AccessRow,
    ApiTokenRow,
    EntryAccountRow,
    StaffRow,
    UserRow,
)
from crosstable.store.models import TournamentRow

_USERNAME = re.compile(r"^[A-Za-z0-9_.\-]{2,40}$")
MIN_PASSWORD = 8
#: flags an administrator may set on an account
USER_FLAGS = ("is_admin", "is_master", "flagged", "rated_games", "online_tournaments", "rating")
ELIGIBILITY_KEYS = ("min_rated_games", "min_online_tournaments")
#: read in older eligibility documents and dropped: the fair-play ban is site-wide (R-SE-8)
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
        """Administrators and masters may create tournaments (R-OR-1)."""
        return self.is_admin or self.is_master


@dataclass(frozen=True, slots=True)
class AccessInfo:
    tournament_id: int
    owner_id: int | None = None
    approval: str = "approved"
    self_registration: bool = False
    opens_at: str | None = None
    closes_at: str | None = None
    eligibility: dict[str, Any] = field(default_factory=dict)


def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _user(row: UserRow) -> UserInfo:
    """The account; a master by the results or an administrator's grant (R-OR-1), read
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


def _access(tournament_id: int, row: AccessRow | None) -> AccessInfo:
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


class Accounts(EntryAccounts, PortalRules):
    """Accounts and permissions over the same store as the tournament service."""

    def __init__(self, store: Store, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()

    def _now(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")

    # -- users ---------------------------------------------------------------------

    def create_user(
        self,
        username: str,
        password: str,
        *,
        display_name: str = "",
        is_admin: bool = False,
        is_master: bool = False,
        rating: int | None = None,
    ) -> UserInfo:
        name = username.strip()
        if not _USERNAME.match(name):
            raise RuleError("a user name has 2–40 letters, digits, dots, dashes or underscores")
        if len(password) < MIN_PASSWORD:
            raise RuleError(f"a password needs at least {MIN_PASSWORD} characters")
        shown = " ".join((display_name or name).split())
        digest = _hasher().hash(password)
        with self.store.transaction() as session:
            taken = session.scalars(select(UserRow).where(UserRow.username == name.lower())).first()
            if taken is not None:
                raise ConflictError(f"the user name {name!r} is taken")
            row = UserRow(
                username=name.lower(),
                display_name=shown,
                password_hash=digest,
                is_admin=is_admin,
                is_master=is_master,
                rated_games=0,
                online_tournaments=0,
                flagged=False,
                rating=rating,
                created_at=self._now(),
            )
            session.add(row)
            session.flush()
            return _user(row)

    def authenticate(self, username: str, password: str) -> UserInfo | None:
        """The user if the password is right (a hash is checked even for unknown names)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        hasher = _hasher()
        with self.store.reading() as session:
            row = session.scalars(
                select(UserRow).where(UserRow.username == username.strip().lower())
            ).first()
        if row is None:
            # the same work as for a real user: no timing hint that the name is unknown
            with contextlib.suppress(VerificationError, InvalidHashError):
                hasher.verify(_DUMMY_HASH, password)
            return None
        try:
            hasher.verify(row.password_hash, password)
        except (VerificationError, InvalidHashError):
            return None
        return _user(row)

    def user(self, user_id: int) -> UserInfo:
        with self.store.reading() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError(f"there is no user {user_id}")
            return _user(row)

    def find_user(self, username: str) -> UserInfo | None:
        with self.store.reading() as session:
            row = session.scalars(
                select(UserRow).where(UserRow.username == username.strip().lower())
            ).first()
            return None if row is None else _user(row)

    def users(self) -> list[UserInfo]:
        with self.store.reading() as session:
            return [_user(r) for r in session.scalars(select(UserRow).order_by(UserRow.id))]

    def set_user(self, user_id: int, *, actor: str = "", **values: Any) -> UserInfo:
        """An administrator changes an account's settings. The flag, the granted master
        status and the adjustments go through :meth:`flag`/:meth:`unflag`,
        :meth:`set_master` and :meth:`adjust`, so each is recorded (flagging a player
        of a running tournament needs :meth:`flag` with a decision per tournament)."""
        unknown = sorted(set(values) - set(USER_FLAGS))
        if unknown:
            raise RuleError(f"unknown account setting {unknown[0]!r}")
        why = "set with the account's settings"
        with self.store.reading() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError(f"there is no user {user_id}")
            flagged, granted = row.flagged, row.is_master
            adjusted = (row.rated_games, row.online_tournaments)
        if "flagged" in values and bool(values["flagged"]) != flagged:
            if values["flagged"]:
                self.flag(user_id, why, actor=actor)
            else:
                self.unflag(user_id, why, actor=actor)
        if "is_master" in values and bool(values["is_master"]) != granted:
            self.set_master(user_id, bool(values["is_master"]), reason=why, actor=actor)
        games = values.get("rated_games", adjusted[0])
        tournaments = values.get("online_tournaments", adjusted[1])
        if (games, tournaments) != adjusted:
            self.adjust(
                user_id, games=int(games), tournaments=int(tournaments), reason=why, actor=actor
            )
        plain = {k: v for k, v in values.items() if k in ("is_admin", "rating")}
        with self.store.transaction() as session:
            row = session.get(UserRow, user_id)
            assert row is not None
            for name, value in plain.items():
                setattr(row, name, value)
            session.flush()
            return _user(row)

    # -- API tokens ------------------------------------------------------------------

    def create_token(self, user_id: int, label: str = "") -> str:
        """A new API token for ``user_id``; shown once (only its hash is kept)."""
        token = "ct_" + secrets.token_urlsafe(32)
        with self.store.transaction() as session:
            session.add(
                ApiTokenRow(
                    user_id=user_id,
                    token_hash=token_hash(token),
                    label=label.strip()[:100],
                    created_at=self._now(),
                )
            )
        return token

    def user_for_token(self, token: str) -> UserInfo | None:
        with self.store.reading() as session:
            row = session.scalars(
                select(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash(token))
            ).first()
            if row is None:
                return None
            user = session.get(UserRow, row.user_id)
            return None if user is None else _user(user)

    def tokens(self, user_id: int) -> list[tuple[int, str, str]]:
        with self.store.reading() as session:
            rows = session.scalars(select(ApiTokenRow).where(ApiTokenRow.user_id == user_id))
            return [(r.id, r.label, r.created_at) for r in rows]

    def revoke_token(self, user_id: int, token_id: int) -> None:
        with self.store.transaction() as session:
            row = session.get(ApiTokenRow, token_id)
            if row is None or row.user_id != user_id:
                raise NotFoundError(f"there is no token {token_id}")
            session.delete(row)

    # -- tournaments: owner, approval, staff -----------------------------------------

    def claim(self, tournament_id: int, owner: UserInfo, *, actor: str = "") -> AccessInfo:
        """``owner`` created the tournament: it is theirs; a master's waits for approval.

        Recorded in the tournament's history (who, when, what), like every change of
        its owner, staff, access settings and linked accounts (see :meth:`_log`)."""
        approval = "approved" if owner.is_admin else "pending"
        with self.store.transaction() as session:
            locked = self._lock(session, tournament_id)
            before_access = session.get(AccessRow, tournament_id)
            before_staff = session.get(StaffRow, (tournament_id, owner.id))
            was = (
                None
                if before_access is None
                else {"owner_id": before_access.owner_id, "approval": before_access.approval}
            )
            was_role = None if before_staff is None else before_staff.role
            session.merge(
                AccessRow(
                    tournament_id=tournament_id,
                    owner_id=owner.id,
                    approval=approval,
                    self_registration=False,
                    eligibility={},
                )
            )
            session.merge(StaffRow(tournament_id=tournament_id, user_id=owner.id, role="organiser"))
            session.flush()
            waits = (
                "approved (an administrator's tournament)"
                if approval == "approved"
                else "waiting for an administrator's approval"
            )
            self._log(
                session,
                locked,
                "claim",
                f"{_name(owner)} organises the tournament; regulations {waits}",
                {
                    "user": _user_ref(owner),
                    "access": {
                        "before": was,
                        "after": {"owner_id": owner.id, "approval": approval},
                    },
                    "role": {"before": was_role, "after": "organiser"},
                },
                actor or owner.username,
            )
        return self.access(tournament_id)

    def access(self, tournament_id: int) -> AccessInfo:
        with self.store.reading() as session:
            return _access(tournament_id, session.get(AccessRow, tournament_id))

    def set_access(self, tournament_id: int, *, actor: str = "", **values: Any) -> AccessInfo:
        """Change the registration window, self-registration, eligibility rules or (an
        administrator) the approval; what really changed is recorded in the history."""
        allowed = {"self_registration", "opens_at", "closes_at", "eligibility", "approval"}
        unknown = sorted(set(values) - allowed)
        if unknown:
            raise RuleError(f"unknown access setting {unknown[0]!r}")
        if "eligibility" in values:
            rules = {
                k: v
                for k, v in dict(values["eligibility"] or {}).items()
                if k not in OLD_ELIGIBILITY_KEYS
            }
            bad = sorted(set(rules) - set(ELIGIBILITY_KEYS))
            if bad:
                raise RuleError(f"unknown eligibility rule {bad[0]!r}")
            values = values | {"eligibility": rules}
        for name in ("opens_at", "closes_at"):
            if values.get(name):
                _parse_time(values[name])
        if values.get("approval") not in (None, "approved", "pending", "rejected"):
            raise RuleError("approval is approved, pending or rejected")
        with self.store.transaction() as session:
            locked = self._lock(session, tournament_id)
            row = session.get(AccessRow, tournament_id)
            if row is None:
                row = AccessRow(
                    tournament_id=tournament_id,
                    approval="approved",
                    self_registration=False,
                    eligibility={},
                )
                session.add(row)
            before: dict[str, Any] = {}
            after: dict[str, Any] = {}
            for name, value in values.items():
                current = getattr(row, name)
                if name == "eligibility":
                    current = dict(current or {})
                    value = dict(value or {})
                if current != value:
                    before[name] = current
                    after[name] = value
                setattr(row, name, value)
            session.flush()
            if after:
                approval = "approval" in after
                self._log(
                    session,
                    locked,
                    "approval" if approval and len(after) == 1 else "access",
                    _describe_access(before, after),
                    {"access": {"before": before, "after": after}},
                    actor,
                )
            return _access(tournament_id, row)

    def staff(self, tournament_id: int) -> dict[int, str]:
        with self.store.reading() as session:
            rows = session.scalars(select(StaffRow).where(StaffRow.tournament_id == tournament_id))
            return {r.user_id: r.role for r in rows}

    def set_staff(
        self, tournament_id: int, user_id: int, role: str | None, *, actor: str = ""
    ) -> None:
        """Make ``user_id`` an organiser or helper of the tournament (None: remove)."""
        if role not in (None, "organiser", "helper"):
            raise RuleError("a member of staff is an organiser or a helper")
        with self.store.transaction() as session:
            locked = self._lock(session, tournament_id)
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError(f"there is no user {user_id}")
            row = session.get(StaffRow, (tournament_id, user_id))
            before = None if row is None else row.role
            if before == role:
                return
            if role == "organiser" and not _user(user).may_organise:
                raise RuleError(
                    f"{user.username} cannot organise: an organiser is an administrator or a "
                    "master (a winner of an over-the-board event of the site); make them a helper"
                )
            if role == "organiser":
                problem = organiser_problem_staff(session, tournament_id, user_id)
                if problem:
                    raise RuleError(f"{user.username} cannot organise: {problem}")
            elif before == "organiser":
                problem = self._leaving_organiser(session, tournament_id, user_id)
                if problem:
                    raise RuleError(problem)
            if role is None:
                if row is not None:
                    session.delete(row)
            elif row is None:
                session.add(StaffRow(tournament_id=tournament_id, user_id=user_id, role=role))
            else:
                row.role = role
            session.flush()
            who = _name(_user(user))
            if role is None:
                summary = f"staff: {who} is no longer {_article(before)}"
            elif before is None:
                summary = f"staff: {who} is now {_article(role)}"
            else:
                summary = f"staff: {who} is now {_article(role)} (was {_article(before)})"
            self._log(
                session,
                locked,
                "staff",
                summary,
                {"user": _user_ref(_user(user)), "role": {"before": before, "after": role}},
                actor,
            )

    def role(self, user: UserInfo | None, tournament_id: int) -> str | None:
        """``admin``, ``organiser``, ``helper``, ``player`` or None (a spectator)."""
        if user is None:
            return None
        if user.is_admin:
            return "admin"
        with self.store.reading() as session:
            staff = session.get(StaffRow, (tournament_id, user.id))
            if staff is not None:
                return staff.role
            linked = session.scalars(
                select(EntryAccountRow).where(
                    EntryAccountRow.tournament_id == tournament_id,
                    EntryAccountRow.user_id == user.id,
                )
            ).first()
            return "player" if linked is not None else None

    def pending(self) -> list[int]:
        """Tournaments of masters waiting for an administrator's approval."""
        with self.store.reading() as session:
            rows = session.scalars(select(AccessRow).where(AccessRow.approval == "pending"))
            return [r.tournament_id for r in rows]

    # -- the tournament's history ----------------------------------------------------

    def _lock(self, session: Session, tournament_id: int) -> TournamentRow:
        """The tournament row, locked like every tournament change (first, so the lock
        order is the services'); NotFoundError if there is none."""
        query = select(TournamentRow).where(TournamentRow.id == tournament_id).with_for_update()
        row = session.scalars(query).one_or_none()
        if row is None:
            raise NotFoundError(f"there is no tournament {tournament_id} in this database")
        return row

    def _log(
        self,
        session: Session,
        row: TournamentRow,
        kind: str,
        summary: str,
        data: dict[str, Any],
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


def _name(user: UserInfo) -> str:
    if user.display_name and user.display_name.lower() != user.username:
        return f"{user.username} ({user.display_name})"
    return user.username


def _user_ref(user: UserInfo) -> dict[str, Any]:
    return {"id": user.id, "username": user.username}


def _article(role: str | None) -> str:
    return {"organiser": "an organiser", "helper": "a helper"}.get(str(role), str(role))


def _describe_access(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What a change of the access settings did, in one line."""
    parts: list[str] = []
    if "approval" in after:
        parts.append(
            {
                "approved": "regulations approved by an administrator",
                "rejected": "regulations rejected by an administrator",
                "pending": "regulations waiting for an administrator's approval again",
            }[after["approval"]]
        )
    if "self_registration" in after:
        parts.append(
            "self-registration opened" if after["self_registration"] else "self-registration closed"
        )
    for name, label in (("opens_at", "registration opens"), ("closes_at", "registration closes")):
        if name in after:
            value = after[name]
            parts.append(f"{label} {value}" if value else f"{label}: no limit")
    if "eligibility" in after:
        rules = after["eligibility"]
        listed = []
        if rules.get("min_rated_games"):
            listed.append(f"at least {counted(rules['min_rated_games'], 'rated game')}")
        if rules.get("min_online_tournaments"):
            need = rules["min_online_tournaments"]
            listed.append(f"at least {counted(need, 'online tournament')}")
        parts.append("eligibility: " + ("; ".join(listed) if listed else "anyone"))
    if list(after) == ["approval"]:
        return parts[0]
    return "access: " + ", ".join(parts)


def _parse_time(text: str) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(str(text))
    except ValueError:
        raise RuleError(f"{text!r} is not a date and time (YYYY-MM-DDTHH:MM)") from None
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


_DUMMY_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$"
    "RdescudvJCsgt3ub+b+dWRWJTmaaJObG3xsFfkJu2Pk"
)
