"""Fair play and the administrators' acts on accounts.

Seed 002: "players using computer programs cannot take part". The ban is site-wide
and always on (no tournament setting turns it off): a flagged account cannot
register, be added by an organiser (an entry linked to it), be linked to an entry,
or qualify into the next stage (:func:`fair_play_problem`; the group stage's
qualifiers in :mod:`crosstable.service.stage_view`), and a tournament with a
flagged account's entry does not start (:mod:`crosstable.service.eligibility`).

Flagging a player who is already in running tournaments needs the administrator's
decision for each of them — ``withdraw`` (under that tournament's withdrawal rule,
:meth:`crosstable.service.Service.withdraw`) or ``stay`` (until the end) — and the
decisions are recorded with the flag. Who flagged, when and why, the adjustments of
the eligibility counts and the grants and revocations of the master status are
rows of ``account_events``, which only administrators see (:meth:`PortalRules.account_history`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.clock import Clock
from crosstable.service.eligibility import PlayingRecord, playing_record
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import SUMMARY_MESSAGE, Change
from crosstable.service.levels import (
    account_level,
    assigned_level,
    read_levels,
    set_assigned_level,
)
from crosstable.service.organisers import MasterStatus, master_status
from crosstable.service.read_views import JsonObject
from crosstable.store import Store
from crosstable.store.accounts_models import AccountEventRow, EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, TournamentRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesStageRow,
)


class Withdrawals(Protocol):
    """Who withdraws a player from a running tournament (the service)."""

    def withdraw(
        self, tournament_id: int, start: int, *, from_round: int | None = None, actor: str = ""
    ) -> Change: ...


DECISIONS = ("withdraw", "stay")
MAX_REASON = 500
#: the most an adjustment may add or take away
MAX_ADJUSTMENT = 10_000


def fair_play_problem(user: UserRow | None) -> str | None:
    """Why the account may not take part (None: it may)."""
    if user is not None and user.flagged:
        return "fair play: an account flagged for computer help cannot take part in tournaments"
    return None


def flagged_entries(session: Session, tournament_id: int) -> set[int]:
    """The registration numbers of the tournament's entries whose account is flagged."""
    query = (
        select(EntryAccountRow.number)
        .join(UserRow, UserRow.id == EntryAccountRow.user_id)
        .where(EntryAccountRow.tournament_id == tournament_id, UserRow.flagged.is_(True))
    )
    numbers = set(session.scalars(query))
    return {n for n in numbers if session.get(EntryRow, (tournament_id, n)) is not None}


@dataclass(frozen=True, slots=True)
class RunningEntry:
    """An entry of the account in a tournament that is running."""

    tournament_id: int
    name: str
    number: int
    start: int | None


@dataclass(frozen=True, slots=True)
class UserLevel:
    """An account's class or level (None: none) and how it was found: ``assigned`` by
    an administrator, by ``rating``, or ``""``."""

    level: str | None
    how: str

    def as_dict(self) -> JsonObject:
        return {"level": self.level, "how": self.how or None}


@dataclass(frozen=True, slots=True)
class AccountEvent:
    at: str
    actor: str
    kind: str
    summary: str
    #: what was done (stored JSON, its fields by kind)
    data: JsonObject


def running_entries(session: Session, user_id: int) -> list[RunningEntry]:
    """The account's entries in running tournaments (not withdrawn yet): the entries
    linked to it and its places in a series' group tournaments (:func:`series_places`)."""
    places = {
        (link.tournament_id, link.number)
        for link in session.scalars(
            select(EntryAccountRow).where(EntryAccountRow.user_id == user_id)
        )
    }
    places |= series_places(session, user_id)
    found: list[RunningEntry] = []
    for tournament_id, number in places:
        entry = session.get(EntryRow, (tournament_id, number))
        row = session.get(TournamentRow, tournament_id)
        if entry is None or row is None or row.status != "running":
            continue
        if entry.withdrawn_from is not None:
            continue
        found.append(RunningEntry(row.id, row.name, entry.number, entry.start))
    return sorted(found, key=lambda r: (r.tournament_id, r.number))


