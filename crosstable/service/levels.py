"""The portal's classes and levels in the store, and what they decide.

The register (:class:`crosstable.core.levels.Levels`, the administrator's rating bands)
is kept in the preferences under :data:`LEVELS_KEY`; a level an administrator sets for
one player by hand under ``level.user.<id>`` (one row per player, so two
administrators setting two players never overwrite each other). A tournament is a
class or level tournament when its regulations name a level (the ``level`` detail):

* only players of that level may register (:func:`entry_level`: the level set by hand
  for the linked account, else the band of the account's rating, else of the entry's
  rating; a guest without an account by the entry's rating);
* it starts only with at least :data:`~crosstable.core.levels.MIN_PLAYERS` players and
  none of another level (:func:`level_problems`; an entry whose level is not known — a
  guest without a rating — is the organiser's word); a timed start that finds fewer
  is postponed a day by default (:mod:`crosstable.service.timed_start`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.levels import MIN_PLAYERS, Levels
from crosstable.core.text import Message
from crosstable.service.details import Details
from crosstable.store.accounts_models import EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, PreferenceRow, TournamentRow

#: the preferences' row of the register
LEVELS_KEY = "levels"
#: the regulations' detail that makes a class or level tournament
LEVEL_DETAIL = "level"


def user_key(user_id: int) -> str:
    return f"level.user.{user_id}"


def read_levels(session: Session) -> Levels:
    """The register as stored (none: no levels)."""
    row = session.get(PreferenceRow, LEVELS_KEY)
    if row is None:
        return Levels()
    return Levels.from_json(json.loads(row.value))


def write_levels(session: Session, levels: Levels) -> None:
    row = session.get(PreferenceRow, LEVELS_KEY)
    value = json.dumps(levels.as_json(), ensure_ascii=False)
    if row is None:
        session.add(PreferenceRow(key=LEVELS_KEY, value=value))
    else:
        row.value = value


def assigned_level(session: Session, user_id: int) -> str | None:
    """The level an administrator set for the account by hand, if any."""
    row = session.get(PreferenceRow, user_key(user_id))
    return None if row is None or not row.value else row.value


def set_assigned_level(session: Session, user_id: int, level: str | None) -> None:
    row = session.get(PreferenceRow, user_key(user_id))
    if level is None:
        if row is not None:
            session.delete(row)
    elif row is None:
        session.add(PreferenceRow(key=user_key(user_id), value=level))
    else:
        row.value = level


def account_level(
    session: Session, levels: Levels, user: UserRow, rating: int | None = None
) -> tuple[str | None, str]:
    """The account's level and how it was found: ``assigned`` (set by hand) or
    ``rating`` (the band of the account's rating, else of ``rating``), ``""`` for none."""
    assigned = levels.named(assigned_level(session, user.id) or "")
    if assigned is not None:
        return assigned, "assigned"
    level = levels.by_rating(user.rating or rating)
    return level, "rating" if level is not None else ""


def tournament_level(details: Details | None) -> str:
    """The level a tournament is for ("": not a class or level tournament)."""
    return " ".join(str((details or {}).get(LEVEL_DETAIL) or "").split())


def checked_level_detail(session: Session, details: Details) -> str:
    """A ``level`` detail checked against the register: the level as the register
    spells it ("" when the tournament names none)."""
    wanted = tournament_level(details)
    if not wanted:
        return ""
    levels = read_levels(session)
    if not levels.bands:
        raise RuleError(
            "level {level}: the portal keeps no levels yet; an administrator defines them first",
            level=wanted,
        )
    named = levels.named(wanted)
    if named is None:
        raise RuleError(
            "level {level} is not one of the portal's levels ({levels})",
            level=wanted,
            levels=", ".join(levels.names),
        )
    return named


def entry_level(
    session: Session, levels: Levels, entry: EntryRow, linked: Mapping[int, int]
) -> str | None:
    """The level of a tournament's entry: its linked account's (``linked``: entry number
    to account), else by its rating."""
    user = None if entry.number not in linked else session.get(UserRow, linked[entry.number])
    if user is None:
        return levels.by_rating(entry.rating)
    return account_level(session, levels, user, entry.rating)[0]


def level_problems(session: Session, row: TournamentRow) -> list[Message]:
    """Why a class or level tournament cannot start (empty: it can, or it is none)."""
    wanted = tournament_level(row.regulations)
    if not wanted:
        return []
    levels = read_levels(session)
    level = levels.named(wanted) or wanted
    entries = list(
        session.scalars(
            select(EntryRow).where(EntryRow.tournament_id == row.id).order_by(EntryRow.number)
        )
    )
    problems: list[Message] = []
    if len(entries) < MIN_PLAYERS:
        problems.append(
            Message(
                "{level}: a class or level tournament runs with at least {least} players "
                "of its level ({count} registered)",
                level=level,
                least=MIN_PLAYERS,
                count=len(entries),
            )
        )
    query = select(EntryAccountRow.number, EntryAccountRow.user_id).where(
        EntryAccountRow.tournament_id == row.id
    )
    linked = {number: user for number, user in session.execute(query)}  # one query
    found = [(e, entry_level(session, levels, e, linked)) for e in entries]
    others = [e for e, of in found if of is not None and of != level]
    if others:
        problems.append(
            Message(
                "{level}: {names} — not of this level; remove the entry before the start",
                level=level,
                names=Message.joined(", ", [e.name for e in others]),
            )
        )
    return problems


def registration_level_problem(
    session: Session, details: Details | None, user: UserRow
) -> Message | None:
    """Why ``user`` may not register in a class or level tournament (None: they may)."""
    wanted = tournament_level(details)
    if not wanted:
        return None
    levels = read_levels(session)
    level = levels.named(wanted) or wanted
    yours, _how = account_level(session, levels, user)
    if yours == level:
        return None
    if yours is None:
        return Message(
            "this tournament is for players of {level}; you have no level yet (an "
            "administrator sets it, or your rating does)",
            level=level,
        )
    return Message(
        "this tournament is for players of {level}; your level is {yours}",
        level=level,
        yours=yours,
    )


__all__ = [
    "LEVELS_KEY",
    "LEVEL_DETAIL",
    "account_level",
    "assigned_level",
    "checked_level_detail",
    "entry_level",
    "level_problems",
    "read_levels",
    "registration_level_problem",
    "set_assigned_level",
    "tournament_level",
    "user_key",
    "write_levels",
]
