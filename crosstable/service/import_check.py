"""The checks a whole-tournament JSON document passes before it is imported.

An import is either consistent or refused with the first inconsistency found:

* every row of the document is well-formed: known fields only, each of its column's
  type, integers within the database's range, texts within their column's length,
  no two rows with the same key (two rounds 3, two games at round 1 board 2);
* every event of the history is well-formed: ``seq`` 1, 2, 3…, texts where texts
  belong, row changes naming a known table, the key columns of that table, and
  before/after values of the columns' types;
* the history replays: each change finds its row as its ``before`` says (an insert
  finds none), an undo takes back exactly the change in force at its top (the
  inverse of its changes, newest first), a revert to event *n* leaves the rows
  exactly as they were right after *n*;
* the rows the replay ends with are the document's rows, the tournament row
  included.

So an imported tournament verifies (``History.verify`` finds nothing), and undo
and revert work on it as on one made here. Every check is linear in the size of
the document, which the caller has already bounded (``MAX_DOCUMENT_BYTES``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from crosstable.core.errors import InputError
from crosstable.core.row_changes import ColumnValue, RowChange, Spot
from crosstable.core.text import Message
from crosstable.service.frame import SUMMARY_MESSAGE
from crosstable.service.teams.exchange_rows import TEAM_SECTIONS
from crosstable.store.models import MODELS, Base

#: the largest tournament document the command line reads (a 500-player Swiss with
#: every result corrected twice is about 5 MB)
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
#: the database's integer ranges (SQLite's are wider; PostgreSQL's are these)
_INTEGER = 2**31 - 1
_BIG_INTEGER = 2**63 - 1
_EVENT_TEXTS = {"at": 40, "actor": 200, "kind": 40, "summary": None}
_CHANGE_FIELDS = {"table", "key", "before", "after"}

#: a whole-tournament JSON document as parsed, before it is checked (any JSON at all)
Document = dict[str, Any]
#: every row by where it is (table, key), its tracked columns by name
State = dict[Spot, dict[str, ColumnValue]]


class _Columns:
    """What a table's tracked columns accept."""

    def __init__(self, model: type[Base]) -> None:
        self.model = model
        self.columns = {c.key: c for c in model.__table__.columns if c.key not in model.untracked}
        self.required = {
            name
            for name, column in self.columns.items()
            if not column.nullable and column.default is None
        }

    def check_values(self, values: Any, where: str, source: str, *, whole: bool) -> None:
        if not isinstance(values, dict):
            raise InputError("{where} must be an object", source=source, where=where)
        unknown = sorted(set(values) - set(self.columns))
        if unknown:
            raise InputError(
                "{where}: unknown field {name}", source=source, where=where, name=repr(unknown[0])
            )
        if whole:
            missing = sorted(self.required - set(values))
            if missing:
                raise InputError(
                    "{where}: {name} is missing", source=source, where=where, name=missing[0]
                )
        for name, value in values.items():
            check_value(self.columns[name], value, f"{where}.{name}", source)