def series_places(session: Session, user_id: int) -> set[tuple[int, int]]:
    """(tournament, entry number) of the account in the group tournaments of a series.

    A series registers its players by name (their registrations keep the account), and
    a group's entry *n* is the group's *n*-th registration (``SeriesGroupRow.players``),
    so the group tournaments' entries are not linked to accounts; flagging the account
    must still ask about them."""
    # only the editions under way have groups being played (and an index to read them by)
    running = select(SeriesEditionRow.id).where(SeriesEditionRow.state == "running")
    keys = {
        r.id: r.edition_id
        for r in session.scalars(
            select(SeriesRegistrationRow).where(
                SeriesRegistrationRow.edition_id.in_(running),
                SeriesRegistrationRow.user_id == user_id,
            )
        )
    }
    if not keys:
        return set()
    groups = session.scalars(
        select(SeriesGroupRow)
        .join(SeriesStageRow, SeriesStageRow.id == SeriesGroupRow.stage_id)
        .where(
            SeriesStageRow.edition_id.in_(set(keys.values())),
            SeriesGroupRow.tournament_id.is_not(None),
        )
    )
    return {
        (group.tournament_id, number)
        for group in groups
        if group.tournament_id is not None
        for number, key in enumerate(group.players or [], 1)
        if key in keys
    }


def _reason(text: str) -> str:
    reason = " ".join(str(text or "").split())
    if not reason:
        raise RuleError("give the reason (it is kept with the account's record)")
    if len(reason) > MAX_REASON:
        raise RuleError("the reason has at most {most} characters", most=MAX_REASON)
    return reason


def _decision_text(name: str, decision: str) -> Message:
    if decision == "withdraw":
        return Message("{name}: withdrawn", name=name)
    return Message("{name}: stays until the end", name=name)


