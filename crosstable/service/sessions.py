"""Web sessions kept on the server, password changes, and sign-in limits shared by every
process on one database.

* :class:`Sessions`: signing in opens a session — a random id that goes into the
  signed cookie, and a row (``web_sessions``) holding only its SHA-256, the user,
  when it was opened, last seen and revoked. A request is signed in only while its
  row exists, is not revoked and was seen within :data:`SESSION_IDLE`; signing out,
  a password change and an administrator's "sign out everywhere" revoke rows, so a
  copied or replayed cookie is worth nothing afterwards.
* :class:`SignInLimits`: failed sign-ins are counted per address and per account
  in fixed windows (``sign_in_counters``), in the database, so every ``serve``
  process on it sees the same counts; a counter of a past window is deleted when
  the next failure is counted, so the table holds at most the current window.
  Requests with an API token that matches nothing are counted per address the same
  way (:meth:`SignInLimits.bad_token`).

>>> import datetime as dt
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock
>>> from crosstable.service.accounts import Accounts
>>> store = open_store("sqlite:///:memory:")
>>> clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC))
>>> ann = Accounts(store, clock=clock).create_user("ann", "correct horse")
>>> sessions = Sessions(store, clock=clock)
>>> sid = sessions.open(ann.id)
>>> sessions.user(sid).username
'ann'
>>> sessions.close(sid), sessions.user(sid)
(True, None)
>>> limits = SignInLimits(store, clock=clock, per_account=2)
>>> for _ in range(2):
...     limits.failed("10.0.0.1", "ann")
>>> limits.refused("10.0.0.9", "Ann")  # the account's limit, from any address: seconds to wait
600
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from sqlalchemy import Update, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.service.accounts.base import MIN_PASSWORD, UserInfo, password_hasher, user_info
from crosstable.service.clock import Clock, SystemClock
from crosstable.service.errors import NotFoundError
from crosstable.store import Store
from crosstable.store.accounts_models import SessionRow, SignInCounterRow, UserRow

#: a session not used for this long is over (the cookie's own lifetime is the same)
SESSION_IDLE = dt.timedelta(days=14)
#: "last seen" is written at most this often per session (not at every request)
SEEN_EVERY = dt.timedelta(minutes=5)


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def _stamp(moment: dt.datetime) -> str:
    """ISO text in UTC: every stamp has the same form, so the texts compare as times."""
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


class Sessions:
    """Web sessions: opened at sign-in, checked at every request, revoked on the server."""

    def __init__(
        self, store: Store, *, clock: Clock | None = None, idle: dt.timedelta = SESSION_IDLE
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.idle = idle

    def open(self, user_id: int) -> str:
        """A new session of ``user_id``; its id (for the signed cookie; only a hash is kept).

        Sessions idle for longer than :attr:`idle` are deleted on the way, so the table
        holds the sessions of the last two weeks at most."""
        session_id = secrets.token_urlsafe(32)
        now = self.clock.now()
        with self.store.transaction() as session:
            if session.get(UserRow, user_id) is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            session.execute(
                delete(SessionRow).where(SessionRow.last_seen_at < _stamp(now - self.idle))
            )
            session.add(
                SessionRow(
                    token_hash=session_hash(session_id),
                    user_id=user_id,
                    created_at=_stamp(now),
                    last_seen_at=_stamp(now),
                    revoked_at=None,
                )
            )
        return session_id

    def user(self, session_id: str) -> UserInfo | None:
        """The user of a valid session; None when it is unknown, revoked or idle too long."""
        if not session_id or len(session_id) > 200:
            return None
        now = self.clock.now()
        with self.store.reading() as session:
            found = session.execute(
                select(SessionRow, UserRow)
                .join(UserRow, UserRow.id == SessionRow.user_id)
                .where(SessionRow.token_hash == session_hash(session_id))
            ).first()
            if found is None:
                return None
            row, user_row = found
            seen, revoked, row_id = row.last_seen_at, row.revoked_at, row.id
            user = user_info(user_row)
        if revoked is not None or seen < _stamp(now - self.idle):
            return None
        if seen < _stamp(now - SEEN_EVERY):
            with self.store.transaction() as session:
                session.execute(
                    update(SessionRow)
                    .where(SessionRow.id == row_id, SessionRow.revoked_at.is_(None))
                    .values(last_seen_at=_stamp(now))
                )
        return user

    def close(self, session_id: str) -> bool:
        """Sign-out: revoke this session (True if it was valid)."""
        with self.store.transaction() as session:
            done = session.execute(
                self._revoking().where(SessionRow.token_hash == session_hash(session_id))
            )
            return bool(getattr(done, "rowcount", 0))

    def revoke_all(self, user_id: int) -> int:
        """Sign out everywhere: revoke every session of ``user_id``; how many were valid."""
        with self.store.transaction() as session:
            if session.get(UserRow, user_id) is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            return self._revoke_user(session, user_id)

    def active(self, user_id: int) -> int:
        """How many sessions of ``user_id`` are valid now."""
        cutoff = _stamp(self.clock.now() - self.idle)
        with self.store.reading() as session:
            rows = session.scalars(
                select(SessionRow.id).where(
                    SessionRow.user_id == user_id,
                    SessionRow.revoked_at.is_(None),
                    SessionRow.last_seen_at >= cutoff,
                )
            )
            return len(list(rows))

    def change_password(self, user_id: int, current: str, new: str) -> str:
        """Set a new password (the current one must be given): every session of the user
        is revoked, and a new one is opened for the browser that asked (its id)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        if len(new) < MIN_PASSWORD:
            raise RuleError("a password needs at least {count} characters", count=MIN_PASSWORD)
        if len(new) > 1000 or len(current) > 1000:
            raise RuleError("a password has at most 1000 characters")
        hasher = password_hasher()
        with self.store.reading() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            stored = row.password_hash
        try:
            hasher.verify(stored, current)
        except (VerificationError, InvalidHashError):
            raise RuleError("the current password is not right") from None
        digest = hasher.hash(new)
        with self.store.transaction() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            row.password_hash = digest
            self._revoke_user(session, user_id)
        return self.open(user_id)

    def _revoking(self) -> Update:
        return (
            update(SessionRow)
            .where(SessionRow.revoked_at.is_(None))
            .values(revoked_at=_stamp(self.clock.now()))
        )

    def _revoke_user(self, session: Session, user_id: int) -> int:
        done = session.execute(self._revoking().where(SessionRow.user_id == user_id))
        return int(getattr(done, "rowcount", 0))


