"""Which entry (registration number) of a tournament belongs to which account;
every link and unlink is recorded in
the tournament's history like the other access changes."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.base import AccountsFrame
from crosstable.service.errors import NotFoundError
from crosstable.service.fair_play import fair_play_problem
from crosstable.service.organisers import organiser_problem_joining
from crosstable.store.accounts_models import (
    EntryAccountRow,
    UserRow,
)
from crosstable.store.models import EntryRow


class EntryLinks:
    """Players with accounts."""

    def __init__(self, frame: AccountsFrame) -> None:
        self.frame = frame

    def link_entry(self, tournament_id: int, number: int, user_id: int, *, actor: str = "") -> None:
        """The entry (registration number) ``number`` is the account ``user_id``'s."""
        with self.frame.store.transaction() as session:
            locked = self.frame.lock(session, tournament_id)
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            row = session.get(EntryAccountRow, (tournament_id, number))
            before = None if row is None else row.user_id
            if before == user_id:
                return
            problems = joining_problems(session, tournament_id, user)
            if problems:
                raise RuleError(
                    "{name} cannot play in this tournament: {problems}",
                    name=user.username,
                    problems=Message.joined("; ", problems),
                )
            previous = None if before is None else session.get(UserRow, before)
            session.merge(
                EntryAccountRow(tournament_id=tournament_id, number=number, user_id=user_id)
            )
            session.flush()
            entry = _entry_name(session, tournament_id, number)
            said = (
                Message("{entry} linked to the account {name}", entry=entry, name=user.username)
                if previous is None
                else Message(
                    "{entry} linked to the account {name} (was {before})",
                    entry=entry,
                    name=user.username,
                    before=previous.username,
                )
            )
            self.frame.log(
                session,
                locked,
                "account-link",
                said,
                {
                    "number": number,
                    "user": {"id": user.id, "username": user.username},
                    "user_id": {"before": before, "after": user_id},
                },
                actor,
            )

    def unlink_entry(self, tournament_id: int, number: int, *, actor: str = "") -> None:
        """The entry ``number`` no longer belongs to an account (nothing to do: no event)."""
        with self.frame.store.transaction() as session:
            locked = self.frame.lock(session, tournament_id)
            row = session.get(EntryAccountRow, (tournament_id, number))
            if row is None:
                return
            user = session.get(UserRow, row.user_id)
            before = row.user_id
            session.delete(row)
            session.flush()
            entry = _entry_name(session, tournament_id, number)
            username = Message("user {id}", id=before) if user is None else user.username
            self.frame.log(
                session,
                locked,
                "account-unlink",
                Message(
                    "{entry} no longer linked to the account {name}", entry=entry, name=username
                ),
                {
                    "number": number,
                    "user": None if user is None else {"id": user.id, "username": user.username},
                    "user_id": {"before": before, "after": None},
                },
                actor,
            )

    def entry_of(self, tournament_id: int, user_id: int) -> int | None:
        """The registration number of the user's (still existing) entry, if any."""
        with self.frame.store.reading() as session:
            rows = session.scalars(
                select(EntryAccountRow).where(
                    EntryAccountRow.tournament_id == tournament_id,
                    EntryAccountRow.user_id == user_id,
                )
            ).all()
            for row in rows:
                if session.get(EntryRow, (tournament_id, row.number)) is not None:
                    return row.number
            return None

    def entry_accounts(self, tournament_id: int) -> dict[int, int]:
        """Registration number → user id of every entry tied to an account."""
        with self.frame.store.reading() as session:
            rows = session.scalars(
                select(EntryAccountRow).where(EntryAccountRow.tournament_id == tournament_id)
            )
            return {row.number: row.user_id for row in rows}


def joining_problems(session: Session, tournament_id: int, user: UserRow) -> list[str]:
    problems = [fair_play_problem(user), organiser_problem_joining(session, tournament_id, user.id)]
    return [p for p in problems if p]


def _entry_name(session: Session, tournament_id: int, number: int) -> str:
    entry = session.get(EntryRow, (tournament_id, number))
    return (
        Message("player {start}", start=number)
        if entry is None
        else Message("player {start} {name}", start=number, name=entry.name)
    )
