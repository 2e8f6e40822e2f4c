"""A row change of the event log as one typed record.

Every write changes a tournament's rows through the service's unit of work, which
records each row it touches: its table, its key within the tournament (``{"round": 2,
"board": 1}``; the tournament's own row has the key ``{}``), its tracked columns before
and after (``None`` before: the row is inserted; ``None`` after: it is deleted).
:class:`RowChange` is that record in memory, and what the services pass around (undo,
revert, the import check, the approval, the live table, the notifications).

It becomes JSON only where it is stored or sent: :meth:`RowChange.to_json` is the event
log's form, ``{"table", "key", "before", "after"}`` in that order with the snapshots'
columns in their own order, and :meth:`RowChange.from_json` reads a stored one back
without copying it, so that ``from_json(stored).to_json()`` is ``stored`` and the log of an
old database reads and writes byte for byte as it always did.

>>> change = RowChange("games", {"round": 2, "board": 1}, {"result": None}, {"result": "10"})
>>> print(json.dumps(change.to_json(), indent=None, separators=(",", ":")))
{"table":"games","key":{"round":2,"board":1},"before":{"result":null},"after":{"result":"10"}}
>>> RowChange.from_json(change.to_json()) == change, change.inverse().after
(True, {'result': None})
>>> change.spot, change.game
(('games', '{"board": 1, "round": 2}'), (2, 1))
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypedDict

#: a JSON value (what the event log's JSON holds)
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
#: a plain column's value: the store's columns are whole numbers, texts, booleans or null
Scalar = str | int | float | bool | None
#: a tracked column's value in a row snapshot: a scalar, or a JSON object (the
#: tournament's point system and its regulations' details are JSON columns)
ColumnValue = Scalar | Mapping[str, JsonValue]
#: one row's tracked columns as the log keeps them: column name → value
Snapshot = Mapping[str, ColumnValue]
#: a row's key within its tournament: key column → value (``{}``: the tournament's row)
RowKey = Mapping[str, Scalar]
#: a row of a tournament: (table, its key as sorted JSON)
Spot = tuple[str, str]


class StoredChange(TypedDict):
    """A row change as the event log stores it (and the JSON export writes it)."""

    table: str
    key: RowKey
    before: Snapshot | None
    after: Snapshot | None


@dataclass(frozen=True, slots=True)
class RowChange:
    """One row taken from ``before`` to ``after`` (None before: inserted; None after:
    deleted; else only the columns that changed)."""

    table: str
    key: RowKey
    before: Snapshot | None
    after: Snapshot | None

    def to_json(self) -> StoredChange:
        """The stored form (the same objects, not copies: what was read is written)."""
        return {"table": self.table, "key": self.key, "before": self.before, "after": self.after}

    @classmethod
    def from_json(cls, stored: object) -> RowChange:
        """A stored row change read back (``ValueError``: not one)."""
        if not isinstance(stored, dict) or len(stored) != 4:
            raise ValueError("a row change is an object with table, key, before and after")
        table, key = stored.get("table"), stored.get("key")
        before, after = stored.get("before", False), stored.get("after", False)
        if (
            not isinstance(table, str)
            or not isinstance(key, dict)
            or not (before is None or isinstance(before, dict))
            or not (after is None or isinstance(after, dict))
        ):
            raise ValueError("a row change is an object with table, key, before and after")
        return cls(table, key, before, after)

    def inverse(self) -> RowChange:
        """The change that takes the row back."""
        return RowChange(self.table, self.key, self.after, self.before)

    @property
    def spot(self) -> Spot:
        """Where the row is: its table and its key as sorted JSON."""
        return (self.table, json.dumps(self.key, sort_keys=True))

    @property
    def game(self) -> tuple[int, int] | None:
        """(round, board) when the row is a game's, else None."""
        if self.table != "games":
            return None
        return (_whole(self.key["round"]), _whole(self.key["board"]))


def changes_json(changes: Iterable[RowChange]) -> list[StoredChange]:
    """An event's row changes in their stored form."""
    return [change.to_json() for change in changes]


def read_changes(stored: object) -> tuple[RowChange, ...]:
    """An event's stored row changes (a list, or its JSON text as some drivers answer
    it) read into records; ``ValueError``: not a list of row changes."""
    if isinstance(stored, str | bytes):
        stored = json.loads(stored)
    if not isinstance(stored, list):
        raise ValueError("an event's row changes are a list")
    return tuple(RowChange.from_json(item) for item in stored)


def _whole(value: Scalar) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError("not a number")
    return int(value)
