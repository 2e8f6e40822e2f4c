"""The frame every use case runs in: one transaction, one event, one notification.

:meth:`ChangeFrame.change` locks the tournament (``SELECT … FOR UPDATE`` on
PostgreSQL; ``BEGIN IMMEDIATE`` already serialises writers on SQLite), answers a
repeated idempotency key with the first answer, runs the use case's body on a
:class:`~crosstable.service.unit.Tx`, appends the event with the rows before and
after and refreshes the live standings; after the commit it announces the change
(:meth:`ChangeFrame.announce`: the in-process bus, and on PostgreSQL the other
processes through the store's :class:`~crosstable.service.bus.PostgresNotifier`)."""

from __future__ import annotations

import json
import random as _random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from crosstable.core.row_changes import RowChange, changes_json, read_changes
from crosstable.core.text import Message
from crosstable.service.bus import EventBus, Notification, notifier_for
from crosstable.service.clock import Clock, SystemClock
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.live import LiveSource, LiveTable, LiveTables, refresh
from crosstable.service.loading import load_live
from crosstable.service.riders import run_riders
from crosstable.service.safeguard import Safeguard
from crosstable.service.unit import Tx
from crosstable.store import Store
from crosstable.store.models import EventRow, LiveStandingsRow, TournamentRow

#: the key of an event's data that keeps its summary's template and values
SUMMARY_MESSAGE = "summary_message"
#: an event's details, its ``data``: stored JSON whose fields depend on the event's kind
#: (an undo's ``undoes``, a revert's ``to``, the request as made, the summary's message,
#: a use case's own details) — the one name for them, so no other untyped dict is carried
EventData = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Change:
    """What a use case did: the event it appended (or, replayed, the one it repeats)."""

    tournament_id: int
    seq: int
    kind: str
    summary: str
    at: str = ""
    actor: str = ""
    #: True: nothing new happened (the same request or the same value was already there)
    replayed: bool = False
    data: EventData = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Done:
    """A body's answer: the event summary and details to keep with it."""

    summary: str
    data: EventData = field(default_factory=dict)


def replayed_change(event: EventRow) -> Change:
    """The answer to a request repeated with its idempotency key: the event it made."""
    return Change(
        event.tournament_id,
        event.seq,
        event.kind,
        summary_of(event),
        event.at,
        event.actor,
        replayed=True,
        data=dict(event.data),
    )


class Unchanged(Exception):  # noqa: N818 - a signal, not an error
    """Raised by a body when the request asks for what is already there."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


Body = Callable[[Tx], "str | Done"]


def lock_tournament(session: Session, tournament_id: int) -> TournamentRow:
    """The tournament's row, locked for this transaction (``SELECT … FOR UPDATE`` on
    PostgreSQL); NotFoundError if there is none."""
    query = select(TournamentRow).where(TournamentRow.id == tournament_id).with_for_update()
    row = session.scalars(query).one_or_none()
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row


def append_event(
    session: Session,
    row: TournamentRow,
    *,
    at: str,
    actor: str,
    kind: str,
    summary: str,
    changes: Sequence[RowChange],
    data: EventData,
    idempotency_key: str | None = None,
) -> int:
    """Append the next event of ``row``'s history (its revision moves on) and answer its
    number: the one insert into the event log that every change goes through. A summary
    that is a :class:`~crosstable.core.text.Message` keeps its template and values in the
    event's data (:data:`SUMMARY_MESSAGE`), so the history shows it in the reader's
    language; the summary column keeps the English text."""
    data = with_summary_message(data, summary)
    seq = row.revision + 1
    row.revision = seq
    session.flush()
    session.execute(
        insert(EventRow).values(
            tournament_id=row.id,
            seq=seq,
            at=at,
            actor=actor,
            kind=kind,
            summary=str(summary),
            changes=changes_json(changes),
            data=data,
            idempotency_key=idempotency_key,
        )
    )
    return seq


def with_summary_message(data: EventData, summary: str) -> EventData:
    """``data`` with the summary's message (when it has a template with values) added."""
    if isinstance(summary, Message) and summary.params:
        return data | {SUMMARY_MESSAGE: summary.to_json()}
    return data


def summary_of(event: EventRow) -> str:
    """An event's summary: the :class:`~crosstable.core.text.Message` it was made from
    when the event keeps it (and it still reads as the stored English text), else the
    text as stored (older events: English only)."""
    kept = (event.data or {}).get(SUMMARY_MESSAGE)
    if isinstance(kept, dict):
        try:
            message = Message.from_json(kept)
        except (KeyError, TypeError, ValueError, ArithmeticError, RecursionError):
            return event.summary  # (a malformed kept message: the stored English)
        if str(message) == event.summary:
            return message
    return event.summary


