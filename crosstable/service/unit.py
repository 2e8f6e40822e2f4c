"""The unit of work of one change: rows inserted, updated and deleted, with before/after.

Every use case changes rows only through a :class:`Tx`, which records each row's
values before and after as a :class:`~crosstable.core.row_changes.RowChange`. Those
records are the event's ``changes`` in the log (stored as JSON by
:func:`~crosstable.core.row_changes.changes_json`); :func:`apply_change` plays one
forwards or backwards, which is all that undo and revert need. Rows are named by their
key within the tournament (``{"round": 2, "board": 1}``), never by database identifiers,
so the history is portable (export/import keeps it undoable).
"""

from __future__ import annotations

from random import Random
from typing import Any

from sqlalchemy.orm import Session

from crosstable.core.errors import CrosstableError
from crosstable.core.row_changes import ColumnValue, RowChange, RowKey, Snapshot, Spot, read_changes
from crosstable.store.models import MODELS, Base, EventRow, TournamentRow

#: one row's tracked columns while they are worked on (a :data:`Snapshot` being built)
Columns = dict[str, ColumnValue]


class HistoryMismatchError(CrosstableError):
    """The database no longer matches the history (changed behind the service's back)."""


class Tx:
    """Records the row changes of one use case inside its transaction."""

    def __init__(self, session: Session, tournament: TournamentRow) -> None:
        self.session = session
        self.tournament = tournament
        self.changes: list[RowChange] = []
        #: (round, board) of games touched, for the change notification
        self.games: list[tuple[int, int]] = []
        #: the service's random source (a use case that draws, e.g. the lots for ties at
        #: the finish); set by the service for its changes
        self.random: Random | None = None

    @property
    def tournament_id(self) -> int:
        return self.tournament.id

    def insert(self, row: Base) -> None:
        if not isinstance(row, TournamentRow):
            row.tournament_id = self.tournament.id  # type: ignore[attr-defined]
        for column in row.__table__.columns:
            # a column left out takes its default NOW, so the history's snapshot is the row
            # the database will hold (e.g. a club added later with default "")
            default = column.default
            if getattr(row, column.key) is None and default is not None and default.is_scalar:
                setattr(row, column.key, default.arg)
        self.session.add(row)
        self.changes.append(RowChange(row.__tablename__, row.row_key(), None, row.snapshot()))
        self._note_game(row)

    def created(self) -> None:
        """Record the tournament's own row as inserted (the first change of a new
        tournament, whose row the caller added to the session)."""
        row = self.tournament
        self.changes.append(RowChange(row.__tablename__, {}, None, row.snapshot()))

    def update(self, row: Base, **values: Any) -> bool:
        """Set columns; records only what really changed. Returns False if nothing did."""
        before: Columns = {}
        after: Columns = {}
        for name, value in values.items():
            current = getattr(row, name)
            if current != value:
                before[name] = current
                after[name] = value
                setattr(row, name, value)
        if not after:
            return False
        if hasattr(row, "version"):
            row.version += 1
        self.changes.append(RowChange(row.__tablename__, row.row_key(), before, after))
        self._note_game(row)
        return True

    def delete(self, row: Base) -> None:
        self.session.flush()
        self.changes.append(RowChange(row.__tablename__, row.row_key(), row.snapshot(), None))
        self._note_game(row)
        self.session.delete(row)
        self.session.flush()

    def flush(self) -> None:
        self.session.flush()

    def _note_game(self, row: Base) -> None:
        if row.__tablename__ == "games":
            spot = (int(row.round), int(row.board))  # type: ignore[attr-defined]
            if spot not in self.games:
                self.games.append(spot)


def apply_change(tx: Tx, change: RowChange) -> None:
    """Take one row from ``change.before`` to ``change.after`` (checked), recording it."""
    table = change.table
    model = MODELS.get(table)
    if model is None:
        raise HistoryMismatchError("the history names an unknown table {table}", table=repr(table))
    key, before, after = change.key, change.before, change.after
    row = _get(tx, model, key)
    where = _describe(table, key)
    if before is None:
        if row is not None:
            raise HistoryMismatchError(
                "{where} exists already; the history cannot be replayed", where=where
            )
        if after is None:
            return
        new = model(**after)
        tx.insert(new)
        tx.flush()
        return
    if row is None:
        raise HistoryMismatchError(
            "{where} is missing; the history cannot be replayed", where=where
        )
    for name, value in before.items():
        if getattr(row, name) != value:
            raise HistoryMismatchError(
                "{where}: {name} is {value}, the history expects {expected}",
                where=where,
                name=name,
                value=repr(getattr(row, name)),
                expected=repr(value),
            )
    if after is None:
        tx.delete(row)
    else:
        tx.update(row, **after)
        tx.flush()


def _get(tx: Tx, model: type[Base], key: RowKey) -> Base | None:
    if model is TournamentRow:
        return tx.tournament
    identity = (tx.tournament.id, *(key[name] for name in model.key_columns))
    return tx.session.get(model, identity)


def _describe(table: str, key: RowKey) -> str:
    if not key:
        return table
    return table + " " + ", ".join(f"{name} {value}" for name, value in key.items())


def event_changes(event: EventRow) -> tuple[RowChange, ...]:
    """An event's row changes as records (read from the stored JSON)."""
    return read_changes(event.changes)


def replayed_rows(events: list[EventRow]) -> dict[Spot, Snapshot]:
    """Every row of the tournament as the history ``events`` (oldest first, from the
    creation) leaves it: the replay that :meth:`History.verify` checks the rows with."""
    state: dict[Spot, Snapshot] = {}
    for event in events:
        for change in event_changes(event):
            spot = change.spot
            if change.after is None:
                state.pop(spot, None)
            else:
                state[spot] = {**state.get(spot, {}), **change.after}
    return state
