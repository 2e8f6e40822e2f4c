"""An organiser asks that an account confirm an entry as its own; the account's owner
confirms (the entry is then linked to the account, as :meth:`EntryLinks.link_entry`
links it, and the history says so) or refuses. Nobody's games are tied to an account
without its owner's word.

One request an entry at a time (a new one replaces the old); a request is gone once
answered, withdrawn, or when the entry is linked another way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import ColumnElement, delete, select

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.entries import joining_problems
from crosstable.service.clock import Clock
from crosstable.service.errors import NotFoundError
from crosstable.store import Store
from crosstable.store.accounts_models import EntryAccountRow, UserRow
from crosstable.store.entry_request_models import EntryLinkRequestRow
from crosstable.store.models import EntryRow, TournamentRow


@dataclass(frozen=True, slots=True)
class EntryRequest:
    """A request waiting for an account's answer."""

    tournament_id: int
    tournament: str  # its name
    number: int  # the entry's registration number
    name: str  # the entry's name
    username: str  # the account asked
    requested_by: str
    requested_at: str


class Linker(Protocol):
    """What links a confirmed entry to its account: the accounts, or their
    :class:`~crosstable.service.accounts.entries.EntryLinks`."""

    def link_entry(
        self, tournament_id: int, number: int, user_id: int, *, actor: str = ...
    ) -> None: ...


class EntryRequests:
    """Requests to confirm entries, over ``links`` (which makes the link itself)."""

    def __init__(self, store: Store, clock: Clock, links: Linker) -> None:
        self.store = store
        self.clock = clock
        self.links = links

    def ask(self, tournament_id: int, number: int, username: str, *, actor: str) -> EntryRequest:
        """Ask the account ``username`` to confirm the entry ``number`` as its own."""
        now = self.clock.now().isoformat(timespec="seconds")
        with self.store.transaction() as session:
            tournament = session.get(TournamentRow, tournament_id)
            if tournament is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database",
                    tournament=tournament_id,
                )
            entry = session.get(EntryRow, (tournament_id, number))
            if entry is None:
                raise NotFoundError(
                    "tournament {tournament} has no player number {number}",
                    tournament=tournament_id,
                    number=number,
                )
            wanted = username.strip().lower()
            user = session.scalars(select(UserRow).where(UserRow.username == wanted)).first()
            if user is None:
                raise NotFoundError("there is no account {name}", name=repr(username.strip()))
            linked = session.get(EntryAccountRow, (tournament_id, number))
            if linked is not None and linked.user_id == user.id:
                raise RuleError(
                    "{entry} is already linked to the account {name}",
                    entry=Message("player {start} {name}", start=number, name=entry.name),
                    name=user.username,
                )
            problems = joining_problems(session, tournament_id, user)
            if problems:
                raise RuleError(
                    "{name} cannot play in this tournament: {problems}",
                    name=user.username,
                    problems=Message.joined("; ", problems),
                )
            session.merge(
                EntryLinkRequestRow(
                    tournament_id=tournament_id,
                    number=number,
                    user_id=user.id,
                    requested_by=actor[:200],
                    requested_at=now,
                )
            )
            return EntryRequest(
                tournament_id, tournament.name, number, entry.name, user.username, actor, now
            )

    def withdraw(self, tournament_id: int, number: int) -> bool:
        """The organiser takes the request for the entry back (False: there was none)."""
        with self.store.transaction() as session:
            found = session.get(EntryLinkRequestRow, (tournament_id, number))
            if found is not None:
                session.delete(found)
            return found is not None

    def waiting_in(self, tournament_id: int) -> dict[int, EntryRequest]:
        """Entry number → the request waiting for it, in one tournament."""
        waiting = self._waiting(EntryLinkRequestRow.tournament_id == tournament_id)
        return {r.number: r for r in waiting}

    def waiting_for(self, user_id: int) -> list[EntryRequest]:
        """The requests the account has not answered yet, oldest first."""
        return self._waiting(EntryLinkRequestRow.user_id == user_id)

    def answer(self, tournament_id: int, number: int, user_id: int, *, confirm: bool) -> bool:
        """The account's answer to the request for the entry: confirmed, the entry is
        linked to it (True); refused, the request is dropped (False)."""
        with self.store.reading() as session:
            found = session.get(EntryLinkRequestRow, (tournament_id, number))
            user = session.get(UserRow, user_id)
        if found is None or found.user_id != user_id or user is None:
            raise NotFoundError(
                "there is no request to confirm player {number} of tournament {tournament}",
                number=number,
                tournament=tournament_id,
            )
        if confirm:  # linked first: a refusal of the link (fair play) keeps the request
            self.links.link_entry(tournament_id, number, user_id, actor=user.username)
        with self.store.transaction() as session:
            session.execute(
                delete(EntryLinkRequestRow).where(
                    EntryLinkRequestRow.tournament_id == tournament_id,
                    EntryLinkRequestRow.number == number,
                    EntryLinkRequestRow.user_id == user_id,
                )
            )
        return confirm

    def _waiting(self, which: ColumnElement[bool]) -> list[EntryRequest]:
        with self.store.reading() as session:
            rows = session.execute(
                select(EntryLinkRequestRow, TournamentRow.name, EntryRow.name, UserRow.username)
                .join(TournamentRow, TournamentRow.id == EntryLinkRequestRow.tournament_id)
                .join(
                    EntryRow,
                    (EntryRow.tournament_id == EntryLinkRequestRow.tournament_id)
                    & (EntryRow.number == EntryLinkRequestRow.number),
                )
                .join(UserRow, UserRow.id == EntryLinkRequestRow.user_id)
                .where(which)
                .order_by(EntryLinkRequestRow.requested_at, EntryLinkRequestRow.tournament_id)
            ).all()
        return [
            EntryRequest(
                row.tournament_id,
                tournament,
                row.number,
                entry,
                username,
                row.requested_by,
                row.requested_at,
            )
            for row, tournament, entry, username in rows
        ]