class PortalRules:
    """The administrators' acts on accounts: a part of :class:`Accounts`."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def _record(
        self,
        session: Session,
        user: UserRow,
        kind: str,
        summary: Message,
        data: JsonObject,
        actor: str,
    ) -> None:
        """One line of the account's record; its summary is kept as the message too, so
        the administrator reads it in their language (as a tournament's history)."""
        session.add(
            AccountEventRow(
                user_id=user.id,
                at=self.clock.now().isoformat(timespec="seconds"),
                actor=actor,
                kind=kind,
                summary=str(summary),
                data=data | {SUMMARY_MESSAGE: summary.to_json()},
            )
        )

    def _user_row(self, session: Session, user_id: int) -> UserRow:
        row = session.get(UserRow, user_id)
        if row is None:
            raise NotFoundError("there is no user {user}", user=user_id)
        return row

    # -- fair play --------------------------------------------------------------------

    def running_entries(self, user_id: int) -> list[RunningEntry]:
        with self.store.reading() as session:
            self._user_row(session, user_id)
            return running_entries(session, user_id)

    def flag(
        self,
        user_id: int,
        reason: str,
        *,
        decisions: Mapping[int, str] | None = None,
        service: Withdrawals | None = None,
        actor: str = "",
    ) -> list[RunningEntry]:
        """Flag the account for computer help: ``decisions`` says, for every running
        tournament it plays in, ``withdraw`` or ``stay``; withdrawn where chosen (the
        tournament's history records the withdrawal), then the flag, the reason and
        the decisions are recorded. Returns the entries that were withdrawn."""
        why = _reason(reason)
        chosen = {int(k): str(v).strip().lower() for k, v in (decisions or {}).items()}
        with self.store.reading() as session:
            user = self._user_row(session, user_id)
            if user.flagged:
                raise RuleError("{name} is flagged already", name=user.username)
            running = running_entries(session, user_id)
        known = {r.tournament_id for r in running}
        for tid, value in chosen.items():
            if tid not in known:
                raise RuleError(
                    "tournament {tournament}: {name} plays in no running tournament {again}",
                    tournament=tid,
                    name=user.username,
                    again=tid,
                )
            if value not in DECISIONS:
                raise RuleError(
                    "tournament {tournament}: the decision is withdraw or stay, not {value}",
                    tournament=tid,
                    value=repr(value[:20]),
                )
        undecided = [r for r in running if r.tournament_id not in chosen]
        if undecided:
            names = Message.joined(
                ", ",
                (
                    Message(
                        "{name} (tournament {tournament})", name=r.name, tournament=r.tournament_id
                    )
                    for r in undecided
                ),
            )
            raise RuleError(
                (
                    "fair play: {name} plays in running tournaments; decide for each whether they "
                    "withdraw or stay until the end: {tournaments}"
                ),
                name=user.username,
                tournaments=names,
            )
        withdrawn = [r for r in running if chosen[r.tournament_id] == "withdraw"]
        if withdrawn and service is None:
            raise RuleError("a withdrawal needs the tournament service")
        for entry in withdrawn:
            assert service is not None and entry.start is not None
            service.withdraw(entry.tournament_id, entry.start, actor=actor)
        with self.store.transaction() as session:
            row = self._user_row(session, user_id)
            row.flagged = True
            listed: list[dict[str, int | str]] = [
                {
                    "tournament_id": r.tournament_id,
                    "name": r.name,
                    "number": r.number,
                    "decision": chosen[r.tournament_id],
                }
                for r in running
            ]
            summary = Message("flagged for computer help: {reason}", reason=why)
            if listed:
                summary = Message(
                    "{summary} — {tournaments}",
                    summary=summary,
                    tournaments=Message.joined(
                        "; ", (_decision_text(str(d["name"]), str(d["decision"])) for d in listed)
                    ),
                )
            self._record(
                session, row, "flag", summary, {"reason": why, "tournaments": listed}, actor
            )
        return withdrawn

    def unflag(self, user_id: int, reason: str, *, actor: str = "") -> None:
        """Clear the flag (the reason is recorded; past withdrawals stay)."""
        why = _reason(reason)
        with self.store.transaction() as session:
            row = self._user_row(session, user_id)
            if not row.flagged:
                raise RuleError("{name} is not flagged", name=row.username)
            row.flagged = False
            cleared = Message("flag cleared: {reason}", reason=why)
            self._record(session, row, "unflag", cleared, {"reason": why}, actor)

    # -- eligibility counts -----------------------------------------------------------

    def record(self, user_id: int) -> PlayingRecord:
        """The account's games and online tournaments: the site's count and the adjustment."""
        with self.store.reading() as session:
            return playing_record(session, self._user_row(session, user_id))

    def adjust(
        self,
        user_id: int,
        *,
        games: int | None = None,
        tournaments: int | None = None,
        reason: str,
        actor: str = "",
    ) -> PlayingRecord:
        """Set the administrator's adjustment (games or online tournaments played
        elsewhere, e.g. +5), kept apart from what the site counts, with the reason."""
        why = _reason(reason)
        for label, value in (("games", games), ("online tournaments", tournaments)):
            if value is not None and not -MAX_ADJUSTMENT <= value <= MAX_ADJUSTMENT:
                raise RuleError(
                    "the adjustment of {what} is between -{least} and {most}",
                    what=label,
                    least=MAX_ADJUSTMENT,
                    most=MAX_ADJUSTMENT,
                )
        with self.store.transaction() as session:
            row = self._user_row(session, user_id)
            before = {"games": row.rated_games, "tournaments": row.online_tournaments}
            if games is not None:
                row.rated_games = games
            if tournaments is not None:
                row.online_tournaments = tournaments
            after = {"games": row.rated_games, "tournaments": row.online_tournaments}
            if after != before:
                text = Message(
                    (
                        "eligibility adjusted: games {games_before} → {games_after}, online "
                        "tournaments {tournaments_before} → {tournaments_after}: {reason}"
                    ),
                    games_before=f"{before['games']:+d}",
                    games_after=f"{after['games']:+d}",
                    tournaments_before=f"{before['tournaments']:+d}",
                    tournaments_after=f"{after['tournaments']:+d}",
                    reason=why,
                )
                data = {"reason": why, "before": before, "after": after}
                self._record(session, row, "adjust", text, data, actor)
            session.flush()
            return playing_record(session, row)

    # -- classes and levels -----------------------------------------------------------

    def level(self, user_id: int) -> UserLevel:
        """The account's level and how it was found (set by hand, or by rating)."""
        with self.store.reading() as session:
            row = self._user_row(session, user_id)
            level, how = account_level(session, read_levels(session), row)
            return UserLevel(level, how)

    def set_level(
        self, user_id: int, level: str | None, *, reason: str = "", actor: str = ""
    ) -> UserLevel:
        """An administrator sets the account's level by hand (None: by rating again),
        recorded with the reason; the level must be one of the register's."""
        why = " ".join(str(reason or "").split())[:MAX_REASON]
        with self.store.transaction() as session:
            row = self._user_row(session, user_id)
            levels = read_levels(session)
            named = None
            if level is not None:
                named = levels.named(level)
                if named is None:
                    raise RuleError(
                        "level {level} is not one of the portal's levels ({levels})",
                        level=" ".join(level.split())[:80],
                        levels=", ".join(levels.names) or "—",
                    )
            before = assigned_level(session, user_id)
            set_assigned_level(session, user_id, named)
            if before != named:
                text = (
                    Message("level set to {level}", level=named)
                    if named is not None
                    else Message("level by rating again")
                )
                if why:
                    text = Message("{summary}: {reason}", summary=text, reason=why)
                data = {"reason": why, "before": before, "after": named}
                self._record(session, row, "level", text, data, actor)
            session.flush()
            found, how = account_level(session, levels, row)
            return UserLevel(found, how)

    # -- masters ----------------------------------------------------------------------

    def master(self, user_id: int) -> MasterStatus:
        with self.store.reading() as session:
            return master_status(session, self._user_row(session, user_id))

    def set_master(
        self, user_id: int, grant: bool, *, reason: str = "", actor: str = ""
    ) -> MasterStatus:
        """An administrator grants (or revokes) the master status, recorded with the reason."""
        why = " ".join(str(reason or "").split())[:MAX_REASON]
        with self.store.transaction() as session:
            row = self._user_row(session, user_id)
            row.is_master = grant
            kind = "master-grant" if grant else "master-revoke"
            text = Message("master status granted") if grant else Message("master status revoked")
            if why:
                text = Message("{summary}: {reason}", summary=text, reason=why)
            self._record(session, row, kind, text, {"reason": why}, actor)
            session.flush()
            return master_status(session, row)

    def account_history(self, user_id: int) -> list[AccountEvent]:
        """What administrators did to the account, oldest first (administrators only)."""
        with self.store.reading() as session:
            self._user_row(session, user_id)
            rows = session.scalars(
                select(AccountEventRow)
                .where(AccountEventRow.user_id == user_id)
                .order_by(AccountEventRow.id)
            )
            return [
                AccountEvent(
                    r.at,
                    r.actor,
                    r.kind,
                    _summary(r),
                    {k: v for k, v in (r.data or {}).items() if k != SUMMARY_MESSAGE},
                )
                for r in rows
            ]


def _summary(row: AccountEventRow) -> str:
    """A record line's summary: the message it was made from when kept (and it still
    reads as the stored English), else the English as stored (lines made before)."""
    kept = (row.data or {}).get(SUMMARY_MESSAGE)
    if isinstance(kept, dict):
        try:
            message = Message.from_json(kept)
        except (KeyError, TypeError, ValueError, ArithmeticError, RecursionError):
            return row.summary
        if str(message) == row.summary:
            return message
    return row.summary
