"""Masters and organisers (seed 002 "Правила организации очных турниров").

* A **master** is any winner of a finished over-the-board event of the site (an
  entry linked to the account with the final place 1 in a finished tournament whose
  regulations say ``venue_kind: otb``; of a group stage + knockout, the knockout's
  winner, not a group's; of a quads event, the winner of the strongest quad, 1): the
  status follows from the results. An administrator may still grant it
  (``users.is_master``) or revoke it; both are recorded in the account's record
  (``account_events``), and the last word of an administrator stands until the
  next one: a revoked master stays revoked even after another win, until an
  administrator grants the status again.
* A tournament may have several **organisers** (staff role ``organiser``; the
  creator is the first). A sole organiser may not play in it; with several, at
  least one of them does not play. Refused when an organiser registers (or is
  added or linked by an organiser), when a player is made an organiser, and at the
  start — each time with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.text import Message
from crosstable.service.details import Details
from crosstable.service.eligibility import QUAD, QUADS_EVENT, venue_kind
from crosstable.store.accounts_models import AccountEventRow, EntryAccountRow, StaffRow, UserRow
from crosstable.store.models import EntryRow, TournamentRow

MASTER_EVENTS = ("master-grant", "master-revoke")


@dataclass(frozen=True, slots=True)
class MasterStatus:
    """Whether an account is a master, and why (won events, or an administrator)."""

    is_master: bool
    #: the finished over-the-board events the account won, by name
    won: tuple[str, ...] = ()
    #: the administrator who granted it (or revoked it), if one did
    granted_by: str | None = None
    revoked_by: str | None = None

    def text(self) -> str:
        """``master: won Club OTB 2026`` / ``master: granted by ann`` / ``not a master``
        (a Message: the API answers it in the reader's language)."""
        if self.revoked_by is not None:
            return Message("not a master (revoked by {name})", name=self.revoked_by)
        if self.granted_by is not None:
            return Message("master: granted by {name}", name=self.granted_by)
        if self.won:
            return Message("master: won {events}", events=", ".join(self.won))
        return "not a master"


def won_events(session: Session, user_id: int) -> list[str]:
    """The names of the finished over-the-board events in which the account's entry
    placed first (one query of two columns: an account's status is read at every
    request)."""
    query = (
        select(TournamentRow.name, TournamentRow.regulations)
        .join(EntryAccountRow, EntryAccountRow.tournament_id == TournamentRow.id)
        .join(
            EntryRow,
            (EntryRow.tournament_id == EntryAccountRow.tournament_id)
            & (EntryRow.number == EntryAccountRow.number),
        )
        .where(
            EntryAccountRow.user_id == user_id,
            EntryRow.place == 1,
            TournamentRow.status == "finished",
        )
        .order_by(TournamentRow.id)
    )
    return [name for name, regulations in session.execute(query) if _whole_event(regulations)]


def _whole_event(regulations: Details | None) -> bool:
    """An over-the-board event (by its regulations) that is won as a whole: not a group
    of a group stage + knockout (its winner goes on to the knockout; the knockout's
    winner wins the event), nor a quad other than the strongest of a quads event."""
    details = regulations or {}
    if details.get(QUADS_EVENT) and details.get(QUAD) != "1":
        return False  # (a quads event is won in its strongest quad, quad 1)
    # ("stage": stage_view.STAGE, not imported: stage_view imports fair play, which imports us)
    return venue_kind(details) == "otb" and details.get("stage") != "group"


def master_status(session: Session, user: UserRow) -> MasterStatus:
    """The account's master status from the results and the administrators' acts."""
    last = session.execute(
        select(AccountEventRow.kind, AccountEventRow.actor)
        .where(AccountEventRow.user_id == user.id, AccountEventRow.kind.in_(MASTER_EVENTS))
        .order_by(AccountEventRow.id.desc())
        .limit(1)
    ).first()
    won = tuple(won_events(session, user.id))
    if last is not None and last.kind == "master-revoke":
        return MasterStatus(False, won, revoked_by=last.actor or "an administrator")
    if user.is_master:
        by = last.actor if last is not None and last.actor else "an administrator"
        return MasterStatus(True, won, granted_by=by)
    return MasterStatus(bool(won), won)


# -- organisers who play -------------------------------------------------------------


def organisers(session: Session, tournament_id: int) -> list[UserRow]:
    rows = session.scalars(
        select(StaffRow).where(
            StaffRow.tournament_id == tournament_id, StaffRow.role == "organiser"
        )
    )
    users = [session.get(UserRow, r.user_id) for r in rows]
    return sorted((u for u in users if u is not None), key=lambda u: u.id)


def players(session: Session, tournament_id: int) -> set[int]:
    """The accounts with an (existing) entry in the tournament."""
    links = session.scalars(
        select(EntryAccountRow).where(EntryAccountRow.tournament_id == tournament_id)
    )
    return {
        link.user_id
        for link in links
        if session.get(EntryRow, (tournament_id, link.number)) is not None
    }


def organiser_problem_joining(session: Session, tournament_id: int, user_id: int) -> str | None:
    """Why ``user_id`` may not play in the tournament as one of its organisers (None: may)."""
    staff = organisers(session, tournament_id)
    if user_id not in {u.id for u in staff}:
        return None
    playing = players(session, tournament_id) | {user_id}
    if any(u.id not in playing for u in staff):
        return None
    if len(staff) == 1:
        return (
            "organisers: a sole organiser may not play in their own tournament "
            "(add another organiser who does not play first)"
        )
    others = [u.username for u in staff if u.id != user_id]
    if len(others) == 1:
        return Message(
            "organisers: with several organisers, at least one of them does not play "
            "({name} already plays)",
            name=others[0],
        )
    return Message(
        "organisers: with several organisers, at least one of them does not play "
        "({names} already play)",
        names=", ".join(others),
    )


def organiser_problem_staff(session: Session, tournament_id: int, user_id: int) -> str | None:
    """Why ``user_id``, who plays, may not become an organiser now (None: may)."""
    playing = players(session, tournament_id)
    if user_id not in playing:
        return None
    staff = [u for u in organisers(session, tournament_id) if u.id != user_id]
    if any(u.id not in playing for u in staff):
        return None
    if not staff:
        return (
            "organisers: a sole organiser may not play in their own tournament "
            "(this player would organise alone)"
        )
    return (
        "organisers: with several organisers, at least one of them does not play "
        "(every organiser would play)"
    )


def organiser_problem_at_start(session: Session, tournament_id: int) -> str | None:
    """Why the organisers keep the tournament from starting (None: they do not)."""
    staff = organisers(session, tournament_id)
    if not staff:
        return None
    playing = players(session, tournament_id)
    if any(u.id not in playing for u in staff):
        return None
    names = ", ".join(u.username for u in staff)
    if len(staff) > 1:
        return Message(
            "organisers: with several organisers, at least one of them does not play "
            "({names} play)",
            names=names,
        )
    return Message(
        "organisers: a sole organiser may not play in their own tournament ({name} plays)",
        name=names,
    )
