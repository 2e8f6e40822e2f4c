"""Whether a tournament may start under the portal's rules.

:func:`check_start` is the start's hook (service/play.py): no entry of an account
flagged for computer help, not every organiser playing, and an over-the-board event
with at least :data:`~crosstable.service.eligibility.OTB_MINIMUM` eligible registered
players (:mod:`crosstable.service.eligibility`).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.eligibility import (
    OTB_MINIMUM,
    check_venue_kind,
    eligibility_of,
    playing_record,
    quads_of_event,
    rules_of,
    shortfall,
    venue_kind,
)
from crosstable.service.levels import level_problems
from crosstable.service.organisers import organiser_problem_at_start
from crosstable.service.stage_view import EVENT, STAGE, members
from crosstable.store.accounts_models import EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, TournamentRow


def start_problems(session: Session, row: TournamentRow) -> list[str]:
    """Why the tournament cannot start under the portal's rules (empty: it can).

    Refused: an entry of an account flagged for computer help; organisers
    who would all play; an over-the-board event with fewer than
    :data:`OTB_MINIMUM` eligible registered players, naming who is not eligible and
    why."""
    check_venue_kind(row.regulations or {})
    problems: list[str] = []
    links = {
        link.number: link.user_id
        for link in session.scalars(
            select(EntryAccountRow).where(EntryAccountRow.tournament_id == row.id)
        )
        if session.get(EntryRow, (row.id, link.number)) is not None
    }
    users = {number: session.get(UserRow, uid) for number, uid in links.items()}
    flagged = sorted(n for n, user in users.items() if user is not None and user.flagged)
    if flagged:
        names = Message.joined(", ", [_entry(session, row.id, n) for n in flagged])
        problems.append(
            Message(
                (
                    "fair play: {names} — an account flagged for computer help cannot take part; "
                    "remove the entry before the start"
                ),
                names=names,
            )
        )
    organisers = organiser_problem_at_start(session, row.id)
    if organisers:
        problems.append(organisers)
    if venue_kind(row.regulations) == "otb":
        shortfall_of = _otb_shortfall(session, row)
        if shortfall_of:
            problems.append(shortfall_of)
    problems.extend(level_problems(session, row))  # a class or level tournament
    return problems


def _otb_shortfall(session: Session, row: TournamentRow) -> Message | None:
    """Why an over-the-board event lacks its :data:`OTB_MINIMUM` eligible registered
    players (None: it has them). The event is the tournament — or, for a group of a
    group stage + knockout, all its groups together (the players registered for the
    event), and for a quad all the quads of its event; the knockout of a group stage
    takes the groups' qualifiers and is not counted again."""
    details = row.regulations or {}
    event = str(details.get(EVENT) or "")
    if event and details.get(STAGE) == "knockout":
        return None
    rows = quads_of_event(session, row)  # (the quads of one event, counted together)
    if event and details.get(STAGE) == "group":
        rows = [r for r in members(session, event) if (r.regulations or {}).get(STAGE) == "group"]
        rows = rows or [row]
    eligible = 0
    missing: list[str] = []
    for member in rows:
        rules = rules_of(eligibility_of(session, member.id), member.regulations)
        links = {
            link.number: session.get(UserRow, link.user_id)
            for link in session.scalars(
                select(EntryAccountRow).where(EntryAccountRow.tournament_id == member.id)
            )
        }
        entries = session.scalars(
            select(EntryRow).where(EntryRow.tournament_id == member.id).order_by(EntryRow.number)
        )
        for entry in entries:
            named: str = Message("player {start} {name}", start=entry.number, name=entry.name)
            if len(rows) > 1:  # (the groups of one event: say whose entry it is)
                named = Message("{group}: {entry}", group=member.name, entry=named)
            user = links.get(entry.number)
            if user is None:
                missing.append(Message("{entry}: no account on the site", entry=named))
                continue
            reasons: list[str] = list(shortfall(rules, playing_record(session, user)))
            if user.flagged:
                reasons.append("flagged for computer help")
            if reasons:
                missing.append(
                    Message(
                        "{entry}: {reasons}", entry=named, reasons=Message.joined("; ", reasons)
                    )
                )
            else:
                eligible += 1
    if eligible >= OTB_MINIMUM:
        return None
    if not missing:
        return Message(
            (
                "an over-the-board event needs at least {least} eligible registered "
                "players to start; it has {count}"
            ),
            least=OTB_MINIMUM,
            count=eligible,
        )
    return Message(
        "an over-the-board event needs at least {least} eligible registered players "
        "to start; it has {count} — not eligible: {missing}",
        least=OTB_MINIMUM,
        count=eligible,
        missing=Message.joined(" | ", missing),
    )


def check_start(session: Session, row: TournamentRow) -> None:
    """The start's hook (service/play.py): RuleError with every reason at once."""
    problems = start_problems(session, row)
    if problems:
        raise RuleError(
            "the tournament cannot start: {problems}", problems=Message.joined("; ", problems)
        )


def _entry(session: Session, tournament_id: int, number: int) -> str:
    entry = session.get(EntryRow, (tournament_id, number))
    return (
        f"player {number}"
        if entry is None
        else Message("player {start} {name}", start=number, name=entry.name)
    )
