"""The history of a tournament: every change, undo of the last one, revert to any point.

The event log is append-only. Undoing appends an event that applies the undone
event's row changes backwards; reverting to event *n* appends one event that
brings every row to what it was right after *n* (undos and earlier reverts
included, so a revert can itself be reverted). A revert records only the rows
that differ between now and then (it used to take back
every later event's changes one by one, so reverting back and forth doubled the
event each time): its size is bounded by the state it changes, never by the
history. What is "undone" is read from the log, never stored by rewriting it.

Reopening a finished tournament (an undo or a revert that takes the status back
from "finished") needs a reason and a confirmation, and the refusal says what it
takes back — except taking back the one result that finished the tournament by
itself, which is an ordinary undo (see docs/store.md, "Undo, revert and the
finish").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.row_changes import ColumnValue, RowChange, Snapshot, Spot
from crosstable.core.text import Message
from crosstable.service.approval import with_withdrawn, withdraw_if_changed
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import (
    Change,
    ChangeFrame,
    Done,
    EventData,
    append_event,
    summary_of,
)
from crosstable.service.safeguard import before_risky
from crosstable.service.unit import Tx, apply_change, event_changes, replayed_rows
from crosstable.store.models import MODELS, EventRow, TournamentRow

#: events that take others back (they are not themselves undone by ``undo``)
_REVERSALS = ("undo", "revert")


class ReopeningError(RuleError):
    """An undo or a revert would reopen a finished tournament without a reason and a
    confirmation; the message says what it would take back."""


@dataclass(frozen=True, slots=True)
class HistoryItem:
    seq: int
    at: str
    actor: str
    kind: str
    summary: str
    #: True when a later undo or revert took this change back
    undone: bool


def append_information(
    session: Session,
    row: TournamentRow,
    *,
    at: str,
    actor: str,
    kind: str,
    summary: str,
    data: EventData,
) -> int:
    """Append an informational event to the tournament's history (who, when, what) and
    answer its number. It has no row changes, so undo and revert pass over it; the
    revision moves on like at any change, so cached pages are refreshed."""
    return append_event(
        session, row, at=at, actor=actor, kind=kind, summary=summary, changes=[], data=data
    )


def effective(events: list[EventRow]) -> list[int]:
    """The sequence numbers whose changes are in force now, oldest first."""
    stack: list[int] = []
    after: dict[int, list[int]] = {}
    for event in events:
        if event.kind == "undo":
            target = int(event.data["undoes"])
            if stack and stack[-1] == target:
                stack.pop()
        elif event.kind == "revert":
            stack = list(after.get(int(event.data["to"]), []))
        elif event.changes:  # (an event without row changes only informs: see docs/web.md)
            stack.append(event.seq)
        after[event.seq] = list(stack)
    return stack


class History:
    """Use cases on the event log."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def history(self, tournament_id: int) -> list[HistoryItem]:
        with self.frame.store.reading() as session:
            self._exists(session, tournament_id)
            events = _events(session, tournament_id)
        live = set(effective(events))
        return [
            HistoryItem(
                e.seq,
                e.at,
                e.actor,
                e.kind,
                summary_of(e),
                undone=e.kind not in _REVERSALS and bool(e.changes) and e.seq not in live,
            )
            for e in events
        ]

    def undo(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        reason: str | None = None,
        confirm: bool = False,
    ) -> Change:
        """Take back the last change still in force (not the creation).

        Taking back an organiser's finish (or anything else that reopens a finished
        tournament) needs ``reason`` and ``confirm``; taking back the result that
        finished the tournament by itself does not."""

        def body(tx: Tx) -> Done:
            events = _events(tx.session, tx.tournament_id)
            stack = effective(events)
            if len(stack) <= 1:
                raise RuleError("there is nothing to undo")
            target = next(e for e in events if e.seq == stack[-1])
            was = tx.tournament.status
            changes = [change.inverse() for change in reversed(event_changes(target))]
            for change in changes:
                apply_change(tx, change)
            data: EventData = {"undoes": target.seq}
            summary: str = Message(
                "undo #{seq}: {summary}", seq=target.seq, summary=summary_of(target)
            )
            reopened = _check_reopening(
                tx,
                was,
                changes,
                ordinary=_finished_by_itself(target),
                action=Message("undo #{seq}", seq=target.seq),
                reason=reason,
                confirm=confirm,
            )
            if reopened:
                data["reopened"] = reopened
                summary = _reopens(summary, reopened["reason"])
            return Done(*_with_approval(tx, changes, summary, data))

        before_risky(self.frame.safeguard, "before-undo")
        return self.frame.change(tournament_id, "undo", body, actor=actor)

    def revert_to(
        self,
        tournament_id: int,
        seq: int,
        *,
        actor: str = "",
        reason: str | None = None,
        confirm: bool = False,
    ) -> Change:
        """Bring the tournament back to how it was right after event ``seq``: one event
        with the rows that differ between now and then (as many changes as rows that
        differ, however long the history since): the later events' changes are taken
        back in memory (:func:`rolled_back`), then only the differences are written.
        Reopening a finished tournament needs ``reason`` and ``confirm`` (see :meth:`undo`)."""

        def body(tx: Tx) -> Done:
            events = _events(tx.session, tx.tournament_id)
            if not any(e.seq == seq for e in events):
                raise RuleError(
                    "there is no event #{seq} (events 1–{last})", seq=seq, last=events[-1].seq
                )
            later = [e for e in events if e.seq > seq]
            if not later:
                raise RuleError("#{seq} is the latest event: nothing to revert", seq=seq)
            now = current_rows(tx.session, tx.tournament_id)
            changes = differences(now, rolled_back(now, later))
            was = tx.tournament.status
            for change in changes:
                apply_change(tx, change)
            data: EventData = {"to": seq}
            if not tx.changes:
                return Done(
                    Message("reverted to #{seq} (nothing had changed since)", seq=seq), data
                )
            stack = effective(events)
            kept = effective([e for e in events if e.seq <= seq])
            by_seq = {e.seq: e for e in events}
            reopened = _check_reopening(
                tx,
                was,
                changes,
                ordinary=stack[:-1] == kept and _finished_by_itself(by_seq[stack[-1]]),
                action=Message("reverting to #{seq}", seq=seq),
                reason=reason,
                confirm=confirm,
            )
            summary: str = (
                Message("reverted to #{seq}: 1 later event taken back", seq=seq)
                if len(later) == 1
                else Message(
                    "reverted to #{seq}: {count} later events taken back", seq=seq, count=len(later)
                )
            )
            if reopened:
                data["reopened"] = reopened
                summary = _reopens(summary, reopened["reason"])
            return Done(*_with_approval(tx, changes, summary, data))

        before_risky(self.frame.safeguard, "before-revert")
        return self.frame.change(tournament_id, "revert", body, actor=actor)

    def verify(self, tournament_id: int) -> list[str]:
        """Replay the whole history forwards and compare with the rows: the problems found
        (an empty list: the database is exactly what its history says)."""
        with self.frame.store.reading() as session:
            row = self._exists(session, tournament_id)
            events = _events(session, tournament_id)
            state = replayed_rows(events)
            problems: list[str] = []
            if events and row.revision != events[-1].seq:
                problems.append(f"revision {row.revision} but the last event is #{events[-1].seq}")
            actual = current_rows(session, tournament_id)
            for spot in sorted(set(state) | set(actual)):
                if spot not in actual:
                    problems.append(
                        f"{spot[0]} {spot[1]} is in the history but not in the database"
                    )
                elif spot not in state:
                    problems.append(
                        f"{spot[0]} {spot[1]} is in the database but not in the history"
                    )
                elif state[spot] != actual[spot]:
                    problems.append(f"{spot[0]} {spot[1]} differs from its history")
            return problems

    def _exists(self, session: Session, tournament_id: int) -> TournamentRow:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise NotFoundError(
                "there is no tournament {tournament} in this database", tournament=tournament_id
            )
        return row


