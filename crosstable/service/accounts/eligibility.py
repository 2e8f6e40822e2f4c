"""What may keep an account's entry out of a tournament:
the site-wide fair-play ban, an organiser who would leave no organiser off the board
(:mod:`crosstable.service.organisers`), and, for self-registration, the approval, the
window and the eligibility counted from the site's data
(:mod:`crosstable.service.eligibility`)."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.approval import Approval
from crosstable.service.accounts.base import AccountsFrame, UserInfo, parse_time
from crosstable.service.accounts.entries import EntryLinks, joining_problems
from crosstable.service.accounts.users import Users
from crosstable.service.eligibility import eligibility_problems, playing_record, rules_of
from crosstable.service.errors import NotFoundError
from crosstable.service.levels import registration_level_problem
from crosstable.store.accounts_models import UserRow
from crosstable.store.models import TournamentRow


class Eligibility:
    """Whether a user may register, or an entry stay: it reads the access settings
    (``approval``), the user's entry (``links``) and the user (``users``)."""

    def __init__(
        self, frame: AccountsFrame, approval: Approval, links: EntryLinks, users: Users
    ) -> None:
        self.frame = frame
        self.approval = approval
        self.links = links
        self.users = users

    def registration_problems(self, tournament_id: int, user: UserInfo) -> list[str]:
        """Why ``user`` cannot register themself now (empty: they can)."""
        access = self.approval.access(tournament_id)
        problems: list[str] = []
        if access.approval != "approved":
            problems.append(
                "the regulations are waiting for an administrator's approval"
                if access.approval == "pending"
                else "the regulations were not approved"
            )
        if not access.self_registration:
            problems.append("the organiser has not opened self-registration")
        now = self.frame.clock.now()
        if access.opens_at and now < parse_time(access.opens_at):
            problems.append(Message("registration opens at {time}", time=access.opens_at))
        if access.closes_at and now >= parse_time(access.closes_at):
            problems.append(Message("registration closed at {time}", time=access.closes_at))
        if self.links.entry_of(tournament_id, user.id) is not None:
            problems.append("you are registered already")
        with self.frame.store.reading() as session:
            row = session.get(UserRow, user.id)
            tournament = session.get(TournamentRow, tournament_id)
            if row is None or tournament is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            problems.extend(joining_problems(session, tournament_id, row))
            rules = rules_of(access.eligibility, tournament.regulations)
            problems.extend(eligibility_problems(rules, playing_record(session, row)))
            level = registration_level_problem(session, tournament.regulations, row)
            if level is not None:
                problems.append(level)
        return problems

    def entry_problems(self, tournament_id: int, user_id: int) -> list[str]:
        """Why an entry of ``user_id`` may not be in the tournament (fair play, organisers;
        empty: it may): asked before an organiser adds a player with an account."""
        with self.frame.store.reading() as session:
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            problems = joining_problems(session, tournament_id, user)
            tournament = session.get(TournamentRow, tournament_id)
            if tournament is not None:
                level = registration_level_problem(session, tournament.regulations, user)
                if level is not None:
                    problems.append(level)
            return problems

    def check_entry(self, tournament_id: int, user_id: int) -> None:
        """RuleError when an entry of ``user_id`` may not be in the tournament."""
        problems = self.entry_problems(tournament_id, user_id)
        if problems:
            name = self.users.user(user_id).username
            raise RuleError(
                "{name} cannot play in this tournament: {problems}",
                name=name,
                problems=Message.joined("; ", problems),
            )
