"""Accounts: users and their passwords (argon2 hashes, argon2-cffi), found by name,
and an administrator's settings of an account."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.service.accounts.base import (
    MIN_PASSWORD,
    USER_FLAGS,
    AccountsFrame,
    UserInfo,
    password_hasher,
    unused_hash,
    user_info,
)
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.fair_play import PortalRules
from crosstable.service.players import checked_rating
from crosstable.store.accounts_models import UserRow

_USERNAME = re.compile(r"^[A-Za-z0-9_.\-]{2,40}$")
#: the names made for accounts that sign in with Telegram: the colon
#: is refused in names people choose, so nobody can take a Telegram user's name first
#: (accounts made as ``tg<id>`` before keep their names: they are found by their link)
_DERIVED = re.compile(r"^tg:[0-9]{1,19}$")


def telegram_username(telegram_id: int) -> str:
    """The user name of an account made for a Telegram user: ``tg:<id>``."""
    return f"tg:{telegram_id}"


class Users:
    """Users and passwords; the settings an administrator changes through the acts
    that record themselves (``rules``, :class:`~crosstable.service.fair_play.PortalRules`)."""

    def __init__(self, frame: AccountsFrame, rules: PortalRules) -> None:
        self.frame = frame
        self.rules = rules

    def create_user(
        self,
        username: str,
        password: str,
        *,
        display_name: str = "",
        is_admin: bool = False,
        is_master: bool = False,
        rating: int | None = None,
        derived: bool = False,
    ) -> UserInfo:
        """A new account; ``derived`` for a name the site makes (:func:`telegram_username`),
        which a person cannot choose."""
        name = username.strip()
        if not (_DERIVED if derived else _USERNAME).match(name):
            raise RuleError("a user name has 2–40 letters, digits, dots, dashes or underscores")
        if len(password) < MIN_PASSWORD:
            raise RuleError("a password needs at least {count} characters", count=MIN_PASSWORD)
        shown = " ".join((display_name or name).split())
        rating = checked_rating(rating)
        digest = password_hasher().hash(password)
        with self.frame.store.transaction() as session:
            taken = session.scalars(select(UserRow).where(UserRow.username == name.lower())).first()
            if taken is not None:
                raise ConflictError("the user name {name} is taken", name=repr(name))
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
                created_at=self.frame.now(),
            )
            session.add(row)
            session.flush()
            return user_info(row)

    def authenticate(self, username: str, password: str) -> UserInfo | None:
        """The user if the password is right (a hash is checked even for unknown names)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        hasher = password_hasher()
        with self.frame.store.reading() as session:
            row = session.scalars(
                select(UserRow).where(UserRow.username == username.strip().lower())
            ).first()
        if row is None:
            # the same work as for a real user: no timing hint that the name is unknown
            with contextlib.suppress(VerificationError, InvalidHashError):
                hasher.verify(unused_hash(hasher), password)
            return None
        try:
            hasher.verify(row.password_hash, password)
        except (VerificationError, InvalidHashError):
            return None
        return user_info(row)

    def user(self, user_id: int) -> UserInfo:
        with self.frame.store.reading() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            return user_info(row)

    def find_user(self, username: str) -> UserInfo | None:
        with self.frame.store.reading() as session:
            row = session.scalars(
                select(UserRow).where(UserRow.username == username.strip().lower())
            ).first()
            return None if row is None else user_info(row)

    def users(self) -> list[UserInfo]:
        with self.frame.store.reading() as session:
            return [user_info(r) for r in session.scalars(select(UserRow).order_by(UserRow.id))]

    def set_user(self, /, user_id: int, *, actor: str = "", **values: Any) -> UserInfo:
        """An administrator changes an account's settings. The flag, the granted master
        status and the adjustments go through the rules' acts (``flag``/``unflag``,
        ``set_master`` and ``adjust``), so each is recorded (flagging a player of a
        running tournament needs ``flag`` with a decision per tournament)."""
        unknown = sorted(set(values) - set(USER_FLAGS))
        if unknown:
            raise RuleError("unknown account setting {name}", name=repr(unknown[0]))
        why = "set with the account's settings"
        with self.frame.store.reading() as session:
            row = session.get(UserRow, user_id)
            if row is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            flagged, granted = row.flagged, row.is_master
            adjusted = (row.rated_games, row.online_tournaments)
        if "flagged" in values and bool(values["flagged"]) != flagged:
            if values["flagged"]:
                self.rules.flag(user_id, why, actor=actor)
            else:
                self.rules.unflag(user_id, why, actor=actor)
        if "is_master" in values and bool(values["is_master"]) != granted:
            self.rules.set_master(user_id, bool(values["is_master"]), reason=why, actor=actor)
        games = values.get("rated_games", adjusted[0])
        tournaments = values.get("online_tournaments", adjusted[1])
        if (games, tournaments) != adjusted:
            self.rules.adjust(
                user_id, games=int(games), tournaments=int(tournaments), reason=why, actor=actor
            )
        plain = {k: v for k, v in values.items() if k in ("is_admin", "rating")}
        if "rating" in plain:
            plain["rating"] = checked_rating(plain["rating"])
        with self.frame.store.transaction() as session:
            row = session.get(UserRow, user_id)
            assert row is not None
            for name, value in plain.items():
                setattr(row, name, value)
            session.flush()
            return user_info(row)
