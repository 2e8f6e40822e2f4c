"""The history of a tournament: every change, undo of the last one, revert to any point.

The event log is append-only. Undoing appends an event that applies the undone
event's row changes backwards; reverting to event *n* appends one event that
takes back, newest first, everything recorded after *n* (undos included, so a
revert can itself be reverted). What is "undone" is read from the log, never
stored by rewriting it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.service.base import Change, Done, ServiceBase, append_event
from crosstable.service.errors import NotFoundError
from crosstable.service.unit import Tx, apply_change, inverse
from crosstable.store.models import MODELS, EventRow, TournamentRow

#: events that take others back (they are not themselves undone by ``undo``)
_REVERSALS = ("undo", "revert")


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
    data: dict[str, Any],
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


class History(ServiceBase):
    """Use cases on the event log."""

    def history(self, tournament_id: int) -> list[HistoryItem]:
        with self.store.reading() as session:
            self._exists(session, tournament_id)
            events = _events(session, tournament_id)
        live = set(effective(events))
        return [
            HistoryItem(
                e.seq,
                e.at,
                e.actor,
                e.kind,
                e.summary,
                undone=e.kind not in _REVERSALS and bool(e.changes) and e.seq not in live,
            )
            for e in events
        ]

    def undo(self, tournament_id: int, *, actor: str = "") -> Change:
        """Take back the last change still in force (not the creation)."""

        def body(tx: Tx) -> Done:
            events = _events(tx.session, tx.tournament_id)
            stack = effective(events)
            if len(stack) <= 1:
                raise RuleError("there is nothing to undo")
            target = next(e for e in events if e.seq == stack[-1])
            for change in reversed(target.changes):
                apply_change(tx, inverse(change))
            return Done(f"undo #{target.seq}: {target.summary}", {"undoes": target.seq})

        return self._change(tournament_id, "undo", body, actor=actor)

    def revert_to(self, tournament_id: int, seq: int, *, actor: str = "") -> Change:
        """Bring the tournament back to how it was right after event ``seq``."""

        def body(tx: Tx) -> Done:
            events = _events(tx.session, tx.tournament_id)
            if not any(e.seq == seq for e in events):
                raise RuleError(f"there is no event #{seq} (events 1–{events[-1].seq})")
            later = [e for e in events if e.seq > seq]
            if not later:
                raise RuleError(f"#{seq} is the latest event: nothing to revert")
            for event in reversed(later):
                for change in reversed(event.changes):
                    apply_change(tx, inverse(change))
            if not tx.changes:
                return Done(f"reverted to #{seq} (nothing had changed since)", {"to": seq})
            return Done(f"reverted to #{seq}: {len(later)} later event(s) taken back", {"to": seq})

        return self._change(tournament_id, "revert", body, actor=actor)

    def verify(self, tournament_id: int) -> list[str]:
        """Replay the whole history forwards and compare with the rows: the problems found
        (an empty list: the database is exactly what its history says)."""
        with self.store.reading() as session:
            row = self._exists(session, tournament_id)
            events = _events(session, tournament_id)
            state: dict[tuple[str, str], dict[str, Any]] = {}
            problems: list[str] = []
            for event in events:
                for change in event.changes:
                    spot = (change["table"], json.dumps(change["key"], sort_keys=True))
                    if change["after"] is None:
                        state.pop(spot, None)
                    else:
                        state[spot] = state.get(spot, {}) | change["after"]
            if events and row.revision != events[-1].seq:
                problems.append(f"revision {row.revision} but the last event is #{events[-1].seq}")
            actual: dict[tuple[str, str], dict[str, Any]] = {}
            for table, model in MODELS.items():
                column = model.__table__.c["id" if model is TournamentRow else "tournament_id"]
                rows = session.scalars(select(model).where(column == tournament_id)).all()
                for item in rows:
                    actual[(table, json.dumps(item.row_key(), sort_keys=True))] = item.snapshot()
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
            raise NotFoundError(f"there is no tournament {tournament_id} in this database")
        return row


def _events(session: Session, tournament_id: int) -> list[EventRow]:
    query = select(EventRow).where(EventRow.tournament_id == tournament_id).order_by(EventRow.seq)
    return list(session.scalars(query))