class ChangeFrame:
    """What every part of the service shares: the store, the injected clock, random
    source and event bus, the live tables, and the frame a change runs in."""

    #: record results through :mod:`crosstable.service.recording` when the live table
    #: allows (False: always the ordinary path; the answers are the same)
    fast_path: bool = True
    #: asked for a backup before a risky change (service/safeguard.py; None: no backups)
    safeguard: Safeguard | None = None

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        random: _random.Random | None = None,
        bus: EventBus | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.random = random or _random.Random()
        self.bus = bus or EventBus()
        self.live_tables = LiveTables()

    def now(self) -> str:
        return self.clock.now().isoformat(timespec="microseconds")

    def change(
        self,
        tournament_id: int,
        kind: str,
        body: Body,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        request: EventData | None = None,
    ) -> Change:
        notification: Notification | None = None
        kept: list[tuple[int, LiveTable]] = []
        try:
            with self.store.transaction() as session:
                kept = session.info.setdefault("crosstable.live", [])
                row = self.lock(session, tournament_id)
                if idempotency_key is not None:
                    prior = self.prior(session, tournament_id, idempotency_key, request)
                    if prior is not None:
                        return prior
                tx = Tx(session, row)
                tx.random = self.random
                answer = body(tx)
                done = answer if isinstance(answer, Done) else Done(answer)
                if not tx.changes:
                    raise Unchanged(done.summary)
                data = dict(done.data)
                if request is not None:
                    data["request"] = request
                change, notification = self.append(
                    tx, kind, done.summary, data, actor, idempotency_key
                )
                run_riders(session, change)  # what a caller writes with it (riders.py)
        except Unchanged as same:
            return Change(
                tournament_id, self.revision(tournament_id), kind, same.summary, replayed=True
            )
        self.committed(kept, [notification] if notification is not None else [])
        return change

    def creating(self, body: Callable[[Session], tuple[Change, list[Notification]]]) -> Change:
        """The frame of a change that makes a new tournament (there is no row to lock
        yet): ``body`` adds the row and appends its events (:meth:`append`) in one
        transaction; after the commit it is announced as every other change is."""
        with self.store.transaction() as session:
            kept = session.info.setdefault("crosstable.live", [])
            change, notifications = body(session)
        self.committed(kept, notifications)
        return change

    def committed(
        self, kept: list[tuple[int, LiveTable]], notifications: list[Notification]
    ) -> None:
        """After a commit: the live tables the change built are valid (kept for the next
        change), and the change is announced."""
        for tournament_id_kept, table in kept:
            self.live_tables.checkin(tournament_id_kept, table)
        for notification in notifications:
            self.announce(notification)

    def announce(self, notification: Notification) -> None:
        """A committed change: tell this process, then the other processes (PostgreSQL).

        In this order: a push publisher (web/push.py) publishes from this process's bus
        before the NOTIFY is queued, so a process that dies in between never announced
        the change and the listeners' polling finds it."""
        self.bus.publish(notification)
        if self.store.dialect == "postgresql":
            notifier_for(self.store).send(notification)

    def append(
        self,
        tx: Tx,
        kind: str,
        summary: str,
        data: EventData,
        actor: str,
        idempotency_key: str | None,
    ) -> tuple[Change, Notification]:
        session = tx.session
        row = tx.tournament
        at = self.now()
        seq = append_event(
            session,
            row,
            at=at,
            actor=actor,
            kind=kind,
            summary=summary,
            changes=tx.changes,
            data=data,
            idempotency_key=idempotency_key,
        )
        standings = self.refresh_standings(session, row, tx.changes)
        notification = Notification(
            tournament_id=row.id,
            seq=seq,
            kind=kind,
            summary=summary,
            games=tuple(tx.games),
            origin=self.bus.origin,
            standings_text=standings,
        )
        return Change(row.id, seq, kind, summary, at, actor, data=data), notification

    def refresh_standings(
        self, session: Session, row: TournamentRow, changes: Sequence[RowChange] = ()
    ) -> str | None:
        """The one place where a change updates the live standings; their
        JSON text."""
        table = self.live_tables.checkout(row.id)

        def missed(after: int) -> list[tuple[RowChange, ...]]:
            query = (
                select(EventRow.changes)
                .where(
                    EventRow.tournament_id == row.id,
                    EventRow.seq > after,
                    EventRow.seq < row.revision,
                )
                .order_by(EventRow.seq)
            )
            return [read_changes(stored) for stored in session.scalars(query)]

        text, kept = refresh(
            table,
            row.revision,
            changes,
            lambda: self.load_live(session, row),
            missed,
            row.created_at,
        )
        if kept is not None:
            session.info.setdefault("crosstable.live", []).append((row.id, kept))
        current = session.get(LiveStandingsRow, row.id)
        if text is None:
            if current is not None:
                session.delete(current)
            return None
        body = json.loads(text)
        if current is None:
            session.add(LiveStandingsRow(tournament_id=row.id, revision=row.revision, body=body))
        else:
            current.revision = row.revision
            current.body = body
        return text

    def load_live(self, session: Session, row: TournamentRow) -> LiveSource | None:
        """What a live table is built from, read in ``session`` (every load goes here)."""
        return load_live(session, row)

    def lock(self, session: Session, tournament_id: int) -> TournamentRow:
        return lock_tournament(session, tournament_id)

    def prior(
        self,
        session: Session,
        tournament_id: int,
        key: str,
        request: EventData | None,
    ) -> Change | None:
        event = session.scalars(
            select(EventRow).where(
                EventRow.tournament_id == tournament_id, EventRow.idempotency_key == key
            )
        ).one_or_none()
        if event is None:
            return None
        if event.data.get("request") != request:
            raise ConflictError(
                "idempotency key {key} was already used for another request (#{seq}: {summary})",
                key=repr(key),
                seq=event.seq,
                summary=event.summary,
            )
        return replayed_change(event)

    def revision(self, tournament_id: int) -> int:
        with self.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            return 0 if row is None else row.revision
