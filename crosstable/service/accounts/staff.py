"""A tournament's staff: organisers and helpers, and the role of a user in it (who
may do what)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.base import (
    AccountsFrame,
    UserInfo,
    name_of,
    user_info,
    user_ref,
)
from crosstable.service.errors import NotFoundError
from crosstable.service.organisers import organiser_problem_staff, organisers, players
from crosstable.store.accounts_models import (
    EntryAccountRow,
    StaffRow,
    UserRow,
)
from crosstable.store.models import GameRow


class Staff:
    """Organisers, helpers, and every user's role."""

    def __init__(self, frame: AccountsFrame) -> None:
        self.frame = frame

    def staff(self, tournament_id: int) -> dict[int, str]:
        with self.frame.store.reading() as session:
            rows = session.scalars(select(StaffRow).where(StaffRow.tournament_id == tournament_id))
            return {r.user_id: r.role for r in rows}

    def playing(self, tournament_id: int) -> set[int]:
        """The accounts with an entry in the tournament (an entry removed since its link
        was made does not count: the organisers' rule reads the same)."""
        with self.frame.store.reading() as session:
            return players(session, tournament_id)

    def set_staff(
        self, tournament_id: int, user_id: int, role: str | None, *, actor: str = ""
    ) -> None:
        """Make ``user_id`` an organiser or helper of the tournament (None: remove)."""
        if role not in (None, "organiser", "helper"):
            raise RuleError("a member of staff is an organiser or a helper")
        with self.frame.store.transaction() as session:
            locked = self.frame.lock(session, tournament_id)
            user = session.get(UserRow, user_id)
            if user is None:
                raise NotFoundError("there is no user {user}", user=user_id)
            row = session.get(StaffRow, (tournament_id, user_id))
            before = None if row is None else row.role
            if before == role:
                return
            if role == "organiser" and not user_info(user).may_organise:
                raise RuleError(
                    (
                        "{name} cannot organise: an organiser is an administrator or a master (a "
                        "winner of an over-the-board event of the site); make them a helper"
                    ),
                    name=user.username,
                )
            if role == "organiser":
                problem = organiser_problem_staff(session, tournament_id, user_id)
                if problem:
                    raise RuleError(
                        "{name} cannot organise: {problem}", name=user.username, problem=problem
                    )
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
            who = name_of(user_info(user))
            if role is None:
                summary = Message(
                    "staff: {who} is no longer {role}", who=who, role=_article(before)
                )
            elif before is None:
                summary = Message("staff: {who} is now {role}", who=who, role=_article(role))
            else:
                summary = Message(
                    "staff: {who} is now {role} (was {before})",
                    who=who,
                    role=_article(role),
                    before=_article(before),
                )
            self.frame.log(
                session,
                locked,
                "staff",
                summary,
                {"user": user_ref(user_info(user)), "role": {"before": before, "after": role}},
                actor,
            )

    def role(self, user: UserInfo | None, tournament_id: int) -> str | None:
        """``admin``, ``organiser``, ``helper``, ``player`` or None (a spectator)."""
        if user is None:
            return None
        if user.is_admin:
            return "admin"
        with self.frame.store.reading() as session:
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

    def plays_in_game(
        self, user: UserInfo | None, tournament_id: int, round_number: int, board: int
    ) -> bool:
        """Whether ``user``'s account is linked to White or Black of the game on
        ``board`` of round ``round_number`` (False for an unknown game)."""
        if user is None:
            return False
        with self.frame.store.reading() as session:
            game = session.get(GameRow, (tournament_id, round_number, board))
            if game is None:
                return False
            linked = session.scalars(
                select(EntryAccountRow.number).where(
                    EntryAccountRow.tournament_id == tournament_id,
                    EntryAccountRow.user_id == user.id,
                    EntryAccountRow.number.in_((game.white, game.black)),
                )
            ).first()
            return linked is not None

    def _leaving_organiser(self, session: Session, tournament_id: int, user_id: int) -> str | None:
        """Why ``user_id`` may not stop organising (the organisers left would all play)."""
        left = [u for u in organisers(session, tournament_id) if u.id != user_id]
        playing = players(session, tournament_id)
        if len(left) == 1 and left[0].id in playing:
            return Message(
                "organisers: a sole organiser may not play in their own tournament ({name} "
                "would organise alone and plays)",
                name=left[0].username,
            )
        if left and all(u.id in playing for u in left):
            return (
                "organisers: with several organisers, at least one of them does not play "
                "(every organiser left would play)"
            )
        return None


def _article(role: str | None) -> str:
    return {"organiser": "an organiser", "helper": "a helper"}.get(str(role), str(role))