class SignInLimits:
    """Failed sign-ins per address and per account, per fixed window, in the database.

    An attempt is refused (before the password is checked) while the address has
    ``per_address`` or the account ``per_account`` failures in the current window;
    sign-ups are counted per address (``signups``, every attempt). The key of an
    account is the SHA-256 of its lower-cased name, so unknown names cost no more
    room than known ones and the table names nobody.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        per_address: int = 20,
        per_account: int = 10,
        signups: int = 10,
        bad_tokens: int = 20,
        window: int = 600,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.per_address = per_address
        self.per_account = per_account
        self.signups = signups
        self.bad_tokens = bad_tokens
        self.window = window

    def refused(self, address: str, username: str) -> int | None:
        """Seconds to wait if a sign-in from ``address`` as ``username`` is refused now."""
        start, wait = self._window()
        keys = {
            _key("address", address): self.per_address,
            _key("account", username): self.per_account,
        }
        with self.store.reading() as session:
            rows = session.execute(
                select(SignInCounterRow.key, SignInCounterRow.attempts).where(
                    SignInCounterRow.window_start == start, SignInCounterRow.key.in_(list(keys))
                )
            ).all()
        over = any(attempts >= keys[key] for key, attempts in rows)
        return wait if over else None

    def failed(self, address: str, username: str) -> None:
        """Count one failed sign-in for the address and for the account."""
        self._count(_key("address", address), _key("account", username))

    def signup(self, address: str) -> int | None:
        """Count a sign-up attempt from ``address``; seconds to wait if it is refused."""
        return self._count_below(_key("signup", address), self.signups)

    def bad_token(self, address: str) -> int | None:
        """A request from ``address`` came with an API token that matches nothing: count
        it; seconds to wait if the address is at its limit (``bad_tokens`` a window;
        then it is refused and not counted, so a flood adds no rows).

        There is no account to count it against (the token names nobody), and a prefix
        of a random token names nobody either: the address is the key. A valid token is
        never counted or refused here, so nobody's wrong tokens slow anyone else's.
        """
        return self._count_below(_key("token", address), self.bad_tokens)

    def _count_below(self, key: str, limit: int) -> int | None:
        """Count one attempt under ``key`` unless its window already holds ``limit``;
        the seconds to wait when it does (then nothing is written: a flood adds no rows)."""
        start, wait = self._window()
        with self.store.reading() as session:
            attempts = session.scalar(
                select(SignInCounterRow.attempts).where(
                    SignInCounterRow.window_start == start, SignInCounterRow.key == key
                )
            )
        if attempts is not None and attempts >= limit:
            return wait
        self._count(key)
        return None

    def _window(self) -> tuple[int, int]:
        """The current window's start (seconds since 1970) and the seconds left in it."""
        now = int(self.clock.now().timestamp())
        start = now - now % self.window
        return start, max(1, start + self.window - now)

    def _count(self, *keys: str) -> None:
        start, _wait = self._window()
        insert: Any = pg_insert if self.store.dialect == "postgresql" else sqlite_insert
        with self.store.transaction() as session:
            session.execute(delete(SignInCounterRow).where(SignInCounterRow.window_start < start))
            for key in keys:
                statement = insert(SignInCounterRow).values(key=key, window_start=start, attempts=1)
                session.execute(
                    statement.on_conflict_do_update(
                        index_elements=["key", "window_start"],
                        set_={"attempts": SignInCounterRow.attempts + 1},
                    )
                )


def _key(kind: str, value: str) -> str:
    """A counter's key: the kind and the SHA-256 of the value (lower-cased, trimmed)."""
    digest = hashlib.sha256(value.strip().lower().encode("utf-8", "replace")).hexdigest()
    return f"{kind}:{digest[:64]}"


__all__ = ["SESSION_IDLE", "Sessions", "SignInLimits", "session_hash"]