def _events(session: Session, tournament_id: int) -> list[EventRow]:
    query = select(EventRow).where(EventRow.tournament_id == tournament_id).order_by(EventRow.seq)
    return list(session.scalars(query))


# -- the rows now and then -----------------------------------------------------------------

#: one row's tracked columns, as its snapshot holds them (column name → stored value)
Columns = dict[str, ColumnValue]
#: every row of a tournament by where it is (table, key)
Rows = dict[Spot, Columns]


class Reopening(TypedDict, total=False):
    """What an event records when it reopens a finished tournament."""

    reason: str
    results: int


def rolled_back(now: Rows, later: list[EventRow]) -> Rows:
    """The rows as they were before the events ``later`` (oldest first), from the rows
    ``now``: each of their changes taken back in memory, newest first. Columns no later
    event changed keep the values the rows have now (e.g. a column's default filled in
    by the database), so only what those events changed can differ."""
    state = {spot: dict(values) for spot, values in now.items()}
    for event in reversed(later):
        for change in reversed(event_changes(event)):
            spot = change.spot
            if change.before is None:
                state.pop(spot, None)
            elif change.after is None:
                state[spot] = dict(change.before)
            else:
                state[spot] = {**state.get(spot, {}), **change.before}
    return state


def current_rows(session: Session, tournament_id: int) -> Rows:
    """Every row of the tournament as the database holds it (tracked columns)."""
    actual: Rows = {}
    for table, model in MODELS.items():
        column = model.__table__.c["id" if model is TournamentRow else "tournament_id"]
        rows = session.scalars(select(model).where(column == tournament_id)).all()
        for item in rows:
            actual[(table, json.dumps(item.row_key(), sort_keys=True))] = item.snapshot()
    return actual


