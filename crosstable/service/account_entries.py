"""Entries tied to accounts (R-OR-3, R-SE-8, R-X-1; issue 5, issue 12 items 2–4).

Which entry (registration number) of a tournament belongs to which account, and
what may keep an account's entry out: the site-wide fair-play ban, an organiser who
would leave no organiser off the board (:mod:`crosstable.service.organisers`), and,
for self-registration, the approval, the window and the eligibility counted from the
site's data (:mod:`crosstable.service.eligibility`). Mixed into
:class:`crosstable.service.accounts.Accounts`; every link and unlink is recorded in
the tournament's history like the other access changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.service.clock import Clock
from crosstable.service.eligibility import eligibility_problems, playing_record, rules_of
from crosstable.service.errors import NotFoundError
from crosstable.service.fair_play import fair_play_problem
from crosstable.service.organisers import organiser_problem_joining
from crosstable.store import Store
from crosstable.store.accounts_models import EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, TournamentRow

if TYPE_CHECKING:
    from crosstable.service.accounts import AccessInfo, UserInfo


class EntryAccounts:
    """The accounts' entries (mixed into :class:`~crosstable.service.accounts.Accounts`)."""

    store: Store
    clock: Clock

    if TYPE_CHECKING:

        def _lock(self, session: Session, tournament_id: int) -> TournamentRow: ...

        def _log(
            self,
            session: Session,
            row: TournamentRow,
            kind: str,
            summary: str,
            data: dict[str, Any],
            actor: str,
        ) -> None: ...

        def access(self, tournament_id: int) -> AccessInfo: ...

        def user(self, user_id: int) -> UserInfo: ...

    # -- players with accounts -------------------------------------------------------

    def link_entry(self, tournament_id: int, number: int, user_id: int, *, actor: str = "") -> None:
        """The entry (registration number) ``number`` is the account ``user_id``'s."""
        with self.store.transaction() as session:
            locked = self._lock(session, tournament_id)
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError(f"there is no user {user_id}")
            row = session.get(EntryAccountRow, (tournament_id, number))
            before = None if row is None else row.user_id
            if before == user_id:
                return
            problems = _entry_problems(session, tournament_id, user)
            if problems:
                raise RuleError(
                    f"{user.username} cannot play in this tournament: " + "; ".join(problems)
                )
            previous = None if before is None else session.get(UserRow, before)
            session.merge(
                EntryAccountRow(tournament_id=tournament_id, number=number, user_id=user_id)
            )
            session.flush()
            entry = _entry_name(session, tournament_id, number)
            was = "" if previous is None else f" (was {previous.username})"
            self._log(
                session,
                locked,
                "account-link",
                f"{entry} linked to the account {user.username}{was}",
                {
                    "number": number,
                    "user": {"id": user.id, "username": user.username},
                    "user_id": {"before": before, "after": user_id},
                },
                actor,
            )

    def unlink_entry(self, tournament_id: int, number: int, *, actor: str = "") -> None:
        """The entry ``number`` no longer belongs to an account (nothing to do: no event)."""
        with self.store.transaction() as session:
            locked = self._lock(session, tournament_id)
            row = session.get(EntryAccountRow, (tournament_id, number))
            if row is None:
                return
            user = session.get(UserRow, row.user_id)
            before = row.user_id
            session.delete(row)
            session.flush()
            entry = _entry_name(session, tournament_id, number)
            username = f"user {before}" if user is None else user.username
            self._log(
                session,
                locked,
                "account-unlink",
                f"{entry} no longer linked to the account {username}",
                {
                    "number": number,
                    "user": None if user is None else {"id": user.id, "username": user.username},
                    "user_id": {"before": before, "after": None},
                },
                actor,
            )

    def entry_of(self, tournament_id: int, user_id: int) -> int | None:
        """The registration number of the user's (still existing) entry, if any."""
        with self.store.reading() as session:
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
        with self.store.reading() as session:
            rows = session.scalars(
                select(EntryAccountRow).where(EntryAccountRow.tournament_id == tournament_id)
            )
            return {row.number: row.user_id for row in rows}

    def registration_problems(self, tournament_id: int, user: UserInfo) -> list[str]:
        """Why ``user`` cannot register themself now (empty: they can)."""
        from crosstable.service.accounts import _parse_time as parse_time

        access = self.access(tournament_id)
        problems: list[str] = []
        if access.approval != "approved":
            problems.append(
                "the regulations are waiting for an administrator's approval"
                if access.approval == "pending"
                else "the regulations were not approved"
            )
        if not access.self_registration:
            problems.append("the organiser has not opened self-registration")
        now = self.clock.now()
        if access.opens_at and now < parse_time(access.opens_at):
            problems.append(f"registration opens at {access.opens_at}")
        if access.closes_at and now >= parse_time(access.closes_at):
            problems.append(f"registration closed at {access.closes_at}")
        if self.entry_of(tournament_id, user.id) is not None:
            problems.append("you are registered already")
        with self.store.reading() as session:
            row = session.get(UserRow, user.id)
            tournament = session.get(TournamentRow, tournament_id)
            if row is None or tournament is None:
                raise NotFoundError(f"there is no tournament {tournament_id} in this database")
            problems.extend(_entry_problems(session, tournament_id, row))
            rules = rules_of(access.eligibility, tournament.regulations)
            problems.extend(eligibility_problems(rules, playing_record(session, row)))
        return problems

    def entry_problems(self, tournament_id: int, user_id: int) -> list[str]:
        """Why an entry of ``user_id`` may not be in the tournament (fair play, organisers;
        empty: it may): asked before an organiser adds a player with an account."""
        with self.store.reading() as session:
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError(f"there is no user {user_id}")
            return _entry_problems(session, tournament_id, user)

    def check_entry(self, tournament_id: int, user_id: int) -> None:
        """RuleError when an entry of ``user_id`` may not be in the tournament."""
        problems = self.entry_problems(tournament_id, user_id)
        if problems:
            name = self.user(user_id).username
            raise RuleError(f"{name} cannot play in this tournament: " + "; ".join(problems))

    def _leaving_organiser(self, session: Session, tournament_id: int, user_id: int) -> str | None:
        """Why ``user_id`` may not stop organising (the organisers left would all play)."""
        from crosstable.service.organisers import organisers, players

        left = [u for u in organisers(session, tournament_id) if u.id != user_id]
        playing = players(session, tournament_id)
        if left and all(u.id in playing for u in left):
            return (
                "organisers: with several organisers, at least one of them does not play "
                "(every organiser left would play)"
            )
        return None


def _entry_problems(session: Session, tournament_id: int, user: UserRow) -> list[str]:
    problems = [fair_play_problem(user), organiser_problem_joining(session, tournament_id, user.id)]
    return [p for p in problems if p]


def _entry_name(session: Session, tournament_id: int, number: int) -> str:
    entry = session.get(EntryRow, (tournament_id, number))
    return f"player {number}" if entry is None else f"player {number} {entry.name}"