def check_value(column: Any, value: Any, where: str, source: str) -> None:
    """``value`` fits ``column``: its type, the integer range, the text length."""
    if value is None:
        if not column.nullable:
            raise InputError("{where} must not be null", source=source, where=where)
        return
    kind = type(column.type).__name__
    if kind in ("Integer", "BigInteger"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(
                "{where}: expected a whole number, got {value}",
                source=source,
                where=where,
                value=_show(value),
            )
        bound = _BIG_INTEGER if kind == "BigInteger" else _INTEGER
        if not -bound <= value <= bound:
            raise InputError(
                "{where}: {value} is out of range", source=source, where=where, value=_show(value)
            )
    elif kind == "Boolean":
        if not isinstance(value, bool):
            raise InputError(
                "{where}: expected true or false, got {value}",
                source=source,
                where=where,
                value=_show(value),
            )
    elif kind in ("String", "Text"):
        if not isinstance(value, str):
            raise InputError(
                "{where}: expected a text, got {value}",
                source=source,
                where=where,
                value=_show(value),
            )
        length = getattr(column.type, "length", None)
        if length is not None and len(value) > length:
            raise InputError(
                "{where}: {count} characters, at most {length} fit",
                source=source,
                where=where,
                count=len(value),
                length=length,
            )
        if "\x00" in value:
            raise InputError(
                "{where}: a text must not contain a NUL character", source=source, where=where
            )
    elif kind == "JSON" and not isinstance(value, dict):
        raise InputError(
            "{where}: expected an object, got {value}",
            source=source,
            where=where,
            value=_show(value),
        )


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


_TABLES = {name: _Columns(model) for name, model in MODELS.items()}
_SECTIONS = {
    "players": "entries",
    "rounds": "rounds",
    "games": "games",
    "byes": "byes",
    "checkins": "checkins",  # the hall's check-in
    # a team tournament's rows (crosstable/service/teams/exchange_rows.py)
    **{section: model.__tablename__ for section, model in TEAM_SECTIONS},
}


def _key_text(table: str, values: Mapping[str, object]) -> str:
    model = MODELS[table]
    return json.dumps({name: values.get(name) for name in model.key_columns}, sort_keys=True)


def document_rows(document: Document, source: str) -> State:
    """The document's rows (checked) by table and key, the tournament row included."""
    rows: State = {}
    tournament = dict(document["tournament"])
    tournament.pop("revision", None)
    _TABLES["tournaments"].check_values(tournament, "tournament", source, whole=True)
    rows[("tournaments", "{}")] = tournament
    for section, table in _SECTIONS.items():
        columns = _TABLES[table]
        for index, item in enumerate(document.get(section) or []):
            where = f"{section}[{index}]"
            tracked = dict(item) if isinstance(item, dict) else item
            if isinstance(tracked, dict):
                version = tracked.pop("version", None)
                if version is not None and (
                    not isinstance(version, int) or isinstance(version, bool) or version < 1
                ):
                    raise InputError(
                        "{where}.version must be a positive number", source=source, where=where
                    )
                if version is not None and version > _INTEGER:
                    raise InputError(
                        "{where}: {value} is out of range",
                        source=source,
                        where=f"{where}.version",
                        value=_show(version),
                    )
            columns.check_values(tracked, where, source, whole=True)
            spot = (table, _key_text(table, tracked))
            if spot in rows:
                raise InputError(
                    "{where}: a second row with the key {key} in {section}",
                    source=source,
                    where=where,
                    key=spot[1],
                    section=section,
                )
            rows[spot] = tracked
    return rows


def replay_history(history: list[Any], source: str) -> State:
    """Replay the history's row changes from nothing (checked); the rows it ends with."""
    _check_events(history, source)
    revert_targets = {int(event["data"]["to"]) for event in history if event["kind"] == "revert"}
    state: State = {}
    kept: dict[int, State] = {}
    stack: list[int] = []
    after: dict[int, list[int]] = {}
    by_seq: dict[int, list[RowChange]] = {}
    for index, event in enumerate(history):
        seq = index + 1
        where = f"history[{index}]"
        changes = [RowChange.from_json(change) for change in event["changes"]]  # (checked)
        kind = event["kind"]
        if kind == "undo":
            target = int(event["data"]["undoes"])
            if not stack or stack[-1] != target:
                raise InputError(
                    "{where} undoes #{seq}, which is not the last change in force",
                    source=source,
                    where=where,
                    seq=target,
                )
            expected = [change.inverse() for change in reversed(by_seq[target])]
            if changes != expected:
                raise InputError(
                    "{where}: the changes do not take back #{seq}'s",
                    source=source,
                    where=where,
                    seq=target,
                )
            stack.pop()
        elif kind == "revert":
            stack = list(after.get(int(event["data"]["to"]), []))
        elif changes:
            stack.append(seq)
        for number, change in enumerate(changes):
            _apply(state, change, f"{where}.changes[{number}]", source)
        if kind == "revert":
            to = int(event["data"]["to"])
            if state != kept[to]:
                raise InputError(
                    "{where} reverts to #{seq}, but the rows are not as they were after #{to}",
                    source=source,
                    where=where,
                    seq=to,
                    to=to,
                )
        after[seq] = list(stack)
        by_seq[seq] = changes
        if seq in revert_targets:
            kept[seq] = {spot: dict(values) for spot, values in state.items()}
    return state


def _check_events(history: list[Any], source: str) -> None:
    keys: set[str] = set()
    for index, event in enumerate(history):
        where = f"history[{index}]"
        if not isinstance(event, dict):
            raise InputError("{where} must be an object", source=source, where=where)
        if event.get("seq") != index + 1 or isinstance(event.get("seq"), bool):
            raise InputError("{where}.seq must be {seq}", source=source, where=where, seq=index + 1)
        for name, length in _EVENT_TEXTS.items():
            value = event.get(name)
            if not isinstance(value, str) or (length is not None and len(value) > length):
                limit = Message(" of at most {length} characters", length=length) if length else ""
                raise InputError(
                    "{where}.{name} must be a text{limit}",
                    source=source,
                    where=where,
                    name=name,
                    limit=limit,
                )
        if not event["kind"]:
            raise InputError("{where}.kind must not be empty", source=source, where=where)
        key = event.get("idempotency_key")
        if key is not None:
            if not isinstance(key, str) or len(key) > 200:
                raise InputError(
                    "{where}.idempotency_key must be a text of at most 200 characters",
                    source=source,
                    where=where,
                )
            if key in keys:
                raise InputError(
                    "{where}.idempotency_key is used twice", source=source, where=where
                )
            keys.add(key)
        data = event.get("data")
        if not isinstance(data, dict):
            raise InputError("{where}.data must be an object", source=source, where=where)
        if SUMMARY_MESSAGE in data and not message_shape_ok(data[SUMMARY_MESSAGE]):
            raise InputError(
                (
                    "{where}.data.{name} is not a history line's message: a template and its "
                    "values (texts, numbers, fractions, messages nested at most {most} deep)"
                ),
                source=source,
                where=where,
                name=SUMMARY_MESSAGE,
                most=MESSAGE_DEPTH,
            )
        changes = event.get("changes")
        if not isinstance(changes, list):
            raise InputError("{where}.changes must be a list", source=source, where=where)
        target_field = {"undo": "undoes", "revert": "to"}.get(event["kind"])
        if target_field is not None:
            target = data.get(target_field)
            if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= index:
                raise InputError(
                    "{where}.data.{name} must name an earlier event (1–{last})",
                    source=source,
                    where=where,
                    name=target_field,
                    last=index,
                )
        for number, change in enumerate(changes):
            _check_change(change, f"{where}.changes[{number}]", source)


#: how deep an imported history line's message may nest (the code's own are a few deep)
MESSAGE_DEPTH = 32
#: the most pieces one history line's message may have
MESSAGE_PIECES = 10_000


def message_shape_ok(data: Any) -> bool:
    """``data`` is a message as :meth:`~crosstable.core.text.Message.to_json` writes one
    (a template, values that are None, booleans, numbers, texts, fractions with a
    denominator other than 0, or messages), nested at most :data:`MESSAGE_DEPTH` deep and
    of at most :data:`MESSAGE_PIECES` pieces: a history line of an imported document is
    read back from it, so a malformed one is refused at the import (walked without
    recursion, so a deep one cannot exhaust the stack)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    pieces = 0
    while todo:
        message, depth = todo.pop()
        pieces += 1
        if depth > MESSAGE_DEPTH or pieces > MESSAGE_PIECES:
            return False
        if not isinstance(message, dict) or not isinstance(message.get("template"), str):
            return False
        params = message.get("params") or {}
        if not isinstance(params, dict):
            return False
        for value in params.values():
            if isinstance(value, dict):
                if set(value) == {"message"}:
                    todo.append((value["message"], depth + 1))
                    continue
                fraction = value.get("fraction") if set(value) == {"fraction"} else None
                if not (
                    isinstance(fraction, list)
                    and len(fraction) == 2
                    and all(isinstance(n, int) and not isinstance(n, bool) for n in fraction)
                    and fraction[1] != 0
                ):
                    return False
            elif not (value is None or isinstance(value, (bool, int, float, str))):
                return False
    return True


def _check_change(change: Any, where: str, source: str) -> None:
    if not isinstance(change, dict) or set(change) != _CHANGE_FIELDS:
        raise InputError(
            "{where} must be an object with table, key, before and after",
            source=source,
            where=where,
        )
    table = change["table"]
    if not isinstance(table, str) or table not in _TABLES:
        raise InputError(
            "{where}.table: unknown table {table}", source=source, where=where, table=_show(table)
        )
    columns = _TABLES[table]
    key = change["key"]
    names = MODELS[table].key_columns
    if not isinstance(key, dict) or set(key) != set(names):
        wanted = ", ".join(names) or "nothing"
        raise InputError("{where}.key must name {names}", source=source, where=where, names=wanted)
    for name in names:
        check_value(columns.columns[name], key[name], f"{where}.key.{name}", source)
    before, after = change["before"], change["after"]
    if before is None and after is None:
        raise InputError("{where}: before and after are both null", source=source, where=where)
    for name, values in (("before", before), ("after", after)):
        if values is None:
            continue
        whole = (name == "after" and before is None) or (name == "before" and after is None)
        columns.check_values(values, f"{where}.{name}", source, whole=whole)
        for column in names:
            if column in values and values[column] != key[column]:
                raise InputError(
                    Message(
                        "{where}.{name}.{column} differs from its key",
                        where=where,
                        name=name,
                        column=column,
                    ),
                    source=source,
                )


def _apply(state: State, change: RowChange, where: str, source: str) -> None:
    spot = change.spot
    before, after = change.before, change.after
    current = state.get(spot)
    if before is None:
        if current is not None:
            raise InputError(
                "{where} inserts a row that exists already", source=source, where=where
            )
    else:
        if current is None:
            raise InputError(
                "{where} changes a row that does not exist", source=source, where=where
            )
        for name, value in before.items():
            if current.get(name) != value:
                raise InputError(
                    "{where}: {name} is {value} at that point, the change expects {expected}",
                    source=source,
                    where=where,
                    name=name,
                    value=_show(current.get(name)),
                    expected=_show(value),
                )
    if after is None:
        del state[spot]
    else:
        state[spot] = {**(current or {}), **after}


def check_import(document: Document, source: str) -> None:
    """Refuse ``document`` (an :class:`InputError` naming the first fault) unless its rows
    are well-formed and equal to what its well-formed history replays to."""
    rows = document_rows(document, source)
    state = replay_history(document["history"], source)
    for spot in sorted(set(rows) | set(state)):
        table, key = spot
        label = "tournament" if table == "tournaments" else f"{table} {key}"
        if spot not in state:
            raise InputError(
                "{label} is in the document but not in its history", source=source, label=label
            )
        if spot not in rows:
            raise InputError(
                "{label} is in the history but not in the document", source=source, label=label
            )
        missing = object()
        for name in sorted(set(rows[spot]) | set(state[spot])):
            if rows[spot].get(name, missing) != state[spot].get(name, missing):
                raise InputError(
                    "{label}: {name} is {value}, its history says {expected}",
                    source=source,
                    label=label,
                    name=name,
                    value=_show(rows[spot].get(name)),
                    expected=_show(state[spot].get(name)),
                )


__all__ = ["MAX_DOCUMENT_BYTES", "check_import"]