#: the order rows are inserted in (a game or a bye refers to its round and players)
_PARENTS_FIRST = tuple(MODELS)


def differences(now: Mapping[Spot, Snapshot], then: Mapping[Spot, Snapshot]) -> list[RowChange]:
    """The row changes that take the rows ``now`` to ``then``: one per row that differs
    (only the columns that differ), inserts parents first, deletes children first."""
    inserts: list[RowChange] = []
    updates: list[RowChange] = []
    deletes: list[RowChange] = []
    order = {table: index for index, table in enumerate(_PARENTS_FIRST)}
    for spot in sorted(set(now) | set(then), key=lambda s: (order.get(s[0], len(order)), s[1])):
        table, key = spot[0], json.loads(spot[1])
        before, after = now.get(spot), then.get(spot)
        if before is None and after is not None:
            inserts.append(RowChange(table, key, None, dict(after)))
        elif after is None and before is not None:
            deletes.append(RowChange(table, key, dict(before), None))
        elif before is not None and after is not None:
            differ = [name for name in after if name in before and before[name] != after[name]]
            if differ:
                updates.append(
                    RowChange(
                        table,
                        key,
                        {name: before[name] for name in differ},
                        {name: after[name] for name in differ},
                    )
                )
    return inserts + updates + deletes[::-1]


# -- reopening a finished tournament -------------------------------------------------------


def _finished_by_itself(event: EventRow) -> bool:
    """The event is a result that finished the tournament by itself (docs/store.md)."""
    return bool((event.data or {}).get("finished") == "auto")


def _check_reopening(
    tx: Tx,
    was: str,
    changes: Sequence[RowChange],
    *,
    ordinary: bool,
    action: str,
    reason: str | None,
    confirm: bool,
) -> Reopening:
    """``changes`` (applied in ``tx``) took a finished tournament back to running or
    registration: refused without a reason and a confirmation, saying what it takes
    back. What to record with the event (empty: not a reopening)."""
    if was != "finished" or tx.tournament.status == "finished" or ordinary:
        return {}
    results = sum(
        1
        for change in changes
        if change.table == "games"
        and change.before is not None
        and change.before.get("result") is not None
        and (change.after is None or "result" in change.after)
    )
    why = (reason or "").strip()
    if not why or not confirm:
        what = (
            "no result"
            if results == 0
            else "1 result"
            if results == 1
            else Message("{count} results", count=results)
        )
        raise ReopeningError(
            (
                "{action} reopens the finished tournament: it takes back the final places and "
                "{results}; give a reason and confirm"
            ),
            action=action,
            results=what,
        )
    return {"reason": why, "results": results}


def _with_approval(
    tx: Tx, changes: Sequence[RowChange], summary: str, data: EventData
) -> tuple[str, EventData]:
    """Withdraw an administrator's approval when ``changes`` leave other regulations
    than the approved ones (see :mod:`crosstable.service.approval`)."""
    withdrawn = withdraw_if_changed(tx, changes)
    if not withdrawn:
        return summary, data
    return with_withdrawn(summary), data | withdrawn


def _reopens(summary: str, reason: str) -> Message:
    return Message(
        "{summary}; reopens the finished tournament (reason: {reason})",
        summary=summary,
        reason=reason,
    )
