"""A row change is one typed record (docs/architecture.md, "Typed change records").

* The services pass :class:`~crosstable.core.row_changes.RowChange` records and turn them
  into JSON only where they are stored or sent: the stored JSON reads into records and
  writes back byte for byte (random records with hypothesis; a real tournament's log in
  SQLite and PostgreSQL), and the log a scripted run writes is the one the code before the
  records wrote (``tests/data/change_log.json``, made by ``tests/change_log_script.py`` on
  that code), so old databases are read unchanged.
* No ``dict[str, Any]`` carried through the change path: counted on the source of the
  modules that write or read row changes, the count may not grow past the justified few
  named in ``JUSTIFIED``.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
from pathlib import Path

from change_log_script import run_script, scripted_service, stored_log
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.row_changes import (
    JsonValue,
    RowChange,
    changes_json,
    read_changes,
)
from crosstable.service.bus import games_of
from crosstable.store import Store
from tests.typed_counts_support import PACKAGE
from tests.typed_counts_support import count_untyped_dicts as count_untyped

GOLDEN = Path(__file__).resolve().parent / "data" / "change_log.json"

#: the modules that write, pass or read row changes (the change frame, the unit of
#: work, history, the import check, the approval, the live path and its push)
CHANGE_MODULES = (
    "core/row_changes.py",
    "core/changes.py",
    "service/frame.py",
    "service/unit.py",
    "service/history.py",
    "service/import_check.py",
    "service/approval.py",
    "service/registration.py",
    "service/recording.py",
    "service/live.py",
    "service/bus.py",
    "service/poller.py",
    "service/tables.py",
    "service/pairing_phase.py",
    "web/push.py",
    "web/live_cells.py",
)

#: where a ``dict[str, Any]`` stays, and why (module: count)
JUSTIFIED = {
    # the one name of an event's ``data``: stored JSON whose fields depend on its kind
    "service/frame.py": 1,
    # a whole-tournament document as parsed, before the import check has checked it
    "service/import_check.py": 1,
}


def test_the_counter_finds_what_it_counts() -> None:
    assert count_untyped("x: dict[str, Any]\ny: dict[str,Any] | None\nz: dict[str, int]\n") == 2


def test_no_untyped_dicts_carried_with_the_row_changes() -> None:
    counts = {
        name: count_untyped((PACKAGE / name).read_text(encoding="utf-8")) for name in CHANGE_MODULES
    }
    grown = {
        name: (count, JUSTIFIED.get(name, 0))
        for name, count in counts.items()
        if count > JUSTIFIED.get(name, 0)
    }
    assert not grown, f"dict[str, Any] beyond the justified ones (found, allowed): {grown}"
    assert sum(counts.values()) <= sum(JUSTIFIED.values()) == 2


# -- stored JSON ⇄ records, byte for byte ----------------------------------------------

names = st.text(max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | names
)
json_values: st.SearchStrategy[JsonValue] = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=8,
)
snapshots = st.dictionaries(names, scalars | st.dictionaries(names, json_values, max_size=3))
row_changes = st.builds(
    RowChange,
    st.sampled_from(("tournaments", "entries", "rounds", "games", "byes", "team_boards")) | names,
    st.dictionaries(names, st.integers(0, 2**31 - 1) | names, max_size=3),
    st.none() | snapshots,
    st.none() | snapshots,
)


@given(st.lists(row_changes, max_size=6), st.booleans())
def test_a_stored_event_reads_into_records_and_writes_back_identical(
    changes: list[RowChange], ascii_only: bool
) -> None:
    stored = json.dumps(changes_json(changes), ensure_ascii=ascii_only)
    records = read_changes(stored)
    assert records == tuple(changes)
    assert json.dumps(changes_json(records), ensure_ascii=ascii_only) == stored
    assert read_changes(json.loads(stored)) == records  # (the driver's list, or its text)
    assert all(r.inverse().inverse() == r for r in records)


@given(st.lists(row_changes, min_size=1, max_size=3))
def test_anything_but_row_changes_is_refused(changes: list[RowChange]) -> None:
    stored = changes_json(changes)
    for broken in (
        {**stored[0], "table": 3},
        {**stored[0], "extra": None},
        {key: value for key, value in stored[0].items() if key != "after"},
        {**stored[0], "before": [1]},
    ):
        try:
            read_changes([broken])
        except ValueError:
            continue
        raise AssertionError(f"read as a row change: {broken!r}")


def _stored(store: Store, made: list[int]) -> list[list[object]]:
    """Every event's row changes as the database holds their text."""
    query = text("SELECT tournament_id, seq, kind, CAST(changes AS TEXT) FROM events")
    with store.reading() as session:
        rows = [(int(t), int(s), str(k), str(c)) for t, s, k, c in session.execute(query)]
    return stored_log(rows, made)


def test_a_real_log_reads_into_records_and_writes_back_identical(store: Store) -> None:
    """A scripted run of every kind of row change (a round robin with results on both
    paths, a correction, a report, an undo, a revert and the finish; a Swiss with its
    pairings and a withdrawal; a TRF import and a JSON import), in SQLite and in
    PostgreSQL: each event's stored text reads into records that write the same text,
    and the whole log is the one the code before the records wrote."""
    made = run_script(scripted_service(store))
    log = _stored(store, made)
    assert len(log) > 80
    for _place, _seq, _kind, stored in log:
        assert isinstance(stored, str)
        records = read_changes(stored)
        assert json.dumps(changes_json(records)) == stored
        # the games a notification names, read from the records, as the raw JSON names them
        raw = [c["key"] for c in json.loads(stored) if c["table"] == "games"]
        assert games_of(records) == tuple(dict.fromkeys((k["round"], k["board"]) for k in raw))
    assert log == json.loads(GOLDEN.read_text(encoding="utf-8"))
